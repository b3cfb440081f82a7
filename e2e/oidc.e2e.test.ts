import { describe, expect, it } from 'vitest';
import { signOutThroughProvider, throughProviderPages, useOidcJourney } from './provider-pages';

/**
 * Hosted mode, first part (issue 25, docs/HOSTED.md): `serve --auth oidc` against a real OpenID Connect
 * issuer (oidc-provider on 127.0.0.1), signed in through the provider's own login and consent pages.
 */

const { journey, oidc } = useOidcJourney();

describe('sign-in through an OpenID Connect provider', () => {
  it('goes from a console page to the provider and back, signed in, on that page', async () => {
    oidc.issuer.accounts.set('alice', { email: 'alice@example.com', email_verified: true, given_name: 'Alice', family_name: 'Ops', organizations: ['org_acme'] });
    const page = journey.page();
    const host = new URL(oidc.issuer.url).host;
    await page.goto(`${journey.server().url}/incidents`);
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('heading', { name: 'Sign In to your account' }).waitFor();
    expect(await page.getByLabel('Password').count()).toBe(0);
    await page.getByRole('link', { name: `Sign in with ${host}` }).click();
    await throughProviderPages(page, oidc.issuer.url, 'alice');
    // The callback lands on /auth-state-checker, which routes on to return_to.
    await page.waitForURL((url) => url.pathname === '/incidents');
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByText('alice@example.com').first().waitFor();
    await page.keyboard.press('Escape');
    // The first person of a fresh console is its administrator, as with the built-in sign-up.
    const roles = await journey.server().pool.query<{ role: string }>("SELECT r.role FROM person_roles r JOIN people p ON p.id = r.person_id WHERE p.email = 'alice@example.com'");
    expect(roles.rows.map((row) => row.role)).toEqual(['admin']);
  });

  it("signs out of the console and the provider, back to the sign-in page, which offers the provider again", async () => {
    const page = journey.page();
    await signOutThroughProvider(page, oidc.issuer.url, journey.server().url);
    await page.getByRole('link', { name: /^Sign in with / }).waitFor();
    const whoami = await page.request.get(`${journey.server().url}/api/auth/whoami`);
    expect(whoami.status()).toBe(401);
  });

  it('shows a clear page, and no session, when the ID token is for another client', async () => {
    const page = journey.page();
    oidc.issuer.forge({ claims: { aud: 'someone-else' } });
    try {
      await page.goto(`${journey.server().url}/login?return_to=%2Fhealth`);
      await page.getByRole('link', { name: /^Sign in with / }).click();
      // The provider remembers alice's sign-in: it asks for login or consent again, or comes straight back.
      await page.waitForURL((url) => url.pathname === '/api/auth/oidc/callback' || (url.origin === oidc.issuer.url && url.pathname.startsWith('/interaction')));
      if (new URL(page.url()).origin === oidc.issuer.url) {
        if (await page.locator('input[name="login"]').count()) await throughProviderPages(page, oidc.issuer.url, 'alice');
        else await page.getByRole('button', { name: 'Continue' }).click();
      }
      await page.waitForURL((url) => url.pathname === '/api/auth/oidc/callback');
      await page.getByRole('heading', { name: 'Sign-in failed' }).waitFor();
      await page.getByText('The ID token is meant for someone-else, not for this console (client watchkeeper).').waitFor();
      const whoami = await page.request.get(`${journey.server().url}/api/auth/whoami`);
      expect(whoami.status()).toBe(401);
      await page.getByRole('link', { name: 'Back to sign in' }).click();
      await page.waitForURL((url) => url.pathname === '/login');
    } finally {
      oidc.issuer.forge(undefined);
    }
  });
});
