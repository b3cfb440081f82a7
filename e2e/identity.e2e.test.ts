import { generate } from 'otplib';
import type { CDPSession, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../server/platform/db/embedded';
import { createUser, signIn, useJourney } from './harness';

/** The identity pages: registration, sign-in and sign-out, TOTP, recovery by mail, security keys and passkeys. */

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Main navigation' });

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL((url) => url.pathname === '/login');
}

async function enterPassword(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** A TOTP code for the next 30 s step: the one used to enrol may not be replayed at sign-in. */
async function nextCode(secret: string): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
}

describe('identity: first account, sign-in, TOTP and roles', () => {
  const journey = useJourney();
  const url = (path: string) => `${journey.server().url}${path}`;
  const admin = { email: 'ada@example.com', password: 'first admin passphrase 7' };

  it('registers the first account, which is an administrator, then signs out and in again', async () => {
    const page = journey.page();
    await page.goto(url('/'));
    await page.waitForURL((u) => u.pathname === '/login');
    await page.getByRole('heading', { name: 'Sign In to your account' }).waitFor();
    expect(await page.title()).toBe('Sign In to your account | Watchkeeper');
    await page.getByText('No account exists yet: the first account you create becomes the administrator.').waitFor();
    await page.getByRole('link', { name: 'Create the first account' }).click();

    await page.getByRole('heading', { name: 'Create account' }).waitFor();
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Admin');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('The password cannot be used: the password must be at least 8 characters long, but got 5.').waitFor();
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Sign up' }).click();

    await page.waitForURL((u) => !u.pathname.startsWith('/registration') && !u.pathname.startsWith('/login'));
    await sidebar(page).getByRole('button', { name: 'Settings' }).waitFor();
    const here = new URL(page.url());
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByText('Hi Ada Admin').waitFor();
    await page.keyboard.press('Escape');

    await signOut(page);
    expect(new URL(page.url()).searchParams.get('return_to')).toBe(`${here.pathname}${here.search}`);
    // Signed out for real: the console sends the browser back to sign in.
    await page.goto(url('/settings/feature-flags'));
    await page.waitForURL((u) => u.pathname === '/login');
    await enterPassword(page, admin.email, admin.password);
    await page.waitForURL((u) => u.pathname === '/settings/feature-flags');
    await page.getByRole('heading', { name: 'Feature Flags', level: 1 }).waitFor();
  });

  it('shows the sign-in error of a wrong password and submits username and password from the URL', async () => {
    const page = journey.page();
    await signOut(page);
    await enterPassword(page, admin.email, 'not the password at all');
    await page.getByText('The email address or password is wrong.').waitFor();
    await page.goto(url(`/login?username=${encodeURIComponent(admin.email)}&password=${encodeURIComponent(admin.password)}&return_to=%2Fsettings%2Fjobs`));
    await page.waitForURL((u) => u.pathname === '/settings/jobs');
    // Spec §8: a flow error that no longer exists (or never did) goes home, not to an error with 'Try again' (issue 38).
    await page.goto(url('/error?id=00000000-0000-0000-0000-000000000000'));
    await page.waitForURL((u) => u.pathname === '/topology');
    expect(await page.getByText('An error occurred').count()).toBe(0);
  });

  it('enrols an authenticator app and asks for its code at the next sign-in', async () => {
    const page = journey.page();
    // Go back, and the sign-in after sign-out, return to the page the profile was opened from.
    const from = new URL(page.url()).pathname;
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Your Profile' }).click();
    await page.getByRole('heading', { name: 'Manage 2FA TOTP Authenticator App' }).waitFor();
    for (const section of ['Profile Settings', 'Change Password', 'Manage Social Sign In', 'Manage 2FA Backup Recovery Codes', 'Manage Hardware Tokens and Biometrics']) {
      await page.getByRole('heading', { name: section, level: 2 }).waitFor();
    }
    const secret = (await page.getByTestId('totp_secret_key').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const totp = page.locator('form[data-group="totp"]');
    await totp.getByLabel('Authentication code').fill(await generate({ secret }));
    await totp.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your changes have been saved.').waitFor();
    await page.locator('form[data-group="totp"]').getByRole('button', { name: 'Unlink authenticator app' }).waitFor();
    // Spec §9: the outcome clears after 10 s.
    await page.getByText('Your changes have been saved.').waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByRole('link', { name: 'Go back' }).click();
    await page.waitForURL((u) => u.pathname === from);

    await signOut(page);
    await enterPassword(page, admin.email, admin.password);
    await page.getByRole('heading', { name: 'Two-Factor Authentication' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Use authenticator' }).click();
    await page.getByText('The authentication code is wrong; enter the current code from your app.').waitFor();
    await page.getByLabel('Authentication code').fill(await nextCode(secret));
    await page.getByRole('button', { name: 'Use authenticator' }).click();
    await page.waitForURL((u) => u.pathname === from);
    await sidebar(page).getByRole('button', { name: 'Settings' }).waitFor();
  });

  it('shows editors the Unauthorized page for pages they may not read, and no menu entry for them', async () => {
    const page = journey.page();
    await createUser(journey.server(), { email: 'eddie@example.com', password: 'editor passphrase 42', name: 'Eddie Editor', roles: ['editor'] });
    await signOut(page);
    await signIn(page, journey.server(), 'eddie@example.com', 'editor passphrase 42');
    // Permissions needs read on rbac and Users read on identities, which editors lack (spec §6).
    await page.goto(url('/settings/permissions'));
    await page.getByText('You do not have permission to access this page').waitFor();
    await page.goto(url('/settings/users'));
    await page.getByText('You do not have permission to access this page').waitFor();
    const settings = sidebar(page).getByRole('list', { name: 'Settings' });
    await settings.getByRole('link', { name: 'Feature Flags' }).waitFor();
    expect(await settings.getByRole('link', { name: 'Users' }).count()).toBe(0);
    expect(await settings.getByRole('link', { name: 'Permissions' }).count()).toBe(0);
  });

  it('hides the Settings navigation from viewers', async () => {
    const page = journey.page();
    await createUser(journey.server(), { email: 'val@example.com', password: 'viewer passphrase 42', name: 'Val Viewer', roles: ['viewer'] });
    await signOut(page);
    await signIn(page, journey.server(), 'val@example.com', 'viewer passphrase 42');
    await page.getByRole('button', { name: 'User menu' }).waitFor();
    await sidebar(page).getByRole('navigation', { name: 'Areas' }).waitFor();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await sidebar(page).getByRole('button', { name: 'Settings' }).count()).toBe(0);
    expect(await sidebar(page).getByRole('link', { name: 'Feature Flags' }).count()).toBe(0);
  });
});

describe('identity: recovery with a code by mail', () => {
  const mails: string[] = [];
  const env: Record<string, string> = {};
  let smtp: SMTPServer | undefined;
  // Runs before the journey's server starts (hooks run in order): the server needs the sink's address.
  beforeAll(async () => {
    const port = await freePort();
    smtp = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      logger: false,
      onData(stream, _session, done) {
        let text = '';
        stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        stream.on('end', () => {
          mails.push(text);
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp?.listen(port, '127.0.0.1', resolve));
    env.SMTP_URL = `smtp://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  });
  const journey = useJourney({ env });

  it('recovers a forgotten password with the mailed code and signs in with the new one', async () => {
    const page = journey.page();
    const server = journey.server();
    await createUser(server, { email: 'rita@example.com', password: 'forgotten passphrase 1', name: 'Rita Recover', roles: ['editor'] });
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Reset password' }).click();
    await page.getByRole('heading', { name: 'Recover account' }).waitFor();
    expect(await page.title()).toBe('Recover account | Watchkeeper');
    await page.getByLabel('Email').fill('rita@example.com');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('If an account uses this address, a recovery code is on its way to it. Enter the code below.').waitFor();

    await expect.poll(() => mails.length, { timeout: 15_000 }).toBe(1);
    const code = /recovery code is (\d{6})/.exec(mails[0] ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await page.getByLabel('Recovery code').fill(code ?? '');
    await page.getByRole('button', { name: 'Submit' }).click();

    await page.waitForURL((u) => u.pathname === '/profile-settings');
    await page.getByText(/^You recovered your account\. Set a new password within the next \d+ minutes\.$/).waitFor();
    const password = page.locator('form[data-group="password"]');
    await password.getByLabel('Password', { exact: true }).fill('remembered passphrase 2');
    await password.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your changes have been saved.').waitFor();

    await signOut(page);
    await enterPassword(page, 'rita@example.com', 'forgotten passphrase 1');
    await page.getByText('The email address or password is wrong.').waitFor();
    await enterPassword(page, 'rita@example.com', 'remembered passphrase 2');
    await page.waitForURL((u) => u.pathname !== '/login');
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByText('Hi Rita Recover').waitFor();
    await page.keyboard.press('Escape');
  });

  it('asks to confirm the password before a privileged change when the sign-in is old, then comes back', async () => {
    const page = journey.page();
    const server = journey.server();
    // The sign-in of the previous test is 20 minutes old now (privileged changes need one within 15).
    await server.pool.query(`UPDATE sessions SET authenticated_at = now() - interval '20 minutes' WHERE active`);
    await page.goto(`${server.url}/profile-settings`);
    const password = page.locator('form[data-group="password"]');
    await password.getByLabel('Password', { exact: true }).fill('third passphrase 3');
    await password.getByRole('button', { name: 'Save' }).click();

    await page.getByRole('heading', { name: 'Confirm Action' }).waitFor();
    expect(await page.title()).toBe('Confirm Action | Watchkeeper');
    await page.getByLabel('Password', { exact: true }).fill('remembered passphrase 2');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    await page.waitForURL((u) => u.pathname === '/profile-settings' && u.searchParams.has('flow'));
    await password.getByLabel('Password', { exact: true }).fill('third passphrase 3');
    await password.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your changes have been saved.').waitFor();
  });
});

describe('identity: security keys and passkeys', () => {
  const journey = useJourney();
  // WebAuthn needs a domain name: 127.0.0.1 cannot be a relying party id, localhost can.
  const url = (path: string) => `${journey.server().url.replace('127.0.0.1', 'localhost')}${path}`;
  let cdp: CDPSession | undefined;

  beforeAll(async () => {
    const page = journey.page();
    cdp = await journey.browser().context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'usb', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
  });

  async function passwordSignIn(page: Page, email: string, password: string): Promise<void> {
    await page.goto(url('/login'));
    await enterPassword(page, email, password);
  }

  it('adds a security key and uses it as the second factor', async () => {
    const page = journey.page();
    await createUser(journey.server(), { email: 'kim@example.com', password: 'security key passphrase', name: 'Kim Key', roles: ['editor'] });
    await passwordSignIn(page, 'kim@example.com', 'security key passphrase');
    await page.waitForURL((u) => u.pathname !== '/login');
    await page.goto(url('/profile-settings'));
    const keys = page.locator('form[data-group="webauthn"]');
    await keys.getByLabel('Name of the security key').fill('Desk key');
    await keys.getByRole('button', { name: 'Add security key' }).click();
    await page.getByText('Your changes have been saved.').waitFor();
    await page.locator('form[data-group="webauthn"]').getByRole('button', { name: 'Remove security key "Desk key"' }).waitFor();

    await signOut(page);
    await passwordSignIn(page, 'kim@example.com', 'security key passphrase');
    await page.getByRole('heading', { name: 'Two-Factor Authentication' }).waitFor();
    await page.getByRole('button', { name: 'Use security key' }).click();
    await page.waitForURL((u) => u.pathname !== '/login');
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByText('Hi Kim Key').waitFor();
    await page.keyboard.press('Escape');
    await signOut(page);
  });

  it('adds a passkey and signs in with it, without a password', async () => {
    const page = journey.page();
    await createUser(journey.server(), { email: 'pat@example.com', password: 'passkey owner passphrase', name: 'Pat Passkey', roles: ['viewer'] });
    await passwordSignIn(page, 'pat@example.com', 'passkey owner passphrase');
    await page.waitForURL((u) => u.pathname !== '/login');
    await page.goto(url('/profile-settings'));
    await page.locator('form[data-group="passkey"]').getByRole('button', { name: 'Add passkey' }).click();
    await page.getByText('Your changes have been saved.').waitFor();
    await page.locator('form[data-group="passkey"]').getByRole('button', { name: /^Remove passkey/ }).waitFor();

    await signOut(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL((u) => u.pathname !== '/login');
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByText('Hi Pat Passkey').waitFor();
    await page.keyboard.press('Escape');
  });
});
