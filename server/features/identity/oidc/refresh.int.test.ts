import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/app';
import { processKeyring } from '../../../platform/secrets';
import type { Membership } from '../organizations';
import { createAccessToken } from '../tokens';
import { CookieJar, startOidcApp, throughProvider, type TestIssuer } from './testing/issuer';

/** The organization claim read again with the refresh token (docs/HOSTED.md "Sessions, refresh and sign-out"). */

let issuer: TestIssuer;
let t: TestApp;
let base: string;

beforeAll(async () => ({ issuer, t, base } = await startOidcApp()));

afterAll(async () => {
  await t?.close();
  await issuer?.close();
});

interface Organizations {
  organization: Membership | null;
  organizations: Membership[];
}

const claimOf = (login: string, organizations: unknown) => ({ email: `${login}@example.com`, email_verified: true, name: login, organizations });

/** Signs `login` in through the provider's pages; answers the session cookie's header and the session's id. */
async function signIn(login: string, organizations: unknown): Promise<{ cookie: string; sessionId: string }> {
  issuer.accounts.set(login, claimOf(login, organizations));
  const jar = new CookieJar();
  const callback = await throughProvider(jar, `${base}/api/auth/oidc/login`, login, base);
  jar.take(callback, await fetch(callback, { headers: { cookie: jar.header(callback) }, redirect: 'manual' }));
  const session = jar.get(base, 'watchkeeper_session');
  if (!session) throw new Error(`${login} did not get a session`);
  // From the table, not whoami: asking whoami would already note when the claim was read.
  const { rows } = await t.db.pool.query<{ session_id: string }>(
    `SELECT o.session_id FROM oidc_sessions o JOIN sessions s ON s.id = o.session_id JOIN people p ON p.id = s.identity_id
      WHERE p.email = $1 ORDER BY o.created_at DESC LIMIT 1`,
    [`${login}@example.com`],
  );
  const sessionId = rows[0]?.session_id;
  if (!sessionId) throw new Error(`${login} has no oidc_sessions row`);
  return { cookie: `watchkeeper_session=${session}`, sessionId };
}

function call(cookie: string, url: string, method = 'GET') {
  return fetch(`${base}${url}`, { method, headers: { cookie, accept: 'application/json' } });
}

const refresh = (cookie: string) => call(cookie, '/api/auth/oidc/refresh', 'POST');

async function whoami(cookie: string): Promise<Organizations> {
  const answer = await call(cookie, '/api/auth/whoami');
  expect(answer.status).toBe(200);
  return (await answer.json()) as Organizations;
}

const names = (answer: Organizations) => answer.organizations.map((organization) => organization.name);

async function storedRefreshToken(sessionId: string): Promise<string | null> {
  const { rows } = await t.db.pool.query<{ refresh_token: string | null }>('SELECT refresh_token FROM oidc_sessions WHERE session_id = $1', [sessionId]);
  const stored = rows[0]?.refresh_token ?? null;
  return stored === null ? null : processKeyring().decrypt(stored);
}

describe('POST /api/auth/oidc/refresh', () => {
  it("reads the changed claim with the refresh token, stores the rotated one, and answers whoami's organizations", async () => {
    const { cookie, sessionId } = await signIn('rita', [{ id: 'org_ra', name: 'Alpha' }, { id: 'org_rb', name: 'Beta' }]);
    expect(names(await whoami(cookie))).toEqual(['Alpha', 'Beta']);
    const before = await storedRefreshToken(sessionId);
    expect(before).toBeTruthy();

    // Granted Gamma, removed from Alpha at the provider: no new sign-in needed.
    issuer.accounts.set('rita', claimOf('rita', [{ id: 'org_rb', name: 'Beta' }, { id: 'org_rc', name: 'Gamma' }]));
    const answer = await refresh(cookie);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as Organizations;
    expect(names(body)).toEqual(['Beta', 'Gamma']);
    expect(body.organization).toBeNull();
    expect(names(await whoami(cookie))).toEqual(['Beta', 'Gamma']);
    const rotated = await storedRefreshToken(sessionId);
    expect(rotated).toBeTruthy();
    expect(rotated).not.toBe(before);
    const { rows } = await t.db.pool.query<{ organizations: string[] }>('SELECT organizations FROM oidc_sessions WHERE session_id = $1', [sessionId]);
    expect(rows[0]?.organizations).toEqual(['org_rb', 'org_rc']);

    // The provider retired the first token: the second refresh works only with the rotated one stored.
    issuer.accounts.set('rita', claimOf('rita', [{ id: 'org_rc', name: 'Gamma' }]));
    const again = await refresh(cookie);
    expect(again.status).toBe(200);
    const single = (await again.json()) as Organizations;
    expect(names(single)).toEqual(['Gamma']);
    // One organization left: the session works in it (nothing to choose).
    expect(single.organization?.name).toBe('Gamma');
    expect((await whoami(cookie)).organization?.name).toBe('Gamma');
  });

  it('answers 409 when the session has no refresh token', async () => {
    const { cookie, sessionId } = await signIn('nora', ['org_n']);
    await t.db.pool.query('UPDATE oidc_sessions SET refresh_token = NULL WHERE session_id = $1', [sessionId]);
    const answer = await refresh(cookie);
    expect(answer.status).toBe(409);
    expect(await answer.json()).toMatchObject({
      error: 'conflict',
      message: 'the sign-in provider gave this session no refresh token: sign in again (ask for the offline_access scope)',
    });
  });

  it('answers 401 when the provider refuses the refresh token, and keeps the session', async () => {
    const { cookie, sessionId } = await signIn('ivan', ['org_i']);
    await t.db.pool.query('UPDATE oidc_sessions SET refresh_token = $2 WHERE session_id = $1', [sessionId, processKeyring().encrypt('revoked-or-unknown-token')]);
    const answer = await refresh(cookie);
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ error: 'unauthorized', message: "the sign-in provider no longer accepts this session's refresh token: sign in again" });
    expect(names(await whoami(cookie))).toEqual(['org_i']);
  });

  it('refuses a request that is not signed in (401), a session not started at the provider (409) and an API token (403)', async () => {
    const post = (headers: Record<string, string>) => fetch(`${base}/api/auth/oidc/refresh`, { method: 'POST', headers: { ...headers, accept: 'application/json' } });
    expect((await post({})).status).toBe(401);
    const builtin = await post(t.adminHeaders);
    expect(builtin.status).toBe(409);
    expect(((await builtin.json()) as { message: string }).message).toBe('this session was not started through the sign-in provider, so it has no refresh token: sign in again');
    const admin = await t.db.pool.query<{ id: string }>("SELECT id FROM people WHERE email = 'test-admin@example.com'");
    const personId = admin.rows[0]?.id ?? '';
    const { token } = await createAccessToken(t.db.pool, { personId, name: 'cli', scopes: [{ object: 'catalog', action: 'read' }], expiresAt: null, createdBy: personId });
    const byToken = await post({ authorization: `Bearer ${token}` });
    expect(byToken.status).toBe(403);
    expect(((await byToken.json()) as { message: string }).message).toBe('the organizations are read again for a signed-in session, not for an API token');
  });
});

describe('whoami reads an old claim again in the background', () => {
  it('leaves a claim younger than 15 minutes alone', async () => {
    const { cookie } = await signIn('fred', ['org_f1']);
    issuer.accounts.set('fred', claimOf('fred', ['org_f1', 'org_f2']));
    for (let i = 0; i < 3; i += 1) {
      expect(names(await whoami(cookie))).toEqual(['org_f1']);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  });

  it('refreshes a claim read more than 15 minutes ago after answering, without a new sign-in', async () => {
    const { cookie, sessionId } = await signIn('wade', ['org_w1']);
    issuer.accounts.set('wade', claimOf('wade', ['org_w1', 'org_w2']));
    await t.db.pool.query("UPDATE oidc_sessions SET created_at = now() - interval '20 minutes' WHERE session_id = $1", [sessionId]);
    // This answer is the stored one: the refresh runs after it.
    expect(names(await whoami(cookie))).toEqual(['org_w1']);
    let seen: string[] = [];
    for (let i = 0; i < 50 && seen.length < 2; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen = names(await whoami(cookie));
    }
    expect(seen).toEqual(['org_w1', 'org_w2']);
  });
});
