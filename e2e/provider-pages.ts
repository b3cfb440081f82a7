import type { Page } from 'playwright-core';

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
