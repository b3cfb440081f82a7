import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorOfPerson, identityAuthenticator } from '../../server/features/identity/authenticate';
import { orgCommand } from '../../server/features/organizations-admin/cli';
import { inOrganization } from '../../server/platform/db/tenant';
import { createTestApp, type TestApp } from '../app';

/**
 * Issue 35, finding 10 (docs/HOSTED.md "Roles per organization", "Platform administrators and
 * organization admins"): roles were the console's, so an admin of organization B was an admin in every
 * organization: it listed organization A's members and added itself as A's admin through
 * /api/auth/organizations, and a member of A without a role there held their console roles in A. Now a
 * request working in an organization holds that membership's role only (viewer when it names none), a
 * platform administrator is a separate, explicit role, and an organization's admin manages only its own.
 */

let t: TestApp;
const org = { a: '', b: '' };
type Person = { id: string; headers: Record<string, string> };
let bAdmin: Person;
let bAdminWithConsoleAdmin: Person;
let mixed: Person;
let claimMember: Person;
let consoleAdmin: Person;

async function call(who: Person | Record<string, string>, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) {
  const headers = 'headers' in who ? (who as Person).headers : (who as Record<string, string>);
  const response = await t.app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as Record<string, unknown> }) });
  return { status: response.statusCode, body: response.json() as unknown };
}

async function join(person: Person, organizationId: string, role: string | null): Promise<void> {
  await t.db.pool.query("INSERT INTO organization_members (organization_id, person_id, role, source) VALUES ($1, $2, $3, 'console')", [organizationId, person.id, role]);
}

/** Chooses the organization for the person's session (as POST /api/auth/organization does). */
async function workIn(person: Person, organizationId: string): Promise<void> {
  const chosen = await call(person, 'POST', '/api/auth/organization', { id: organizationId });
  expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
}

async function rolesOf(person: Person): Promise<string[]> {
  const me = await call(person, 'GET', '/api/auth/whoami');
  expect(me.status).toBe(200);
  return (me.body as { roles: string[] }).roles;
}

beforeAll(async () => {
  // Hosted mode; the provider is never asked (sessions are made directly).
  t = await createTestApp({
    env: { WATCHKEEPER_AUTH: 'oidc', WATCHKEEPER_OIDC_ISSUER: 'http://127.0.0.1:9/issuer', WATCHKEEPER_OIDC_CLIENT_ID: 'watchkeeper', WATCHKEEPER_OIDC_CLIENT_SECRET: 'secret' },
  });
  const { rows } = await t.db.pool.query<{ id: string; name: string }>("INSERT INTO organizations (name, external_id) VALUES ('Alpha', 'org_alpha'), ('Beta', 'org_beta') RETURNING id, name");
  org.a = rows.find((row) => row.name === 'Alpha')?.id ?? '';
  org.b = rows.find((row) => row.name === 'Beta')?.id ?? '';
  // B's admin by membership (a viewer of the console): today's usual organization admin.
  bAdmin = await t.userWith(['viewer'], 'b-admin@example.com');
  await join(bAdmin, org.b, 'admin');
  // B's admin who also holds the console's admin role (the first account of an older console, say).
  bAdminWithConsoleAdmin = await t.userWith(['admin'], 'b-root@example.com');
  await join(bAdminWithConsoleAdmin, org.b, 'admin');
  // Viewer in A, admin in B.
  mixed = await t.userWith(['admin'], 'mixed@example.com');
  await join(mixed, org.a, 'viewer');
  await join(mixed, org.b, 'admin');
  // A member of A from the provider's claim (no role there) who is the console's admin and B's admin.
  claimMember = await t.userWith(['admin'], 'claimed@example.com');
  await t.db.pool.query("INSERT INTO organization_members (organization_id, person_id, source) VALUES ($1, $2, 'claim')", [org.a, claimMember.id]);
  await join(claimMember, org.b, 'admin');
  // The console's admin role, in no organization, and not a platform administrator.
  consoleAdmin = await t.userWith(['admin'], 'console-admin@example.com');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('an organization admin manages only its organization', () => {
  for (const [label, who] of [
    ['B’s admin', () => bAdmin],
    ['B’s admin who holds the console’s admin role', () => bAdminWithConsoleAdmin],
  ] as const) {
    it(`${label} cannot read A, list A's members or add itself to A (404: A does not exist for them)`, async () => {
      const person = who();
      expect((await call(person, 'GET', `/api/auth/organizations/${org.a}`)).status).toBe(404);
      expect((await call(person, 'GET', `/api/auth/organizations/${org.a}/members`)).status).toBe(404);
      const joinA = await call(person, 'POST', `/api/auth/organizations/${org.a}/members`, { email: person === bAdmin ? 'b-admin@example.com' : 'b-root@example.com', role: 'admin' });
      expect(joinA.status, JSON.stringify(joinA.body)).toBe(404);
      expect((await call(person, 'PATCH', `/api/auth/organizations/${org.a}/members/${mixed.id}`, { role: 'admin' })).status).toBe(404);
      expect((await call(person, 'DELETE', `/api/auth/organizations/${org.a}/members/${mixed.id}`)).status).toBe(404);
      expect((await call(person, 'PATCH', `/api/auth/organizations/${org.a}`, { name: 'Taken' })).status).toBe(404);
      expect((await call(person, 'DELETE', `/api/auth/organizations/${org.a}`)).status).toBe(404);
      const { rows } = await t.db.pool.query('SELECT 1 FROM organization_members WHERE organization_id = $1 AND person_id = $2', [org.a, person.id]);
      expect(rows).toEqual([]);
      expect((await t.db.pool.query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [org.a])).rows[0]?.name).toBe('Alpha');
      // The list shows their own organization only.
      const list = await call(person, 'GET', '/api/auth/organizations');
      expect(list.status).toBe(200);
      expect((list.body as Array<{ id: string }>).map((row) => row.id)).toEqual([org.b]);
    });
  }

  it("B's admin reads B and manages B's members and invitations, but neither creates, renames, re-homes nor deletes organizations", async () => {
    expect((await call(bAdmin, 'GET', `/api/auth/organizations/${org.b}`)).body).toMatchObject({ id: org.b, name: 'Beta' });
    const members = await call(bAdmin, 'GET', `/api/auth/organizations/${org.b}/members`);
    expect((members.body as Array<{ person_id: string }>).map((row) => row.person_id)).toEqual(expect.arrayContaining([bAdmin.id, mixed.id]));
    const invited = await call(bAdmin, 'POST', `/api/auth/organizations/${org.b}/members`, { email: 'new-in-b@example.com', role: 'editor' });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const personId = (invited.body as { person_id: string }).person_id;
    expect((await call(bAdmin, 'PATCH', `/api/auth/organizations/${org.b}/members/${personId}`, { role: 'responder' })).body).toMatchObject({ role: 'responder' });
    expect((await call(bAdmin, 'DELETE', `/api/auth/organizations/${org.b}/members/${personId}`)).status).toBe(200);
    expect((await call(bAdmin, 'POST', '/api/auth/organizations', { name: 'Gamma' })).status).toBe(403);
    expect((await call(bAdmin, 'PATCH', `/api/auth/organizations/${org.b}`, { backend_url: 'https://evil.example.com' })).status).toBe(403);
    expect((await call(bAdmin, 'DELETE', `/api/auth/organizations/${org.b}`)).status).toBe(403);
    expect((await t.db.pool.query('SELECT backend_url, deleted_at FROM organizations WHERE id = $1', [org.b])).rows[0]).toEqual({ backend_url: null, deleted_at: null });
    expect((await call(bAdmin, 'GET', '/api/auth/organizations/access')).body).toEqual({ platform_admin: false, organization_id: org.b });
  });

  it('a viewer of A manages nothing of A, and the console’s admin role outside any organization manages nothing', async () => {
    await workIn(mixed, org.a);
    expect((await call(mixed, 'GET', `/api/auth/organizations/${org.a}/members`)).status).toBe(403);
    expect((await call(mixed, 'POST', `/api/auth/organizations/${org.a}/members`, { email: 'mixed@example.com', role: 'admin' })).status).toBe(403);
    expect((await call(mixed, 'GET', '/api/auth/organizations')).status).toBe(403);
    // Working in A, B's members are not theirs to manage either, although they are B's admin.
    expect((await call(mixed, 'GET', `/api/auth/organizations/${org.b}/members`)).status).toBe(403);
    const outside = await call(consoleAdmin, 'GET', '/api/auth/organizations');
    expect(outside.status).toBe(403);
    expect(outside.body).toMatchObject({ details: { id: 'organization_required' } });
    expect((await call(consoleAdmin, 'POST', '/api/auth/organizations', { name: 'Mine' })).status).toBe(403);
  });
});

describe('roles are per organization', () => {
  it('a member who is a viewer in A and an admin in B (and the console’s admin) is a viewer when working in A', async () => {
    await workIn(mixed, org.a);
    expect(await rolesOf(mixed)).toEqual(['viewer']);
    const write = await call(mixed, 'POST', '/api/db/teams', { name: 'mixed-team' });
    expect(write.status).toBe(403);
    await workIn(mixed, org.b);
    expect(await rolesOf(mixed)).toEqual(['admin']);
  });

  it('a member whose membership names no role (the provider’s claim) is a viewer there, not the console’s admin', async () => {
    await workIn(claimMember, org.a);
    expect(await rolesOf(claimMember)).toEqual(['viewer']);
    expect((await call(claimMember, 'POST', '/api/db/teams', { name: 'claim-team' })).status).toBe(403);
    expect((await call(claimMember, 'GET', `/api/auth/organizations/${org.a}/members`)).status).toBe(403);
    await workIn(claimMember, org.b);
    expect(await rolesOf(claimMember)).toEqual(['admin']);
  });

  it('a spec’s author is judged in the organization the run works in (run-time capability checks)', async () => {
    const rules = identityAuthenticator(t.db.pool).rules;
    const inA = await inOrganization(org.a, () => actorOfPerson(t.db.pool, rules, mixed.id));
    const inB = await inOrganization(org.b, () => actorOfPerson(t.db.pool, rules, mixed.id));
    expect(inA?.roles).toEqual(['viewer']);
    expect(inB?.roles).toEqual(['admin']);
    // Not a member: no role at all.
    const stranger = await inOrganization(org.a, () => actorOfPerson(t.db.pool, rules, bAdmin.id));
    expect(stranger?.roles ?? []).toEqual([]);
    // Outside any organization (the built-in mode): the person's own roles, as before.
    expect((await actorOfPerson(t.db.pool, rules, mixed.id))?.roles).toEqual(['admin']);
  });
});

describe('the platform administrator is a separate, explicit role', () => {
  it('the first account is one; it lists, creates, changes and deletes every organization before choosing one', async () => {
    const list = await call(t.adminHeaders, 'GET', '/api/auth/organizations');
    expect(list.status).toBe(200);
    expect((list.body as Array<{ id: string }>).map((row) => row.id).sort()).toEqual([org.a, org.b].sort());
    expect((await call(t.adminHeaders, 'GET', '/api/auth/organizations/access')).body).toEqual({ platform_admin: true, organization_id: null });
    const made = await call(t.adminHeaders, 'POST', '/api/auth/organizations', { name: 'Gamma' });
    expect(made.status).toBe(201);
    const id = (made.body as { id: string }).id;
    expect((await call(t.adminHeaders, 'GET', `/api/auth/organizations/${org.a}/members`)).status).toBe(200);
    expect((await call(t.adminHeaders, 'PATCH', `/api/auth/organizations/${id}`, { backend_url: 'https://gamma.example.com' })).status).toBe(200);
    expect((await call(t.adminHeaders, 'DELETE', `/api/auth/organizations/${id}`)).status).toBe(200);
    // Nothing else before an organization is chosen: the platform role gives nothing inside one.
    expect((await call(t.adminHeaders, 'GET', '/api/db/teams')).status).toBe(403);
  });

  it('is given and taken on the command line only (never the last one), and gives no role inside an organization', async () => {
    expect(await orgCommand(t.db.pool, ['platform-admin', 'add', 'console-admin@example.com'], {})).toBe('console-admin@example.com is now a platform administrator\n');
    expect(await orgCommand(t.db.pool, ['platform-admin', 'add', 'console-admin@example.com'], {})).toBe('console-admin@example.com is a platform administrator already\n');
    expect(await orgCommand(t.db.pool, ['platform-admin', 'list'], {})).toContain('console-admin@example.com');
    expect((await call(consoleAdmin, 'GET', '/api/auth/organizations')).status).toBe(200);
    // A platform administrator who is a viewer of A is a viewer there.
    await join(consoleAdmin, org.a, 'viewer');
    await workIn(consoleAdmin, org.a);
    expect(await rolesOf(consoleAdmin)).toEqual(['viewer']);
    expect((await call(consoleAdmin, 'POST', '/api/db/teams', { name: 'platform-team' })).status).toBe(403);
    // Still manages every organization from there.
    expect((await call(consoleAdmin, 'GET', `/api/auth/organizations/${org.b}/members`)).status).toBe(200);
    expect(await orgCommand(t.db.pool, ['platform-admin', 'remove', 'console-admin@example.com'], {})).toBe('console-admin@example.com is no longer a platform administrator\n');
    // A viewer of A again, nothing more: managing organizations is refused.
    expect((await call(consoleAdmin, 'GET', `/api/auth/organizations/${org.b}/members`)).status).toBe(403);
    await expect(orgCommand(t.db.pool, ['platform-admin', 'remove', 'test-admin@example.com'], {})).rejects.toThrow('is the last platform administrator');
    await expect(orgCommand(t.db.pool, ['platform-admin', 'add', 'nobody@example.com'], {})).rejects.toThrow('no account has the email nobody@example.com');
  });

  it('cannot be written by an organization’s admin through /api/db (the table is not the tenant’s)', async () => {
    await workIn(bAdminWithConsoleAdmin, org.b);
    const planted = await call(bAdminWithConsoleAdmin, 'POST', '/api/db/platform_admins', { person_id: bAdminWithConsoleAdmin.id });
    expect(planted.status).toBeGreaterThanOrEqual(400);
    const { rows } = await t.db.pool.query('SELECT 1 FROM platform_admins WHERE person_id = $1', [bAdminWithConsoleAdmin.id]);
    expect(rows).toEqual([]);
    await expect(inOrganization(org.b, () => t.db.pool.query('SELECT * FROM platform_admins'))).rejects.toThrow(/permission denied/);
  });
});
