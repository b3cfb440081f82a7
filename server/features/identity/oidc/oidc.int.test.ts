import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { processKeyring } from '../../../platform/secrets';
import { CLIENT_ID, CookieJar, oidcEnv, startOidcApp, step, throughProvider, type TestIssuer } from './testing/issuer';

let issuer: TestIssuer;
let t: TestApp;
let base: string;

beforeAll(async () => ({ issuer, t, base } = await startOidcApp()));

afterAll(async () => {
  await t?.close();
  await issuer?.close();
});

/** From the console's login route through the provider's pages; answers the jar and the callback's answer. */
async function signIn(login: string, options: { returnTo?: string; accept?: string } = {}) {
  const jar = new CookieJar();
  const callback = await throughProvider(jar, `${base}/api/auth/oidc/login?return_to=${encodeURIComponent(options.returnTo ?? '/health')}`, login, base);
  const headers: Record<string, string> = { accept: options.accept ?? 'text/html', cookie: jar.header(callback) };
  const response = await fetch(callback, { headers, redirect: 'manual' });
  jar.take(callback, response);
  return { jar, callback, response, session: jar.get(base, 'watchkeeper_session') };
}

async function whoami(session: string | undefined) {
  return fetch(`${base}/api/auth/whoami`, { headers: { cookie: `watchkeeper_session=${session ?? ''}`, accept: 'application/json' } });
}

describe('sign-in through an OpenID Connect provider', () => {
  it('tells the web how people sign in here', async () => {
    const answer = await fetch(`${base}/api/auth/mode`);
    expect(await answer.json()).toEqual({ mode: 'oidc', issuer: issuer.url, issuer_host: new URL(issuer.url).host, login_url: '/api/auth/oidc/login' });
  });

  it('redirects to the provider with PKCE (S256), state and nonce in an encrypted cookie', async () => {
    const { response, location } = await step(new CookieJar(), `${base}/api/auth/oidc/login?return_to=/incidents`);
    expect(response.status).toBe(302);
    const url = new URL(location ?? '');
    expect(url.origin).toBe(issuer.url);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: `${base}/api/auth/oidc/callback`,
      scope: 'openid profile email',
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('watchkeeper_oidc='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    // Plain http to a console whose public URL is http: the browser would drop a Secure cookie.
    expect(cookie).not.toMatch(/;\s*Secure/i);
    // Nothing of the sign-in can be read from the cookie.
    expect(cookie).not.toContain(url.searchParams.get('state') ?? 'none');
  });

  it('signs a new person in with the same session as the built-in sign-in, and keeps their organizations', async () => {
    issuer.accounts.set('alice', {
      email: 'alice@example.com',
      email_verified: true,
      given_name: 'Alice',
      family_name: 'Ops',
      organizations: [{ id: 'org_acme', name: 'Acme' }, 'org_globex'],
    });
    const { response, session } = await signIn('alice', { returnTo: '/incidents?status=open' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`/auth-state-checker?return_to=${encodeURIComponent('/incidents?status=open')}`);
    expect(session).toMatch(/^wk_st_/);
    const me = await whoami(session);
    expect(me.status).toBe(200);
    const body = (await me.json()) as { user: { name: string; email: string }; roles: string[]; session: { aal: string } };
    expect(body.user).toMatchObject({ name: 'Alice Ops', email: 'alice@example.com' });
    // An admin exists (the test app's): a new person gets the registration's default role.
    expect(body.roles).toEqual(['viewer']);
    const orgs = await t.db.pool.query<{ external_id: string; name: string; source: string }>(
      `SELECT o.external_id, o.name, m.source FROM organization_members m JOIN organizations o ON o.id = m.organization_id
        JOIN people p ON p.id = m.person_id WHERE p.email = 'alice@example.com' ORDER BY o.external_id`,
    );
    expect(orgs.rows).toEqual([
      { external_id: 'org_acme', name: 'Acme', source: 'claim' },
      { external_id: 'org_globex', name: 'org_globex', source: 'claim' },
    ]);
    const stored = await t.db.pool.query<{ method: string; refresh_token: string | null; organizations: string[] }>(
      `SELECT s.authentication_methods->0->>'method' AS method, o.refresh_token, o.organizations FROM oidc_sessions o JOIN sessions s ON s.id = o.session_id
        JOIN people p ON p.id = s.identity_id WHERE p.email = 'alice@example.com'`,
    );
    expect(stored.rows[0]?.method).toBe('oidc');
    expect(stored.rows[0]?.organizations).toEqual(['org_acme', 'org_globex']);
    // The provider's refresh token is kept encrypted with the secrets keyring.
    const refresh = stored.rows[0]?.refresh_token ?? '';
    expect(refresh).toMatch(/^wk:1:/);
    expect(processKeyring().decrypt(refresh).length).toBeGreaterThan(10);
  });

  it('finds the same person at the next sign-in and follows the claim when organizations change', async () => {
    issuer.accounts.set('bob', { email: 'bob@example.com', email_verified: true, name: 'Bob Builder', organizations: ['org_one', 'org_two'] });
    const first = await signIn('bob');
    const firstMe = (await (await whoami(first.session)).json()) as { user: { id: string; name: string } };
    expect(firstMe.user.name).toBe('Bob Builder');
    const two = await t.db.pool.query<{ id: string }>("SELECT id FROM organizations WHERE external_id = 'org_two'");
    // A membership added in the console survives the claim.
    await t.db.pool.query("INSERT INTO organizations (name) VALUES ('Local') ");
    await t.db.pool.query(
      "INSERT INTO organization_members (organization_id, person_id, source) SELECT id, $1, 'console' FROM organizations WHERE name = 'Local'",
      [firstMe.user.id],
    );
    issuer.accounts.set('bob', { email: 'bob@example.com', email_verified: true, name: 'Bob Builder', organizations: ['org_two'] });
    const second = await signIn('bob');
    const secondMe = (await (await whoami(second.session)).json()) as { user: { id: string } };
    expect(secondMe.user.id).toBe(firstMe.user.id);
    const members = await t.db.pool.query<{ name: string }>(
      'SELECT o.name FROM organization_members m JOIN organizations o ON o.id = m.organization_id WHERE m.person_id = $1 ORDER BY o.name',
      [firstMe.user.id],
    );
    expect(members.rows.map((row) => row.name)).toEqual(['Local', 'org_two']);
    expect(two.rows).toHaveLength(1);
    // A browser that signs in again leaves no session of its own behind.
    const jar = new CookieJar();
    const callback = await throughProvider(jar, `${base}/api/auth/oidc/login`, 'bob', base);
    await fetch(callback, { headers: { cookie: `${jar.header(callback)}; watchkeeper_session=${second.session ?? ''}` }, redirect: 'manual' });
    expect((await whoami(second.session)).status).toBe(401);
    expect((await whoami(first.session)).status).toBe(200);
  });

  it('links an existing account by a verified email, and refuses an unverified one', async () => {
    const existing = await t.userWith(['editor'], 'carol@example.com');
    issuer.accounts.set('carol-unverified', { email: 'carol@example.com', email_verified: false });
    const refused = await signIn('carol-unverified');
    expect(refused.response.status).toBe(401);
    expect(await refused.response.text()).toContain('does not say it verified that address');
    expect(refused.session).toBeUndefined();

    issuer.accounts.set('carol', { email: 'Carol@Example.com', email_verified: true });
    const linked = await signIn('carol');
    const me = (await (await whoami(linked.session)).json()) as { user: { id: string }; roles: string[] };
    expect(me.user.id).toBe(existing.id);
    expect(me.roles).toEqual(['editor']);
  });

  it('ends the session at logout and sends the browser to the provider with id_token_hint', async () => {
    const { session } = await signIn('dave');
    const cookie = `watchkeeper_session=${session ?? ''}`;
    // The console's Sign out asks the Kratos logout for its URL, as in the built-in mode.
    const flow = await fetch(`${base}/api/.ory/self-service/logout/browser`, { headers: { cookie, accept: 'application/json' } });
    const { logout_url: logoutUrl } = (await flow.json()) as { logout_url: string };
    expect(logoutUrl).toMatch(new RegExp(`^${base}/api/auth/oidc/logout\\?token=[0-9a-f]{64}$`));
    // Another site's link (no token, or another session's) signs nobody out.
    const forged = await fetch(`${base}/api/auth/oidc/logout?token=${'0'.repeat(64)}`, { headers: { cookie, accept: 'application/json' } });
    expect(forged.status).toBe(401);
    expect((await whoami(session)).status).toBe(200);

    const out = await fetch(logoutUrl, { headers: { cookie, accept: 'application/json' } });
    expect(out.status).toBe(200);
    const target = new URL(((await out.json()) as { redirect_browser_to: string }).redirect_browser_to);
    expect(`${target.origin}${target.pathname}`).toBe(`${issuer.url}/session/end`);
    expect(target.searchParams.get('post_logout_redirect_uri')).toBe(`${base}/login`);
    expect(target.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect(out.headers.getSetCookie().some((line) => line.startsWith('watchkeeper_session=;'))).toBe(true);
    expect((await whoami(session)).status).toBe(401);
  });

  it('confirms a privileged change by a new sign-in at the provider, on the same session', async () => {
    const jar = new CookieJar();
    const login = await throughProvider(jar, `${base}/api/auth/oidc/login`, 'frank', base);
    const first = await fetch(login, { headers: { cookie: jar.header(login) }, redirect: 'manual' });
    jar.take(login, first);
    const before = jar.get(base, 'watchkeeper_session') ?? '';
    await t.db.pool.query("UPDATE sessions SET authenticated_at = now() - interval '1 hour' WHERE token_hash = encode(sha256(convert_to($1, 'utf8')), 'hex')", [before]);
    const start = await step(jar, `${base}/api/auth/oidc/login?refresh=true&return_to=%2Fprofile-settings`);
    const authorize = new URL(start.location ?? '');
    expect(authorize.searchParams.get('prompt')).toBe('login');
    expect(authorize.searchParams.get('max_age')).toBe('0');
    // The provider has a session for frank, yet asks him to sign in again (its login form).
    const callback = await throughProvider(jar, authorize.toString(), 'frank', base);
    const confirmed = await fetch(callback, { headers: { cookie: jar.header(callback), accept: 'text/html' }, redirect: 'manual' });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get('location')).toBe('/auth-state-checker?return_to=%2Fprofile-settings');
    jar.take(callback, confirmed);
    const after = jar.get(base, 'watchkeeper_session') ?? '';
    expect(after).not.toBe(before);
    expect((await whoami(before)).status).toBe(401);
    const me = (await (await whoami(after)).json()) as { session: { id: string; authenticated_at: string } };
    const sessions = await t.db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM sessions s JOIN people p ON p.id = s.identity_id WHERE p.email = 'frank@example.com'");
    expect(sessions.rows[0]?.n).toBe(1);
    expect(Date.now() - new Date(me.session.authenticated_at).getTime()).toBeLessThan(60_000);
  });

  it('refuses a confirmation whose ID token says the person did not sign in again', async () => {
    const { jar } = await signIn('grace');
    issuer.forge({ claims: { auth_time: Math.floor(Date.now() / 1000) - 3600 } });
    try {
      const callback = await throughProvider(jar, `${base}/api/auth/oidc/login?refresh=true`, 'grace', base);
      const answer = await fetch(callback, { headers: { cookie: jar.header(callback), accept: 'application/json' }, redirect: 'manual' });
      expect(answer.status).toBe(401);
      expect(((await answer.json()) as { message: string }).message).toBe('the sign-in provider did not ask you to sign in again (auth_time is older than this confirmation)');
    } finally {
      issuer.forge(undefined);
    }
  });

  it('refuses the built-in sign-in, registration and recovery', async () => {
    for (const path of ['/api/.ory/self-service/login/browser', '/api/.ory/self-service/login/api', '/api/.ory/self-service/registration/browser', '/api/.ory/self-service/recovery/api']) {
      const answer = await fetch(`${base}${path}`, { headers: { accept: 'application/json' } });
      expect(answer.status, path).toBe(403);
      expect(((await answer.json()) as { message: string }).message).toContain('signs people in through');
    }
    // The second step of a linked account with a second factor still runs there.
    const aal2 = await fetch(`${base}/api/.ory/self-service/login/api?aal=aal2`, { headers: { accept: 'application/json' } });
    expect(aal2.status).not.toBe(403);
  });
});

describe('a bad answer from the provider: 401, a clear message, no session', () => {
  const cases: Array<{ name: string; forge: Parameters<TestIssuer['forge']>[0]; message: string }> = [
    { name: 'wrong audience', forge: { claims: { aud: 'another-app' } }, message: 'the ID token is meant for another-app, not for this console (client watchkeeper)' },
    { name: 'wrong issuer', forge: { claims: { iss: 'https://evil.example.com' } }, message: 'the ID token was issued by https://evil.example.com, not by the configured issuer' },
    { name: 'signature of another key', forge: { foreignKey: true }, message: "the ID token's signature does not verify with the sign-in provider's keys" },
    { name: 'expired', forge: { claims: { exp: Math.floor(Date.now() / 1000) - 3600, iat: Math.floor(Date.now() / 1000) - 7200 } }, message: 'the ID token has expired' },
    { name: 'wrong nonce', forge: { claims: { nonce: 'replayed' } }, message: 'the ID token does not carry the nonce of this sign-in' },
  ];

  for (const { name, forge, message } of cases) {
    it(name, async () => {
      issuer.forge(forge);
      try {
        const html = await signIn(`bad-${name.replace(/\W+/g, '-')}`);
        expect(html.response.status).toBe(401);
        expect(html.response.headers.get('content-type')).toContain('text/html');
        const page = await html.response.text();
        expect(page).toContain('Sign-in failed');
        expect(page).toContain((message.charAt(0).toUpperCase() + message.slice(1)).replaceAll("'", '&#39;'));
        expect(html.session).toBeUndefined();
        const json = await signIn(`bad-${name.replace(/\W+/g, '-')}`, { accept: 'application/json' });
        expect(json.response.status).toBe(401);
        expect(await json.response.json()).toEqual({ error: 'unauthorized', message: expect.stringContaining(message) });
        expect(json.session).toBeUndefined();
      } finally {
        issuer.forge(undefined);
      }
      const people = await t.db.pool.query("SELECT 1 FROM people WHERE email LIKE 'bad-%'");
      expect(people.rowCount).toBe(0);
    });
  }

  it('a state that is not the one of this browser', async () => {
    const jar = new CookieJar();
    const callback = new URL(await throughProvider(jar, `${base}/api/auth/oidc/login`, 'eve', base));
    callback.searchParams.set('state', 'forged-state');
    const answer = await fetch(callback, { headers: { cookie: jar.header(base), accept: 'application/json' }, redirect: 'manual' });
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as { message: string }).message).toContain('does not match the sign-in started in this browser');
    expect(answer.headers.getSetCookie().some((line) => line.startsWith('watchkeeper_session='))).toBe(false);
    // A callback without the sign-in cookie (another browser) is refused too.
    const stranger = await fetch(callback, { headers: { accept: 'application/json' }, redirect: 'manual' });
    expect(stranger.status).toBe(401);
    expect(((await stranger.json()) as { message: string }).message).toContain('no sign-in in progress');
  });

  it("the provider's own refusal", async () => {
    const { response, location } = await step(new CookieJar(), `${base}/api/auth/oidc/login`);
    const cookie = response.headers.getSetCookie()[0]?.split(';')[0] ?? '';
    const state = new URL(location ?? '').searchParams.get('state') ?? '';
    const answer = await fetch(`${base}/api/auth/oidc/callback?error=access_denied&error_description=End-User+aborted+interaction&state=${state}`, {
      headers: { cookie, accept: 'application/json' },
    });
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as { message: string }).message).toBe('the sign-in provider answered access_denied: End-User aborted interaction');
  });
});

describe('the sign-in cookie follows the rule of every other cookie (cookies.ts secureCookie)', () => {
  it('is Secure under an https PUBLIC_URL, though the request came over plain http with no X-Forwarded-Proto', async () => {
    const behindProxy = await createTestApp({ env: { ...oidcEnv(issuer), PUBLIC_URL: 'https://ops.example.com' } });
    try {
      const res = await behindProxy.app.inject({ method: 'GET', url: '/api/auth/oidc/login?return_to=/health', headers: { accept: 'text/html' } });
      const cookie = [res.headers['set-cookie']].flat().map(String).find((line) => line.startsWith('watchkeeper_oidc='));
      expect(cookie, res.body).toMatch(/;\s*Secure/i);
    } finally {
      await behindProxy.close();
    }
  });
});

describe('the built-in mode is unchanged', () => {
  it('has no OIDC routes and says builtin', async () => {
    const plain = await createTestApp();
    try {
      expect((await plain.app.inject({ url: '/api/auth/mode' })).json()).toEqual({ mode: 'builtin' });
      expect((await plain.app.inject({ url: '/api/auth/oidc/login' })).statusCode).toBe(404);
      expect((await plain.app.inject({ url: '/api/.ory/self-service/login/api' })).statusCode).toBe(200);
    } finally {
      await plain.close();
    }
  });
});
