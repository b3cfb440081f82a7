import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

type Json = Record<string, unknown>;

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: Json, headers = t.adminHeaders) {
  const response = await t.app.inject({ method, url, headers, ...(body ? { payload: body } : {}) });
  return { status: response.statusCode, body: response.json<Json & { details?: { path: string; message: string }[] }>() };
}

async function create(body: Json): Promise<string> {
  const answer = await call('POST', '/api/auth/organizations', body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return String(answer.body.id);
}

describe('organizations admin API', () => {
  it('answers 401 without sign-in and 403 to a person who is not an administrator', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/organizations' })).statusCode).toBe(401);
    const editor = await t.userWith(['editor']);
    expect((await call('GET', '/api/auth/organizations', undefined, editor.headers)).status).toBe(403);
    expect((await call('POST', '/api/auth/organizations', { name: 'Nope' }, editor.headers)).status).toBe(403);
  });

  it('creates, lists with member counts, updates and refuses every bad field by name', async () => {
    const id = await create({ name: 'Team A', external_id: 'org-a', backend_url: 'https://a.example.com/', direct: true });
    const list = await call('GET', '/api/auth/organizations');
    expect(list.status).toBe(200);
    expect(list.body).toEqual(expect.arrayContaining([expect.objectContaining({ id, name: 'Team A', external_id: 'org-a', backend_url: 'https://a.example.com', direct: true, members: 0 })]));

    const bad = await call('POST', '/api/auth/organizations', { name: ' ', backend_url: 'ftp://x.example.com', direct: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.details?.map((issue) => issue.path).sort()).toEqual(['body.backend_url', 'body.direct', 'body.name']);
    expect(bad.body.message).toContain('must be an http or https URL, not ftp');

    const secret = await call('POST', '/api/auth/organizations', { name: 'B', backend_url: 'https://user:pw@b.example.com' });
    expect(secret.status).toBe(400);
    expect(secret.body.message).toBe('body.backend_url: must not hold a user name or password (the front signs its requests with its own token)');
    expect(JSON.stringify(secret.body)).not.toContain('pw@');
    expect((await call('POST', '/api/auth/organizations', { name: 'B', backend_url: 'not a url' })).body.message).toContain('is not a URL');

    const noBackend = await call('POST', '/api/auth/organizations', { name: 'B', direct: true });
    expect(noBackend.status).toBe(400);
    expect(noBackend.body.details).toEqual([{ path: 'body.direct', message: 'needs a backend_url: the browser calls the backend itself' }]);
    // Clearing the backend of a direct organization leaves it direct without one: refused the same way.
    expect((await call('PATCH', `/api/auth/organizations/${id}`, { backend_url: null })).body.details).toEqual([
      { path: 'body.direct', message: 'needs a backend_url: the browser calls the backend itself' },
    ]);

    const dupName = await call('POST', '/api/auth/organizations', { name: 'team a' });
    expect(dupName.status).toBe(409);
    expect(dupName.body.message).toBe('name: an organization named "team a" exists already');
    const dupExternal = await call('POST', '/api/auth/organizations', { name: 'Other', external_id: 'org-a' });
    expect(dupExternal.status).toBe(409);
    expect(dupExternal.body.message).toBe('external_id: another organization has this external id');

    const updated = await call('PATCH', `/api/auth/organizations/${id}`, { name: 'Team A2', backend_url: 'http://10.0.0.5:3000', direct: false });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Team A2', backend_url: 'http://10.0.0.5:3000', direct: false });
    const cleared = await call('PATCH', `/api/auth/organizations/${id}`, { backend_url: null });
    expect(cleared.body).toMatchObject({ backend_url: null, direct: false });
    const other = await create({ name: 'Team C' });
    expect((await call('PATCH', `/api/auth/organizations/${other}`, { name: 'TEAM A2' })).status).toBe(409);

    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await call('PATCH', `/api/auth/organizations/${unknown}`, { name: 'x' })).status).toBe(404);
    expect((await call('GET', '/api/auth/organizations/not-a-uuid')).body.message).toBe('params.id: must be a UUID');
  });

  it('invites by email (making the account when there is none), sets roles and removes members', async () => {
    const id = await create({ name: 'Members Inc' });
    const invited = await call('POST', `/api/auth/organizations/${id}/members`, { email: 'New.Person@example.com', role: 'editor' });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ email: 'New.Person@example.com', role: 'editor', source: 'console', account_created: true, email_sent: false });
    const personId = String(invited.body.person_id);
    // The account is made as the built-in invite makes it: no password, address not verified, the default role.
    const account = await t.db.pool.query<{ verified: boolean; roles: string[]; credentials: number }>(
      `SELECT a.verified, array(SELECT role FROM person_roles WHERE person_id = $1) AS roles,
              (SELECT count(*)::int FROM identity_credentials WHERE identity_id = $1) AS credentials
         FROM identity_addresses a WHERE a.identity_id = $1`,
      [personId],
    );
    expect(account.rows[0]).toEqual({ verified: false, roles: ['viewer'], credentials: 0 });

    const existing = await t.userWith(['responder'], 'responder@example.com');
    const second = await call('POST', `/api/auth/organizations/${id}/members`, { email: 'RESPONDER@example.com' });
    expect(second.body).toMatchObject({ person_id: existing.id, role: null, account_created: false });
    const again = await call('POST', `/api/auth/organizations/${id}/members`, { email: 'responder@example.com' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('email: responder@example.com is a member of this organization already');

    const bad = await call('POST', `/api/auth/organizations/${id}/members`, { email: 'nope', role: 'owner' });
    expect(bad.status).toBe(400);
    expect(bad.body.details?.map((issue) => issue.path).sort()).toEqual(['body.email', 'body.role']);

    const role = await call('PATCH', `/api/auth/organizations/${id}/members/${existing.id}`, { role: 'commander' });
    expect(role.body).toMatchObject({ role: 'commander' });
    expect((await call('PATCH', `/api/auth/organizations/${id}/members/${existing.id}`, { role: 'root' })).body.message).toContain('body.role: must be one of admin');

    // A membership from the provider's claim is shown, and its removal is the provider's.
    const claimed = await t.userWith(['viewer'], 'claimed@example.com');
    await t.db.pool.query("INSERT INTO organization_members (organization_id, person_id, source) VALUES ($1, $2, 'claim')", [id, claimed.id]);
    const members = await call('GET', `/api/auth/organizations/${id}/members`);
    expect(members.body).toEqual(expect.arrayContaining([expect.objectContaining({ person_id: claimed.id, source: 'claim' })]));
    expect((await call('GET', '/api/auth/organizations')).body).toEqual(expect.arrayContaining([expect.objectContaining({ id, members: 3 })]));
    const claimRemoval = await call('DELETE', `/api/auth/organizations/${id}/members/${claimed.id}`);
    expect(claimRemoval.status).toBe(409);
    expect(claimRemoval.body.message).toContain("comes from the sign-in provider's organization claim");

    expect((await call('DELETE', `/api/auth/organizations/${id}/members/${existing.id}`)).status).toBe(200);
    expect((await call('DELETE', `/api/auth/organizations/${id}/members/${existing.id}`)).status).toBe(404);
    expect((await call('GET', `/api/auth/organizations/${id}/members`)).body).toHaveLength(2);
  });

  it('deletes softly: gone from the list, members and sessions let go, its external id not reusable', async () => {
    const id = await create({ name: 'Doomed', external_id: 'org-doomed' });
    const person = await t.userWith(['viewer']);
    await call('POST', `/api/auth/organizations/${id}/members`, { email: (await t.db.pool.query<{ email: string }>('SELECT email FROM people WHERE id = $1', [person.id])).rows[0]?.email ?? '' });
    await t.db.pool.query('UPDATE sessions SET organization_id = $1 WHERE identity_id = $2', [id, person.id]);
    expect((await call('DELETE', `/api/auth/organizations/${id}`)).status).toBe(200);
    expect((await call('GET', '/api/auth/organizations')).body).not.toEqual(expect.arrayContaining([expect.objectContaining({ id })]));
    expect((await call('GET', `/api/auth/organizations/${id}/members`)).status).toBe(404);
    expect((await call('DELETE', `/api/auth/organizations/${id}`)).status).toBe(404);
    // Its sessions keep the deleted organization's id, so they find none and choose again (never another one silently).
    const sessions = await t.db.pool.query('SELECT 1 FROM sessions WHERE organization_id = $1', [id]);
    expect(sessions.rowCount).toBe(1);
    const reuse = await call('POST', '/api/auth/organizations', { name: 'Doomed', external_id: 'org-doomed' });
    expect(reuse.status).toBe(409);
    expect(reuse.body.message).toBe('external_id: belongs to a deleted organization');
    // Its name is free again.
    expect((await call('POST', '/api/auth/organizations', { name: 'Doomed' })).status).toBe(201);
  });
});

describe('in oidc mode', () => {
  let hosted: TestApp;
  beforeAll(async () => {
    // The provider is never asked here: only the mode matters (sessions are made directly).
    hosted = await createTestApp({
      env: { WATCHKEEPER_AUTH: 'oidc', WATCHKEEPER_OIDC_ISSUER: 'http://127.0.0.1:9/issuer', WATCHKEEPER_OIDC_CLIENT_ID: 'watchkeeper', WATCHKEEPER_OIDC_CLIENT_SECRET: 'secret' },
    });
  });
  afterAll(async () => {
    await hosted?.close();
  });

  it('lets a platform administrator in no organization manage them (the first one is made here), and nothing else until one is chosen', async () => {
    const admin = await hosted.userWith(['admin']);
    // A console admin role is not enough (issue 35): the platform administrator is named (migration 0040).
    const before = await hosted.app.inject({ method: 'POST', url: '/api/auth/organizations', headers: admin.headers, payload: { name: 'Home' } });
    expect(before.statusCode).toBe(403);
    await hosted.db.pool.query('INSERT INTO platform_admins (person_id) VALUES ($1)', [admin.id]);
    const created = await hosted.app.inject({ method: 'POST', url: '/api/auth/organizations', headers: admin.headers, payload: { name: 'Home' } });
    expect(created.statusCode, created.body).toBe(201);
    const other = await hosted.app.inject({ method: 'GET', url: '/api/db/canaries', headers: admin.headers });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ details: { id: 'organization_required' } });
    const editor = await hosted.userWith(['editor']);
    const refused = await hosted.app.inject({ method: 'GET', url: '/api/auth/organizations', headers: editor.headers });
    expect(refused.statusCode).toBe(403);
    const id = (created.json() as { id: string }).id;
    await hosted.db.pool.query('INSERT INTO organization_members (organization_id, person_id) VALUES ($1, $2)', [id, admin.id]);
    const listed = await hosted.app.inject({ method: 'GET', url: '/api/auth/organizations', headers: admin.headers });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([expect.objectContaining({ name: 'Home', members: 1 })]);
  });
});
