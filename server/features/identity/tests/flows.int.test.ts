import { Configuration, FrontendApi, type LoginFlow, type UiNodeInputAttributes } from '@ory/client-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { CookieJar, json } from '../../../../test/http-client';
import { csrf, errorId, failure } from './helpers';

/**
 * The self-service API driven by @ory/client-fetch, the real Kratos client, used as-is: native flows
 * (session tokens) and browser flows (cookies and CSRF), whoami, logout, and the spec §8 error ids.
 */
let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  // The test app has an admin already; these tests start from an install with no accounts.
  await t.db.pool.query('DELETE FROM identities');
  base = await t.listen();
});

afterAll(async () => {
  await t?.close();
});

function client(jar?: CookieJar): FrontendApi {
  return new FrontendApi(new Configuration({ basePath: `${base}/api/.ory`, ...(jar ? { fetchApi: jar.fetch } : {}) }));
}




const PASSWORD = 'a long and unusual passphrase 42';

describe('native (API) flows', () => {
  it('registers the first account as admin and signs it in with a session token', async () => {
    const api = client();
    const flow = await api.createNativeRegistrationFlow();
    expect(flow.ui.messages?.map((message) => message.id)).toContain(1990003);
    const names = flow.ui.nodes.map((node) => (node.attributes as UiNodeInputAttributes).name);
    expect(names).toEqual(expect.arrayContaining(['traits.email', 'traits.name.first', 'traits.name.last', 'password', 'method']));
    const done = await api.updateRegistrationFlow({
      flow: flow.id,
      updateRegistrationFlowBody: { method: 'password', password: PASSWORD, traits: { email: 'first@example.com', name: { first: 'Fay', last: 'First' } } },
    });
    expect(done.session_token).toMatch(/^wk_st_/);
    expect(done.identity.traits).toEqual({ email: 'first@example.com', name: { first: 'Fay', last: 'First' } });
    expect(done.continue_with?.map((item) => item.action)).toContain('show_verification_ui');

    const session = await api.toSession({ xSessionToken: done.session_token });
    expect(session.identity?.traits.email).toBe('first@example.com');
    expect(session.authenticator_assurance_level).toBe('aal1');
    const whoami = await fetch(`${base}/api/auth/whoami`, { headers: { authorization: `Bearer ${done.session_token}` } });
    expect((await json(whoami)).roles).toEqual(['admin']);
  });

  it('gives later registrations the default role (viewer), or refuses them when registration is off', async () => {
    const api = client();
    const flow = await api.createNativeRegistrationFlow();
    const done = await api.updateRegistrationFlow({
      flow: flow.id,
      updateRegistrationFlowBody: { method: 'password', password: PASSWORD, traits: { email: 'second@example.com', name: { first: 'Sam', last: 'Second' } } },
    });
    const whoami = await json(await fetch(`${base}/api/auth/whoami`, { headers: { 'x-session-token': done.session_token ?? '' } }));
    expect(whoami.roles).toEqual(['viewer']);

    await t.db.pool.query("INSERT INTO properties (name, value) VALUES ('auth.registration.disable', 'true')");
    const refused = await failure(api.createNativeRegistrationFlow());
    expect(refused.status).toBe(400);
    expect(errorId(refused.body)).toBe('self_service_flow_disabled');
    await t.db.pool.query("DELETE FROM properties WHERE name = 'auth.registration.disable'");
  });

  it('answers a wrong password with the flow and message 4000006, and the right one with a session', async () => {
    const api = client();
    const flow: LoginFlow = await api.createNativeLoginFlow();
    const wrong = await failure(api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'password', identifier: 'first@example.com', password: 'not the password 1' } }));
    expect(wrong.status).toBe(400);
    const ui = wrong.body.ui;
    expect(JSON.stringify(ui)).toContain('4000006');
    expect(JSON.stringify(ui)).toContain('first@example.com');
    const ok = await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'password', identifier: 'FIRST@example.com', password: PASSWORD } });
    expect(ok.session_token).toMatch(/^wk_st_/);
    expect(ok.session.identity?.traits.email).toBe('first@example.com');
    await api.performNativeLogout({ performNativeLogoutBody: { session_token: ok.session_token ?? '' } });
    const gone = await failure(api.toSession({ xSessionToken: ok.session_token }));
    expect(gone.status).toBe(401);
    expect(errorId(gone.body)).toBe('session_inactive');
  });

  it('refuses a password that is short, common or like the email, with the reason', async () => {
    const api = client();
    for (const [password, reason] of [
      ['short1', 'at least 8 characters'],
      ['password123', 'most common passwords'],
      ['third-person@example', 'too similar'],
    ] as const) {
      const flow = await api.createNativeRegistrationFlow();
      const refused = await failure(
        api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'password', password, traits: { email: 'third-person@example.com' } } }),
      );
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body.ui)).toContain(reason);
    }
  });
});

describe('browser flows', () => {
  it('signs in with cookies: CSRF cookie and token, an httpOnly session cookie, whoami, logout', async () => {
    const jar = new CookieJar();
    const api = client(jar);
    const flow = await api.createBrowserLoginFlow({ returnTo: `${base}/settings/jobs` });
    expect(jar.get('watchkeeper_csrf')).toBeTruthy();
    expect(flow.return_to).toBe(`${base}/settings/jobs`);
    const done = await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'password', identifier: 'first@example.com', password: PASSWORD, csrf_token: csrf(flow) } });
    expect(done.session_token).toBeUndefined();
    expect(done.continue_with).toEqual([{ action: 'redirect_browser_to', redirect_browser_to: `${base}/settings/jobs` }]);
    expect(jar.get('watchkeeper_session')).toMatch(/^wk_st_/);
    const session = await api.toSession();
    expect(session.identity?.traits.email).toBe('first@example.com');

    // Signed in already: a new login flow answers session_already_available (spec §8: go home).
    const again = await failure(api.createBrowserLoginFlow());
    expect(errorId(again.body)).toBe('session_already_available');

    const logout = await api.createBrowserLogoutFlow();
    expect(logout.logout_url).toContain('/api/.ory/self-service/logout?token=');
    await api.updateLogoutFlow({ token: logout.logout_token });
    expect(jar.get('watchkeeper_session')).toBeUndefined();
    expect((await failure(api.toSession())).status).toBe(401);
  });

  it('rotates the session token at sign-in: the cookie a browser had before is worthless after', async () => {
    const jar = new CookieJar();
    const api = client(jar);
    const first = await api.createBrowserLoginFlow();
    await api.updateLoginFlow({ flow: first.id, updateLoginFlowBody: { method: 'password', identifier: 'first@example.com', password: PASSWORD, csrf_token: csrf(first) } });
    const before = jar.get('watchkeeper_session') ?? '';
    const refresh = await api.createBrowserLoginFlow({ refresh: true });
    expect(refresh.refresh).toBe(true);
    expect(JSON.stringify(refresh.ui.messages)).toContain('1010003');
    await api.updateLoginFlow({ flow: refresh.id, updateLoginFlowBody: { method: 'password', identifier: 'first@example.com', password: PASSWORD, csrf_token: csrf(refresh) } });
    const after = jar.get('watchkeeper_session') ?? '';
    expect(after).not.toBe(before);
    expect((await fetch(`${base}/api/auth/whoami`, { headers: { 'x-session-token': before } })).status).toBe(401);
    expect((await fetch(`${base}/api/auth/whoami`, { headers: { 'x-session-token': after } })).status).toBe(200);
  });

  it('refuses a submit without the CSRF token, and a flow read from another browser (security_csrf_violation)', async () => {
    const jar = new CookieJar();
    const api = client(jar);
    const flow = await api.createBrowserLoginFlow();
    const missing = await failure(api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'password', identifier: 'first@example.com', password: PASSWORD } }));
    expect(missing.status).toBe(403);
    expect(errorId(missing.body)).toBe('security_csrf_violation');
    const stranger = client(new CookieJar());
    const read = await failure(stranger.getLoginFlow({ id: flow.id }));
    expect(errorId(read.body)).toBe('security_csrf_violation');

    // A form posted from another site carries no CSRF token: the browser is sent to the error page.
    const form = await jar.fetch(`${base}/api/.ory/self-service/login?flow=${flow.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,*/*;q=0.8' },
      body: new URLSearchParams({ method: 'password', identifier: 'first@example.com', password: PASSWORD }).toString(),
    });
    expect(form.status).toBe(303);
    const location = new URL(form.headers.get('location') ?? '');
    expect(location.pathname).toBe('/error');
    const stored = await api.getFlowError({ id: location.searchParams.get('id') ?? '' });
    expect((stored.error as { id?: string }).id).toBe('security_csrf_violation');
    expect(jar.get('watchkeeper_session')).toBeUndefined();
  });

  it('redirects plain browser navigations to the console pages', async () => {
    const jar = new CookieJar();
    const navigation = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    const res = await jar.fetch(`${base}/api/.ory/self-service/login/browser?return_to=/settings/jobs`, { headers: navigation });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(new RegExp(`^${base}/login\\?flow=[0-9a-f-]{36}$`));
    const settings = await jar.fetch(`${base}/api/.ory/self-service/settings/browser`, { headers: navigation });
    expect(settings.status).toBe(303);
    expect(settings.headers.get('location')).toContain('/login?return_to=');
  });

  it('answers the spec §8 errors: return_to forbidden, expired flows (410 with a new flow), unknown flows', async () => {
    const jar = new CookieJar();
    const api = client(jar);
    const forbidden = await failure(api.createBrowserLoginFlow({ returnTo: 'https://evil.example/steal' }));
    expect(forbidden.status).toBe(400);
    expect(errorId(forbidden.body)).toBe('self_service_flow_return_to_forbidden');

    const flow = await api.createBrowserLoginFlow();
    await t.db.pool.query("UPDATE selfservice_flows SET expires_at = now() - interval '5 minutes' WHERE id = $1", [flow.id]);
    const expired = await failure(api.getLoginFlow({ id: flow.id }));
    expect(expired.status).toBe(410);
    expect(errorId(expired.body)).toBe('self_service_flow_expired');
    const useFlowId = expired.body.use_flow_id;
    expect(typeof useFlowId).toBe('string');
    expect((await api.getLoginFlow({ id: String(useFlowId) })).id).toBe(useFlowId);
    const submitted = await failure(api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'password', identifier: 'x@example.com', password: 'y', csrf_token: csrf(flow) } }));
    expect(submitted.status).toBe(410);

    const unknown = await failure(api.getLoginFlow({ id: '00000000-0000-4000-8000-000000000000' }));
    expect(unknown.status).toBe(404);
  });

  it('serves the identity schema', async () => {
    const schema = await json(await fetch(`${base}/api/.ory/schemas/ZGVmYXVsdA`));
    expect(JSON.stringify(schema)).toContain('"format":"email"');
  });
});
