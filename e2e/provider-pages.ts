import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { oidcEnv, startTestIssuer, type TestIssuer } from '../server/features/identity/oidc/testing/issuer';
import { useJourney, type Journey } from './harness';

/**
 * The test issuer's development pages (server/features/identity/oidc/testing/issuer.ts): any login name
 * and password, then consent. Call once the browser is on its way to the issuer.
 */
export async function throughProviderPages(page: Page, issuerUrl: string, login: string): Promise<void> {
  await page.waitForURL((url) => url.origin === issuerUrl);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** From a signed-in console page: Sign out, confirmed on the provider's end-session page, back on /login. */
export async function signOutThroughProvider(page: Page, issuerUrl: string, consoleUrl: string): Promise<void> {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL((url) => url.origin === issuerUrl && url.pathname.startsWith('/session/end'));
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await page.waitForURL((url) => url.origin === consoleUrl && url.pathname === '/login');
}

/**
 * A journey whose console runs in oidc mode against a real test issuer (oidc-provider on 127.0.0.1),
 * started before the console and closed after it. `oidc.issuer` is that issuer once the suite runs.
 */
export function useOidcJourney(): { journey: Journey; oidc: { readonly issuer: TestIssuer } } {
  let started: TestIssuer | undefined;
  // Filled before the journey's server starts (useJourney reads it in its beforeAll, which runs after this one).
  const env: Record<string, string> = {};
  beforeAll(async () => {
    started = await startTestIssuer();
    Object.assign(env, oidcEnv(started));
  });
  const journey = useJourney({ env });
  const oidc = {
    get issuer(): TestIssuer {
      if (!started) throw new Error('the test issuer has not started (use it inside a test or hook)');
      return started;
    },
  };
  beforeAll(() => oidc.issuer.start(journey.server().url));
  afterAll(async () => started?.close());
  return { journey, oidc };
}
