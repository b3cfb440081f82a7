import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createAccessToken } from '../tokens';
import type { Membership } from './store';
import { CookieJar, startOidcApp, throughProvider, type TestIssuer } from '../oidc/testing/issuer';

let issuer: TestIssuer;
let t: TestApp;
let base: string;

beforeAll(async () => ({ issuer, t, base } = await startOidcApp()));

afterAll(async () => {
  await t?.close();
  await issuer?.close();
});

type Organization = Membership;
interface Whoami {
  user: { id: string };
  organization?: Organization | null;
  organizations?: Organization[];
}

/** Signs `login` in through the provider's pages; answers the session cookie's header. */
async function signIn(login: string, claims: { organizations: unknown }): Promise<string> {
  issuer.accounts.set(login, { email: `${login}@example.com`, email_verified: true, name: login, ...claims });
  const jar = new CookieJar();
  const callback = await throughProvider(jar, `${base}/api/auth/oidc/login`, login, base);
  jar.take(callback, await fetch(callback, { headers: { cookie: jar.header(callback) }, redirect: 'manual' }));
  const session = jar.get(base, 'watchkeeper_session');
  if (!session) throw new Error(`${login} did not get a session`);
  return `watchkeeper_session=${session}`;
}

function call(cookie: string, url: string, init: { method?: string; body?: unknown } = {}) {
  return fetch(`${base}${url}`, {
    method: init.method ?? 'GET',
    headers: { cookie, accept: 'application/json', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

async function whoami(cookie: string): Promise<Whoami> {
  const answer = await call(cookie, '/api/auth/whoami');
  expect(answer.status).toBe(200);
  return (await answer.json()) as Whoami;
}

function named(list: Organization[] | undefined, name: string): Organization {
  const found = list?.find((organization) => organization.name === name);
  if (!found) throw new Error(`whoami lists no organization ${name}`);
  return found;
}

const choose = (cookie: string, id: unknown) => call(cookie, '/api/auth/organization', { method: 'POST', body: { id } });

describe('choosing an organization (hosted mode)', () => {
  let cookie: string;
  let acme: Organization;
  let globex: Organization;

  it('whoami lists the organizations of the claim, none chosen yet', async () => {
    cookie = await signIn('olivia', { organizations: [{ id: 'org_globex', name: 'Globex' }, { id: 'org_acme', name: 'Acme' }] });
    const me = await whoami(cookie);
    expect(me.organization).toBeNull();
    expect(me.organizations?.map((organization) => organization.name)).toEqual(['Acme', 'Globex']);
    expect(me.organizations?.[0]).toMatchObject({ external_id: 'org_acme', has_backend_url: false, direct: false, role: null });
    acme = named(me.organizations, 'Acme');
    globex = named(me.organizations, 'Globex');
  });

  it('refuses the API with a clear 403 until one is chosen; whoami, choosing and signing out stay open', async () => {
    for (const url of ['/api/auth/tokens', '/api/db/teams?select=id', '/api/kubeconfig']) {
      const answer = await call(cookie, url);
      expect(answer.status, url).toBe(403);
      expect(await answer.json(), url).toMatchObject({ error: 'forbidden', message: expect.stringContaining('choose an organization first') as unknown, details: { id: 'organization_required' } });
    }
    expect((await call(cookie, '/api/.ory/self-service/logout/browser')).status).toBe(200);
    expect((await call(cookie, '/api/auth/mode')).status).toBe(200);
  });

  it('refuses an organization of which the person is not a member (403), an unknown one (404) and a bad id (400)', async () => {
    const stranger = await t.db.pool.query<{ id: string }>("INSERT INTO organizations (name, external_id) VALUES ('Initech', 'org_initech') RETURNING id");
    const notMember = await choose(cookie, stranger.rows[0]?.id);
    expect(notMember.status).toBe(403);
    expect(((await notMember.json()) as { message: string }).message).toBe(`id: you are not a member of organization ${stranger.rows[0]?.id ?? ''}`);
    const unknown = await choose(cookie, '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    const bad = await choose(cookie, 'acme');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ details: [{ path: 'body.id', message: 'must be the id (a UUID) of one of your organizations' }] });
    expect((await whoami(cookie)).organization).toBeNull();
  });

  it('keeps the choice on the session: whoami names it and the API answers', async () => {
    const chosen = await choose(cookie, globex.id);
    expect(chosen.status).toBe(200);
    expect(await chosen.json()).toEqual({ organization: globex });
    expect((await whoami(cookie)).organization).toEqual(globex);
    expect((await call(cookie, '/api/auth/tokens')).status).toBe(200);
    expect((await call(cookie, '/api/db/teams?select=id')).status).toBe(200);
    // Switching to the other one.
    expect((await choose(cookie, acme.id)).status).toBe(200);
    expect((await whoami(cookie)).organization?.name).toBe('Acme');
    const stored = await t.db.pool.query<{ organization_id: string }>('SELECT organization_id FROM sessions WHERE identity_id = $1 AND active', [(await whoami(cookie)).user.id]);
    expect(stored.rows.map((row) => row.organization_id)).toEqual([acme.id]);
  });

  it('forgets the choice when the person leaves that organization, and when it is deleted', async () => {
    const me = await whoami(cookie);
    await t.db.pool.query('DELETE FROM organization_members WHERE organization_id = $1 AND person_id = $2', [acme.id, me.user.id]);
    // One organization left (Globex), but the choice is not replaced silently: they choose again.
    const left = await whoami(cookie);
    expect(left.organization).toBeNull();
    expect(left.organizations?.map((organization) => organization.name)).toEqual(['Globex']);
    expect((await call(cookie, '/api/db/teams?select=id')).status).toBe(403);
    await t.db.pool.query('UPDATE organizations SET deleted_at = now() WHERE id = $1', [globex.id]);
    const after = await whoami(cookie);
    expect(after.organization).toBeNull();
    expect(after.organizations).toEqual([]);
    expect((await call(cookie, '/api/auth/tokens')).status).toBe(403);
    await t.db.pool.query('UPDATE organizations SET deleted_at = NULL WHERE id = $1', [globex.id]);
  });

  it('chooses the only organization of a person in exactly one', async () => {
    const only = await signIn('uma', { organizations: ['org_umbrella'] });
    const me = await whoami(only);
    expect(me.organization).toMatchObject({ external_id: 'org_umbrella', name: 'org_umbrella' });
    expect(me.organizations).toHaveLength(1);
    expect((await call(only, '/api/auth/tokens')).status).toBe(200);
  });

  it('leaves a person of no organization with whoami and sign-out only', async () => {
    const none = await signIn('nina', { organizations: [] });
    const me = await whoami(none);
    expect(me).toMatchObject({ organization: null, organizations: [] });
    expect((await call(none, '/api/auth/tokens')).status).toBe(403);
    expect((await call(none, '/api/.ory/self-service/logout/browser')).status).toBe(200);
  });

  it('answers an API token made outside any organization with none, and refuses it the choice (a token keeps the organization it was made in)', async () => {
    const { rows } = await t.db.pool.query<{ id: string }>("SELECT id FROM people WHERE email = 'olivia@example.com'");
    const token = await createAccessToken(t.db.pool, { personId: rows[0]?.id ?? '', name: 'cli', scopes: [{ object: 'catalog', action: 'read' }], expiresAt: null, createdBy: rows[0]?.id ?? '' });
    const answer = await fetch(`${base}/api/auth/whoami`, { headers: { authorization: `Bearer ${token.token}` } });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as Whoami).organization).toBeNull();
    const chosen = await fetch(`${base}/api/auth/organization`, { method: 'POST', headers: { authorization: `Bearer ${token.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ id: globex.id }) });
    expect(chosen.status).toBe(403);
  });
});

describe('the built-in mode is unchanged', () => {
  it('has no organizations in whoami and no organization route', async () => {
    const plain = await createTestApp();
    try {
      const me = await plain.app.inject({ url: '/api/auth/whoami', headers: plain.adminHeaders });
      expect(me.statusCode).toBe(200);
      expect(Object.keys(me.json<Record<string, unknown>>())).not.toContain('organizations');
      expect(Object.keys(me.json<Record<string, unknown>>())).not.toContain('organization');
      const chosen = await plain.app.inject({ method: 'POST', url: '/api/auth/organization', headers: plain.adminHeaders, payload: { id: '00000000-0000-4000-8000-000000000000' } });
      expect(chosen.statusCode).toBe(404);
      expect((await plain.app.inject({ url: '/api/auth/tokens', headers: plain.adminHeaders })).statusCode).toBe(200);
    } finally {
      await plain.close();
    }
  });
});
