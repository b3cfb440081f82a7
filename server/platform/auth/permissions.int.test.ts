import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';

/** Permission rows written through /api/db change the very next request; decisions can be explained. */
let t: TestApp;
let viewer: { id: string; headers: Record<string, string> };

beforeAll(async () => {
  t = await createTestApp();
  viewer = await t.userWith(['viewer']);
});

afterAll(async () => {
  await t?.close();
});

async function db(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, headers: Record<string, string>, body?: unknown) {
  const res = await t.app.inject({
    method,
    url: `/api/db/${path}`,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json', prefer: 'return=representation' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: res.body, json: (): unknown => JSON.parse(res.body) };
}

function firstId(value: unknown): string {
  if (!Array.isArray(value) || !value[0] || typeof value[0] !== 'object') throw new Error(`no row in ${JSON.stringify(value)}`);
  return String(Reflect.get(value[0], 'id'));
}

async function explain(body: Record<string, unknown>, headers = t.adminHeaders) {
  const res = await t.app.inject({ method: 'POST', url: '/api/rbac/check', headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  return { status: res.statusCode, json: (): Record<string, unknown> => JSON.parse(res.body) };
}

describe('permission rows', () => {
  it('a deny for a person applies to their next request and lifts when deleted', async () => {
    expect((await db('GET', 'job_history', viewer.headers)).status).toBe(200);
    const created = await db('POST', 'permissions?select=id,subject,person_id,created_by', t.adminHeaders, {
      subject: viewer.id,
      subject_type: 'person',
      object: 'database',
      action: 'read',
      deny: true,
      description: 'no job history for this viewer',
    });
    expect(created.status, created.body).toBe(201);
    const row = (created.json() as Array<Record<string, unknown>>)[0];
    expect(row?.person_id).toBe(viewer.id);
    expect(row?.created_by).toBeTruthy();
    const id = firstId(created.json());
    expect((await db('GET', 'job_history', viewer.headers)).status).toBe(403);
    const why = await explain({ person_id: viewer.id, object: 'database', action: 'read' });
    expect(why.json()).toMatchObject({ allowed: false, reason: 'deny', permission: { id } });
    expect((await db('DELETE', `permissions?id=eq.${id}`, t.adminHeaders)).status).toBe(204);
    expect((await db('GET', 'job_history', viewer.headers)).status).toBe(200);
  });

  it('grants through a team and through a group (role), and expires with until', async () => {
    const team = await db('POST', 'teams?select=id', t.adminHeaders, { name: 'Ops' });
    const teamId = firstId(team.json());
    expect((await db('POST', 'team_members', t.adminHeaders, { team_id: teamId, person_id: viewer.id })).status).toBe(201);
    expect((await db('POST', 'properties', viewer.headers, { name: 'a.disable', value: 'true' })).status).toBe(403);
    const grant = await db('POST', 'permissions?select=id', t.adminHeaders, { subject: teamId, subject_type: 'team', object: 'feature_flags', action: 'create,read,update,delete' });
    expect(grant.status, grant.body).toBe(201);
    expect((await db('POST', 'properties', viewer.headers, { name: 'a.disable', value: 'true' })).status).toBe(201);
    expect((await explain({ object: 'feature_flags', action: 'create' }, viewer.headers)).json()).toMatchObject({ allowed: true, reason: 'permission' });

    const group = await db('POST', 'permissions?select=id', t.adminHeaders, { subject: 'viewer', subject_type: 'group', object: 'canaries', action: 'update', until: new Date(Date.now() + 60_000).toISOString() });
    expect(group.status).toBe(201);
    expect((await explain({ person_id: viewer.id, object: 'canaries', action: 'update' })).json()).toMatchObject({ allowed: true, reason: 'permission' });
    await t.db.pool.query("UPDATE permissions SET until = now() - interval '1 second' WHERE id = $1", [firstId(group.json())]);
    expect((await explain({ person_id: viewer.id, object: 'canaries', action: 'update' })).json()).toMatchObject({ allowed: false, reason: 'none' });
  });

  it('refuses incomplete rows with the field named, and keeps rows from elsewhere read-only', async () => {
    const noTarget = await db('POST', 'permissions', t.adminHeaders, { subject: viewer.id, subject_type: 'person', action: 'read' });
    expect(noTarget.status).toBe(400);
    expect(noTarget.body).toContain('permissions_target');
    const noSubject = await db('POST', 'permissions', t.adminHeaders, { subject_type: 'person', object: 'canaries', action: 'read' });
    expect(noSubject.status).toBe(400);
    expect(noSubject.body).toContain('subject');

    const { rows } = await t.db.pool.query<{ id: string }>(
      "INSERT INTO permissions (subject, subject_type, object, action, source) VALUES ('editor', 'group', 'canaries', 'read', 'KubernetesCRD') RETURNING id",
    );
    const crd = rows[0]?.id ?? '';
    const patched = await db('PATCH', `permissions?id=eq.${crd}`, t.adminHeaders, { deny: true });
    expect(patched.json()).toEqual([]);
    await db('DELETE', `permissions?id=eq.${crd}`, t.adminHeaders);
    const kept = await t.db.pool.query('SELECT deny, deleted_at FROM permissions WHERE id = $1', [crd]);
    expect(kept.rows[0]).toEqual({ deny: false, deleted_at: null });
  });

  it('explains other people only to those who may read rbac', async () => {
    const editor = await t.userWith(['editor']);
    expect((await explain({ person_id: viewer.id, object: 'canaries', action: 'read' }, editor.headers)).status).toBe(403);
    expect((await explain({ object: 'identities', action: 'read' }, editor.headers)).json()).toMatchObject({ allowed: false, reason: 'none' });
    expect((await explain({ object: 'canaries', action: 'update' }, editor.headers)).json()).toMatchObject({ allowed: true, reason: 'role', role: 'editor' });
  });
});

describe('people', () => {
  it('changes roles, refuses to remove the last admin, deactivates and deletes', async () => {
    const person = await t.userWith(['viewer']);
    const update = (body: unknown) =>
      t.app.inject({ method: 'POST', url: '/api/people/update', headers: { ...t.adminHeaders, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    expect((await update({ id: person.id, roles: ['editor', 'responder'] })).statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/whoami', headers: person.headers });
    expect(JSON.parse(me.body).roles).toEqual(['editor', 'responder']);
    const bad = await update({ id: 'nope', roles: ['wizard'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('body.id');
    expect(bad.body).toContain('body.roles');

    const { rows } = await t.db.pool.query<{ id: string }>("SELECT person_id AS id FROM person_roles WHERE role = 'admin'");
    const admins = rows.map((row) => row.id);
    for (const id of admins.slice(1)) await t.db.pool.query("DELETE FROM person_roles WHERE person_id = $1 AND role = 'admin'", [id]);
    const lastAdmin = await update({ id: admins[0], roles: ['viewer'] });
    expect(lastAdmin.statusCode).toBe(409);

    expect((await update({ id: person.id, state: 'inactive' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/whoami', headers: person.headers })).statusCode).toBe(401);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/people/${person.id}`, headers: t.adminHeaders });
    expect(removed.statusCode).toBe(200);
    const listed = await db('GET', `people_roles?id=eq.${person.id}`, t.adminHeaders);
    expect(listed.json()).toEqual([]);
  });
});
