import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';

/**
 * Spec §7 Views: /api/db/views takes POST, PATCH and DELETE as Mission Control's console sends them, checked
 * as /api/views checks them: the spec whole (400 naming each problem, nothing written), the columns read
 * from it set, the view's table made with the row and dropped with it; views from files stay as they are.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

const SPEC = {
  display: { title: 'Namespaces', sidebar: true, ordinal: 3 },
  queries: { namespaces: { configs: { types: ['Kubernetes::Namespace'] } } },
  columns: [{ name: 'name', type: 'string', primaryKey: true }],
};

const tableOf = async (name: string) => (await t.db.pool.query('SELECT to_regclass($1) AS t', [`public.${name}`])).rows[0].t;

describe('/api/db/views writes', () => {
  it('creates, changes and deletes a view, with its derived columns and its table', async () => {
    const headers = { ...t.adminHeaders, 'content-type': 'application/json', prefer: 'return=representation' };
    const created = await t.app.inject({ method: 'POST', url: '/api/db/views', headers, payload: { name: 'namespaces', namespace: 'ops', spec: SPEC } });
    expect(created.statusCode).toBe(201);
    const row = created.json()[0];
    const read = async () => (await t.app.inject({ method: 'GET', url: `/api/db/views?id=eq.${row.id}`, headers: t.adminHeaders })).json()[0];
    expect(await read()).toMatchObject({ name: 'namespaces', namespace: 'ops', source: 'UI', title: 'Namespaces', sidebar: true, ordinal: 3 });
    expect(await tableOf('view_ops_namespaces')).not.toBeNull();

    const patched = await t.app.inject({ method: 'PATCH', url: `/api/db/views?id=eq.${row.id}`, headers, payload: { spec: { ...SPEC, display: { title: 'All namespaces' } } } });
    expect(patched.statusCode).toBe(200);
    expect(await read()).toMatchObject({ title: 'All namespaces', sidebar: false, ordinal: null });

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/db/views?id=eq.${row.id}`, headers });
    expect(removed.statusCode).toBe(200);
    expect(await tableOf('view_ops_namespaces')).toBeNull();
    const summary = await t.app.inject({ method: 'GET', url: '/api/db/views_summary?name=eq.namespaces', headers: t.adminHeaders });
    expect(summary.json()).toEqual([]);
  });

  it('refuses a bad spec with the path of each problem and writes nothing', async () => {
    const headers = { ...t.adminHeaders, 'content-type': 'application/json' };
    const bad = { ...SPEC, columns: [{ name: 'name', type: 'text', primaryKey: true }] };
    const answer = await t.app.inject({ method: 'POST', url: '/api/db/views', headers, payload: { name: 'bad', spec: bad } });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toMatch(/spec\.columns\[0\]\.type/);
    expect((await t.db.pool.query("SELECT count(*)::int AS n FROM views WHERE name = 'bad'")).rows[0].n).toBe(0);
    expect(await tableOf('view_default_bad')).toBeNull();
  });

  it('leaves views from files alone and keeps writes to editors', async () => {
    await t.db.pool.query("INSERT INTO views (name, namespace, spec, source) VALUES ('from-file', 'default', $1, 'KubernetesCRD')", [JSON.stringify(SPEC)]);
    const headers = { ...t.adminHeaders, 'content-type': 'application/json', prefer: 'return=representation' };
    const patched = await t.app.inject({ method: 'PATCH', url: '/api/db/views?name=eq.from-file', headers, payload: { spec: { ...SPEC, display: { title: 'Changed' } } } });
    expect(patched.json()).toEqual([]);
    const viewer = await t.userWith(['viewer']);
    const denied = await t.app.inject({ method: 'POST', url: '/api/db/views', headers: { ...viewer.headers, 'content-type': 'application/json' }, payload: { name: 'nope', spec: SPEC } });
    expect(denied.statusCode).toBe(403);
  });
});
