import { generate, generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

export const TOTP_ISSUER = 'Watchkeeper';

export function newTotpSecret(): string {
  return generateSecret();
}

/** The enrolment QR code as a data: URL (the settings flow's totp_qr image node). */
export function totpQrCode(secret: string, account: string): Promise<string> {
  return QRCode.toDataURL(generateURI({ issuer: TOTP_ISSUER, label: account, secret }), { margin: 1, width: 256 });
}

/** The current code of a secret, for tests and the CLI. */
export function totpNow(secret: string): Promise<string> {
  return generate({ secret });
}

/**
 * Checks a code with one 30 s step of clock drift either way. `lastStep` is the step of the last code
 * accepted for this secret: the same code (or an older one) is refused, so a code seen over a shoulder
 * cannot be replayed. Answers the step to remember, or undefined when the code is wrong.
 */
export async function checkTotp(secret: string, code: string, lastStep?: number): Promise<number | undefined> {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const result = await verify({ secret, token, epochTolerance: 30 });
  if (!result.valid || !('timeStep' in result) || typeof result.timeStep !== 'number') return undefined;
  if (lastStep !== undefined && result.timeStep <= lastStep) return undefined;
  return result.timeStep;
}
