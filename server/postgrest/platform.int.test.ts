import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../test/app';
import { parseSelect } from './parse/select';
import { accessNeeds } from './plugin';
import { createRegistry } from './registry';
import { functions, relations } from './relations';
import { introspect } from './schema';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await t.db.pool.query(`
    INSERT INTO people (id, name, email, avatar, properties, last_login) VALUES
      ('11111111-1111-1111-1111-111111111111', 'Pat', 'pat@example.com', 'https://a/p.png', '{"secret": "do-not-leak"}', now());
    INSERT INTO agents (id, name, person_id) VALUES
      ('22222222-2222-2222-2222-222222222222', 'edge', '11111111-1111-1111-1111-111111111111');
    INSERT INTO agents (id, name, deleted_at) VALUES ('33333333-3333-3333-3333-333333333333', 'retired', now());
    INSERT INTO job_history (name, agent_id, status, duration_millis, time_start) VALUES
      ('SyncChecks', '00000000-0000-0000-0000-000000000000', 'SUCCESS', 120, now() - interval '2 minutes'),
      ('SyncChecks', '22222222-2222-2222-2222-222222222222', 'FAILED', 30, now() - interval '1 minute'),
      ('Cleanup', '00000000-0000-0000-0000-000000000000', 'SUCCESS', NULL, now());
    INSERT INTO event_queue (name, attempts, error, last_attempt) VALUES ('check.failed', 0, NULL, NULL), ('check.failed', 2, 'timeout', now());
  `);
});

afterAll(async () => {
  await t?.close();
});

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await t.app.inject({
    method,
    url: `/api/db/${url}`,
    headers: { ...t.adminHeaders, ...(body === undefined ? headers : { 'content-type': 'application/json', ...headers }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: res.statusCode, headers: res.headers, body: res.body, json: (): unknown => JSON.parse(res.body) };
}

describe('platform relations', () => {
  it('properties: list, insert, update, upsert on name, delete (feature flags)', async () => {
    const created = await call('POST', 'properties?select=name,value', { name: 'incidents.disable', value: 'true' }, { prefer: 'return=representation' });
    expect(created.status).toBe(201);
    expect(created.json()).toEqual([{ name: 'incidents.disable', value: 'true' }]);
    const updated = await call('PATCH', 'properties?name=eq.incidents.disable&select=value', { value: 'false' }, { prefer: 'return=representation' });
    expect(updated.json()).toEqual([{ value: 'false' }]);
    const upserted = await call('POST', 'properties?on_conflict=name&select=name,value', [{ name: 'incidents.disable', value: 'true' }, { name: 'logs.disable', value: 'true' }], {
      prefer: 'resolution=merge-duplicates,return=representation',
    });
    expect(upserted.json()).toEqual([{ name: 'incidents.disable', value: 'true' }, { name: 'logs.disable', value: 'true' }]);
    const list = await call('GET', 'properties?select=name,value&order=name', undefined, { prefer: 'count=exact' });
    expect(list.headers['content-range']).toBe('0-1/2');
    expect((await call('DELETE', 'properties?name=eq.logs.disable')).status).toBe(204);
    expect((await call('GET', 'properties?select=name')).json()).toEqual([{ name: 'incidents.disable' }]);
  });

  it('agents: read-only, soft-deleted rows hidden', async () => {
    const res = await call('GET', 'agents?select=name&order=name');
    expect(res.json()).toEqual([{ name: 'edge' }, { name: 'local' }]);
    expect((await call('GET', 'agents?select=name&deleted_at=not.is.null')).json()).toEqual([{ name: 'retired' }]);
    expect((await call('POST', 'agents', { name: 'x' })).status).toBe(405);
    expect((await call('DELETE', 'agents?name=eq.edge')).status).toBe(405);
  });

  it('people: only id, name, email, avatar, created_at, ever', async () => {
    const res = await call('GET', 'people?email=eq.pat@example.com');
    expect(res.status).toBe(200);
    const rows = res.json();
    expect(rows).toHaveLength(1);
    const first: unknown = Array.isArray(rows) ? rows[0] : undefined;
    expect(Object.keys(typeof first === 'object' && first !== null ? first : {}).sort()).toEqual(['avatar', 'created_at', 'email', 'id', 'name']);
    expect(res.body).not.toContain('do-not-leak');
    for (const url of ['people?select=properties', 'people?select=last_login', 'people?properties->>secret=eq.do-not-leak', 'people?order=last_login', 'people?select=x:properties->secret']) {
      const denied = await call('GET', url);
      expect(denied.status, url).toBe(400);
      expect(denied.body, url).not.toContain('do-not-leak');
    }
    const embedded = await call('GET', 'agents?select=name,owner:people!agents_person_id_fkey(*)&name=eq.edge');
    expect(embedded.json()).toEqual([{ name: 'edge', owner: { id: '11111111-1111-1111-1111-111111111111', name: 'Pat', email: 'pat@example.com', avatar: 'https://a/p.png', created_at: expect.any(String) } }]);
  });

  it('job_history embeds its agent; job_histories, job_history_names and event_queue_summary read', async () => {
    const history = await call('GET', 'job_history?select=name,status,agent:agents(name)&order=time_start.desc&status=eq.FAILED', undefined, { prefer: 'count=exact' });
    expect(history.json()).toEqual([{ name: 'SyncChecks', status: 'FAILED', agent: { name: 'edge' } }]);
    expect(history.headers['content-range']).toBe('0-0/1');
    const view = await call('GET', 'job_histories?select=name,agent,duration_millis&order=time_start.desc.nullslast&limit=1');
    expect(view.json()).toEqual([{ name: 'Cleanup', agent: { id: '00000000-0000-0000-0000-000000000000', name: 'local' }, duration_millis: null }]);
    const agentJobs = await call('GET', 'agents?select=name,job_history(status)&name=eq.edge');
    expect(agentJobs.json()).toEqual([{ name: 'edge', job_history: [{ status: 'FAILED' }] }]);
    expect((await call('GET', 'job_history_names?order=name')).json()).toEqual([{ name: 'Cleanup' }, { name: 'SyncChecks' }]);
    const summary = await call('GET', 'event_queue_summary?select=name,pending,retrying,failed,most_common_error');
    expect(summary.json()).toEqual([{ name: 'check.failed', pending: 1, retrying: 1, failed: 0, most_common_error: 'timeout' }]);
    expect((await call('POST', 'job_history', { name: 'x' })).status).toBe(405);
  });

  it('answers an unfiltered count=exact from the trigger-kept count, exact through inserts and deletes', async () => {
    const total = async (url: string) => (await call('GET', url, undefined, { prefer: 'count=exact' })).headers['content-range'];
    const real = async () => (await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM job_history')).rows[0]?.n;
    expect(await total('job_history?select=id&limit=1')).toBe(`0-0/${await real()}`);
    await t.db.pool.query("INSERT INTO job_history (name, status) SELECT 'Bulk', 'SUCCESS' FROM generate_series(1, 25)");
    expect(await real()).toBe(28);
    expect(await total('job_history?select=id&limit=1')).toBe('0-0/28');
    expect(await total('job_histories?select=id&limit=2')).toBe('0-1/28');
    await t.db.pool.query("DELETE FROM job_history WHERE name = 'Bulk' AND ctid IN (SELECT ctid FROM job_history WHERE name = 'Bulk' LIMIT 20)");
    expect(await total('job_history?select=id&limit=1')).toBe('0-0/8');
    expect(await total('job_history?select=id&name=eq.Bulk')).toBe('0-4/5');
    await t.db.pool.query("DELETE FROM job_history WHERE name = 'Bulk'");
    expect(await total('job_history?select=id')).toBe('0-2/3');
  });

  it('embeds by foreign-key column (created_by(…), person_id(…))', async () => {
    const res = await call('GET', 'agents?select=name,person_id(name),created_by(name)&name=eq.edge');
    expect(res.json()).toEqual([{ name: 'edge', person_id: { name: 'Pat' }, created_by: null }]);
  });

  it('lists the RBAC objects a request needs: the relation, then read on every embed', async () => {
    const schema = await introspect(t.db.pool, createRegistry(relations, functions));
    const select = parseSelect('name,agent:agents(name,owner:person_id(name),job_history(id))');
    expect(accessNeeds(schema, { object: 'database', action: 'read' }, 'job_history', select)).toEqual([
      { object: 'database', action: 'read' },
      { object: 'agents', action: 'read' },
    ]);
    expect(accessNeeds(schema, { object: 'feature_flags', action: 'update' }, 'properties', parseSelect('name'))).toEqual([{ object: 'feature_flags', action: 'update' }]);
    expect(accessNeeds(schema, { object: 'agents', action: 'read' }, 'agents', parseSelect('name,people!agents_person_id_fkey(name)'))).toEqual([
      { object: 'agents', action: 'read' },
      { object: 'database', action: 'read' },
    ]);
  });

  it('does not serve tables outside the registry', async () => {
    for (const name of ['event_queue', 'schema_migrations', 'sessions', 'identity_credentials', 'access_tokens']) {
      const res = await call('GET', name);
      expect(res.status).toBe(404);
      expect(res.json()).toMatchObject({ code: 'PGRST205' });
    }
  });

  it('is described in /api/openapi.json', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const doc = z.object({ paths: z.record(z.string(), z.record(z.string(), z.unknown())) }).parse(res.json());
    const served = Object.keys(doc.paths).filter((path) => path.startsWith('/api/db/'));
    expect(served).toEqual(expect.arrayContaining(['agents', 'event_queue_summary', 'job_histories', 'job_history', 'job_history_names', 'people', 'properties'].map((name) => `/api/db/${name}`)));
    expect(served).not.toContain('/api/db/sessions');
    expect(Object.keys(doc.paths['/api/db/properties'] ?? {}).sort()).toEqual(['delete', 'get', 'patch', 'post']);
    expect(Object.keys(doc.paths['/api/db/agents'] ?? {})).toEqual(['get']);
    // The people schema lists only the readable columns.
    expect(JSON.stringify(doc.paths['/api/db/people'])).not.toContain('last_login');
  });
});
