import type { UiText } from './ui';

/**
 * Message ids follow Ory Kratos (text/id.go), so clients that key on ids keep working; the texts are
 * ours. Ids 1990000 and up are Watchkeeper's own.
 */
const info = (id: number, text: string, context?: Record<string, unknown>): UiText => ({ id, text, type: 'info', ...(context ? { context } : {}) });
const error = (id: number, text: string, context?: Record<string, unknown>): UiText => ({ id, text, type: 'error', ...(context ? { context } : {}) });
const success = (id: number, text: string, context?: Record<string, unknown>): UiText => ({ id, text, type: 'success', ...(context ? { context } : {}) });

export const M = {
  // login
  signIn: info(1010001, 'Sign in'),
  reauthenticate: info(1010003, 'Confirm it is you to continue.'),
  secondFactor: info(1010004, 'Complete the second step to sign in.'),
  totpLabel: info(1010006, 'Authentication code'),
  lookupLabel: info(1010007, 'Backup recovery code'),
  useSecurityKey: info(1010008, 'Use security key'),
  useAuthenticator: info(1010009, 'Use authenticator'),
  useLookup: info(1010010, 'Use backup recovery code'),
  signInWithPasskey: info(1010021, 'Sign in with a passkey'),
  // registration
  signUp: info(1040001, 'Sign up'),
  // settings
  saved: success(1050001, 'Your changes have been saved.'),
  save: info(1070003, 'Save'),
  unlinkTotp: info(1050004, 'Unlink authenticator app'),
  totpQr: info(1050005, 'Authenticator app QR code'),
  totpSecret: (secret: string) => info(1050006, secret, { secret }),
  revealLookup: info(1050007, 'Reveal backup recovery codes'),
  regenerateLookup: info(1050008, 'Generate new backup recovery codes'),
  lookupSecret: (code: string) => info(1050009, code, { secret: code }),
  lookupListLabel: info(1050010, 'These are your backup recovery codes. Keep them in a safe place: each works once.'),
  confirmLookup: info(1050011, 'Confirm backup recovery codes'),
  addSecurityKey: info(1050012, 'Add security key'),
  securityKeyName: info(1050013, 'Name of the security key'),
  lookupUsed: (usedAt: string) => info(1050014, `used ${usedAt}`, { used_at: usedAt }),
  lookupList: (codes: UiText[]) => info(1050015, codes.map((code) => code.text).join(', '), { secrets: codes }),
  disableLookup: info(1050016, 'Disable backup recovery codes'),
  totpSecretLabel: info(1050017, 'If you cannot scan the QR code, enter this secret in your authenticator app.'),
  removeSecurityKey: (name: string, addedAt: string) => info(1050018, `Remove security key "${name}"`, { display_name: name, added_at: addedAt }),
  addPasskey: info(1050019, 'Add passkey'),
  removePasskey: (name: string, addedAt: string) => info(1050020, `Remove passkey "${name}"`, { display_name: name, added_at: addedAt }),
  // recovery
  recoverySuccess: (minutes: number) =>
    success(1060001, `You recovered your account. Set a new password within the next ${minutes} minutes.`, { privileged_session_expires_at_unix_minutes: minutes }),
  recoveryCodeSent: info(1060003, 'If an account uses this address, a recovery code is on its way to it. Enter the code below.'),
  // node labels
  password: info(1070001, 'Password'),
  email: info(1070002, 'Email', { title: 'Email' }),
  firstName: info(1070002, 'First name', { title: 'First name' }),
  lastName: info(1070002, 'Last name', { title: 'Last name' }),
  submit: info(1070005, 'Submit'),
  verifyCode: info(1070006, 'Verification code'),
  recoveryCode: info(1070006, 'Recovery code'),
  resendCode: info(1070008, 'Resend code'),
  continue: info(1070009, 'Continue'),
  // verification
  verificationCodeSent: info(1080003, 'A verification code is on its way to this address. Enter it below.'),
  verified: success(1080002, 'Your email address is verified.'),
  // validation
  required: (property: string) => error(4000002, `${property} is required`, { property }),
  invalidEmail: (value: string) => error(4000004, `"${value}" is not a valid email address`, { value }),
  passwordPolicy: (reason: string) => error(4000005, `The password cannot be used: ${reason}.`, { reason }),
  invalidCredentials: error(4000006, 'The email address or password is wrong.'),
  duplicate: error(4000007, 'An account with this email address exists already.'),
  totpWrong: error(4000008, 'The authentication code is wrong; enter the current code from your app.'),
  noTotp: error(4000011, 'You have not set up an authenticator app.'),
  lookupUsedAlready: error(4000012, 'This backup recovery code was used already.'),
  noSecurityKey: error(4000013, 'You have not added a security key.'),
  noLookup: error(4000014, 'You have no backup recovery codes.'),
  lookupInvalid: error(4000016, 'This backup recovery code is not valid.'),
  passkeyInvalid: error(4000036, 'The passkey could not be verified. Try again, or sign in with your password.'),
  securityKeyInvalid: error(4000037, 'The security key could not be verified. Try again.'),
  expired: (minutes: number) => error(4010001, `The form expired ${minutes} minutes ago; it was reloaded, please fill it out again.`, { expired_at_unix_minutes: minutes }),
  recoveryCodeInvalid: error(4060006, 'The recovery code is wrong or was used already.'),
  recoveryTooOften: error(4060009, 'The recovery code was entered wrongly too often. Ask for a new one.'),
  verificationCodeInvalid: error(4070006, 'The verification code is wrong or was used already.'),
  verificationTooOften: error(4070009, 'The verification code was entered wrongly too often. Ask for a new one.'),
  generic: (reason: string) => error(4000001, reason, { reason }),
  // Watchkeeper's own
  mailNotConfigured: info(1990001, 'No mail server is configured (SMTP_URL), so the code was written to the server log instead of being sent.'),
  rateLimited: (seconds: number) =>
    error(1990002, `Too many attempts. Try again in ${seconds >= 60 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`}.`, { retry_after_seconds: seconds }),
  firstAccount: info(1990003, 'No account exists yet: the first account you create becomes the administrator.'),
  noSocialProviders: info(1990004, 'No social sign-in providers are configured on this server.'),
} as const;
