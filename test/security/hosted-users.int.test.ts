import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../app';

/**
 * Hosted mode after roles became per organization (issue 35; docs/HOSTED.md "Roles per organization"):
 * whoami says whether the person is a platform administrator and which role counts where they work, and
 * Settings → Users (people_roles, POST /api/people/update) shows and changes the membership role of the
 * organization the request works in, never the person's own (console-wide) roles, and only for that
 * organization's admins or a platform administrator.
 */

let t: TestApp;
const org = { a: '', b: '' };
type Person = { id: string; headers: Record<string, string> };
let aAdmin: Person;
let member: Person;
let claimMember: Person;
let bOnly: Person;
let bAdmin: Person;

async function call(who: Person | Record<string, string>, method: 'GET' | 'POST', url: string, body?: unknown) {
  const headers = 'headers' in who ? (who as Person).headers : (who as Record<string, string>);
  const response = await t.app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as Record<string, unknown> }) });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

async function join(person: Person, organizationId: string, role: string | null, source = 'console'): Promise<void> {
  await t.db.pool.query('INSERT INTO organization_members (organization_id, person_id, role, source) VALUES ($1, $2, $3, $4)', [organizationId, person.id, role, source]);
}

async function workIn(person: Person, organizationId: string): Promise<void> {
  const chosen = await call(person, 'POST', '/api/auth/organization', { id: organizationId });
  expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
}

async function ownRoles(person: Person): Promise<string[]> {
  const { rows } = await t.db.pool.query<{ role: string }>('SELECT role FROM person_roles WHERE person_id = $1 ORDER BY role', [person.id]);
  return rows.map((row) => row.role);
}

async function memberRole(person: Person, organizationId: string): Promise<string | null | undefined> {
  const { rows } = await t.db.pool.query<{ role: string | null }>('SELECT role FROM organization_members WHERE organization_id = $1 AND person_id = $2', [organizationId, person.id]);
  return rows[0]?.role;
}

beforeAll(async () => {
  t = await createTestApp({
    env: { WATCHKEEPER_AUTH: 'oidc', WATCHKEEPER_OIDC_ISSUER: 'http://127.0.0.1:9/issuer', WATCHKEEPER_OIDC_CLIENT_ID: 'watchkeeper', WATCHKEEPER_OIDC_CLIENT_SECRET: 'secret' },
  });
  const { rows } = await t.db.pool.query<{ id: string; name: string }>("INSERT INTO organizations (name, external_id) VALUES ('Alpha', 'org_alpha'), ('Beta', 'org_beta') RETURNING id, name");
  org.a = rows.find((row) => row.name === 'Alpha')?.id ?? '';
  org.b = rows.find((row) => row.name === 'Beta')?.id ?? '';
  // A's admin by membership, the console's viewer; also a viewer of B.
  aAdmin = await t.userWith(['viewer'], 'a-admin@example.com');
  await join(aAdmin, org.a, 'admin');
  await join(aAdmin, org.b, 'viewer');
  // A member of both, the console's editor.
  member = await t.userWith(['editor'], 'member@example.com');
  await join(member, org.a, 'viewer');
  await join(member, org.b, 'responder');
  // A member of A from the provider's claim (no role named: a viewer there).
  claimMember = await t.userWith(['guest'], 'claimed@example.com');
  await join(claimMember, org.a, null, 'claim');
  bOnly = await t.userWith(['viewer'], 'b-only@example.com');
  await join(bOnly, org.b, 'editor');
  bAdmin = await t.userWith(['viewer'], 'b-admin@example.com');
  await join(bAdmin, org.b, 'admin');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('whoami in hosted mode', () => {
  it('says who is a platform administrator and the role that counts in the organization worked in', async () => {
    // The first account (the test admin) is the platform administrator; it works in no organization.
    const platform = await call(t.adminHeaders, 'GET', '/api/auth/whoami');
    expect(platform.status).toBe(200);
    expect(platform.body).toMatchObject({ platform_admin: true, organization: null, organization_role: null });

    await workIn(aAdmin, org.a);
    expect((await call(aAdmin, 'GET', '/api/auth/whoami')).body).toMatchObject({ platform_admin: false, organization: { id: org.a }, organization_role: 'admin', roles: ['admin'] });
    await workIn(aAdmin, org.b);
    expect((await call(aAdmin, 'GET', '/api/auth/whoami')).body).toMatchObject({ platform_admin: false, organization: { id: org.b }, organization_role: 'viewer', roles: ['viewer'] });

    // A membership without a role: the answer names the role that counts (viewer), not null.
    const claimed = await call(claimMember, 'GET', '/api/auth/whoami');
    expect(claimed.body).toMatchObject({ platform_admin: false, organization: { id: org.a, role: null }, organization_role: 'viewer', roles: ['viewer'] });
  });
});

describe('Settings → Users in hosted mode: the role in the organization worked in', () => {
  it('people_roles shows each member’s role in this organization, not their own roles', async () => {
    await workIn(aAdmin, org.a);
    const listed = await call(aAdmin, 'GET', '/api/db/people_roles?select=email,roles&order=email');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      { email: 'a-admin@example.com', roles: ['admin'] },
      { email: 'claimed@example.com', roles: ['viewer'] },
      { email: 'member@example.com', roles: ['viewer'] },
    ]);
    // The same people seen from B: B's roles.
    await workIn(bAdmin, org.b);
    const fromB = await call(bAdmin, 'GET', `/api/db/people_roles?select=email,roles&email=eq.member@example.com`);
    expect(fromB.body).toEqual([{ email: 'member@example.com', roles: ['responder'] }]);
  });

  it('A’s admin changes a member’s role in A (200): the membership’s role changes, their own roles do not', async () => {
    await workIn(aAdmin, org.a);
    const changed = await call(aAdmin, 'POST', '/api/people/update', { id: member.id, roles: ['commander'] });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await memberRole(member, org.a)).toBe('commander');
    expect(await memberRole(member, org.b)).toBe('responder');
    expect(await ownRoles(member)).toEqual(['editor']);
    const listed = await call(aAdmin, 'GET', `/api/db/people_roles?select=roles&id=eq.${member.id}`);
    expect(listed.body).toEqual([{ roles: ['commander'] }]);
    // The member working in A now holds that role, and whoami says so.
    await workIn(member, org.a);
    expect((await call(member, 'GET', '/api/auth/whoami')).body).toMatchObject({ roles: ['commander'], organization_role: 'commander' });
    // A claim membership's role can be set as well.
    expect((await call(aAdmin, 'POST', '/api/people/update', { id: claimMember.id, roles: ['editor'] })).status).toBe(200);
    expect(await memberRole(claimMember, org.a)).toBe('editor');
    expect(await ownRoles(claimMember)).toEqual(['guest']);
  });

  it('refuses A’s admin in another organization (403) and leaves every role as it was', async () => {
    // Working in B, where A's admin is a viewer: not B's admin, so no role of B's changes.
    await workIn(aAdmin, org.b);
    const refused = await call(aAdmin, 'POST', '/api/people/update', { id: member.id, roles: ['admin'] });
    expect(refused.status, JSON.stringify(refused.body)).toBe(403);
    expect(await memberRole(member, org.b)).toBe('responder');
    expect(await ownRoles(member)).toEqual(['editor']);
    // Not even themselves.
    expect((await call(aAdmin, 'POST', '/api/people/update', { id: aAdmin.id, roles: ['admin'] })).status).toBe(403);
    expect(await memberRole(aAdmin, org.b)).toBe('viewer');
    expect(await ownRoles(aAdmin)).toEqual(['viewer']);
    // Working in A, a person of B only is nobody here (404, as every other organization's row), untouched.
    await workIn(aAdmin, org.a);
    const other = await call(aAdmin, 'POST', '/api/people/update', { id: bOnly.id, roles: ['admin'] });
    expect(other.status, JSON.stringify(other.body)).toBe(404);
    expect(await memberRole(bOnly, org.b)).toBe('editor');
    expect(await memberRole(bOnly, org.a)).toBeUndefined();
    expect(await ownRoles(bOnly)).toEqual(['viewer']);
  });

  it('an organization’s member holds one role there: several are refused naming the field', async () => {
    await workIn(aAdmin, org.a);
    const several = await call(aAdmin, 'POST', '/api/people/update', { id: member.id, roles: ['editor', 'responder'] });
    expect(several.status).toBe(400);
    expect(several.body).toMatchObject({ details: [{ path: 'body.roles', message: 'choose one role: a member holds one role in an organization' }] });
    expect(await memberRole(member, org.a)).toBe('commander');
  });

  it('a viewer of the organization gets 403 before anything about the body', async () => {
    await workIn(member, org.b);
    const refused = await call(member, 'POST', '/api/people/update', { id: bOnly.id, roles: 'not a list' });
    expect(refused.status).toBe(403);
  });

  it('an organization’s admin neither deactivates, renames nor deletes an account, which is every organization’s its person belongs to', async () => {
    await workIn(aAdmin, org.a);
    for (const body of [{ id: member.id, state: 'inactive' }, { id: member.id, name: 'Renamed' }]) {
      const refused = await call(aAdmin, 'POST', '/api/people/update', body);
      expect(refused.status, JSON.stringify(refused.body)).toBe(403);
      expect(refused.body.message).toMatch(/platform administrator's: remove the member from this organization instead/);
    }
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/people/${member.id}`, headers: aAdmin.headers });
    expect(deleted.statusCode, deleted.body).toBe(403);
    const { rows } = await t.db.pool.query<{ state: string; name: string; deleted_at: Date | null }>('SELECT i.state, p.name, p.deleted_at FROM people p JOIN identities i ON i.id = p.id WHERE p.id = $1', [member.id]);
    expect(rows[0]).toMatchObject({ state: 'active', deleted_at: null });
    expect(rows[0]?.name).not.toBe('Renamed');
  });

  it('refuses the built-in invitation in hosted mode, pointing to the organization’s (it could never be used)', async () => {
    await workIn(aAdmin, org.a);
    const invited = await call(aAdmin, 'POST', '/api/auth/invite_user', { firstName: 'New', lastName: 'Person', email: 'new@example.com', role: 'editor' });
    expect(invited.status).toBe(403);
    expect(invited.body.message).toMatch(/POST \/api\/auth\/organizations\/\{id\}\/members/);
    expect((await t.db.pool.query("SELECT 1 FROM identity_addresses WHERE value = 'new@example.com'")).rowCount).toBe(0);
  });

  it('a platform administrator who is a member changes roles in the organization it works in', async () => {
    const platform = await t.userWith(['viewer'], 'platform@example.com');
    await t.db.pool.query('INSERT INTO platform_admins (person_id) VALUES ($1)', [platform.id]);
    await join(platform, org.b, 'viewer');
    await workIn(platform, org.b);
    expect((await call(platform, 'GET', '/api/auth/whoami')).body).toMatchObject({ platform_admin: true, organization_role: 'viewer' });
    const changed = await call(platform, 'POST', '/api/people/update', { id: bOnly.id, roles: ['guest'] });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await memberRole(bOnly, org.b)).toBe('guest');
    expect(await ownRoles(bOnly)).toEqual(['viewer']);
    // And the account itself, whatever its role in the organization.
    expect((await call(platform, 'POST', '/api/people/update', { id: bOnly.id, state: 'inactive' })).status).toBe(200);
    expect((await t.db.pool.query<{ state: string }>('SELECT state FROM identities WHERE id = $1', [bOnly.id])).rows[0]?.state).toBe('inactive');
    expect((await call(platform, 'POST', '/api/people/update', { id: bOnly.id, state: 'active' })).status).toBe(200);
  });
});
