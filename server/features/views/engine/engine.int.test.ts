import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { onViewSaved } from './index';

let t: TestApp;
let server: http.Server;
let peer = '';

async function createView(name: string, spec: Record<string, unknown>, namespace = 'default'): Promise<string> {
  const { rows } = await t.db.pool.query<{ id: string }>('INSERT INTO views (name, namespace, spec) VALUES ($1, $2, $3) RETURNING id', [name, namespace, JSON.stringify(spec)]);
  return rows[0]!.id;
}

async function post(id: string, body: Record<string, unknown> = {}, headers = t.adminHeaders) {
  const response = await t.app.inject({ method: 'POST', url: `/api/view/${id}`, headers, payload: body });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- panels are read by name and index in the assertions
  return { status: response.statusCode, json: response.json() as Record<string, any> };
}

beforeAll(async () => {
  t = await createTestApp();
  const pool = t.db.pool;
  for (const [name, ns, health, cpu] of [['api', 'prod', 'healthy', 100], ['web', 'prod', 'warning', 250], ['db', 'data', 'unhealthy', 900]] as const) {
    await pool.query("INSERT INTO config_items (type, name, namespace, health, status, tags, config) VALUES ('Kubernetes::Pod', $1, $2, $3, 'Running', $4, $5)", [name, ns, health, JSON.stringify({ namespace: ns, cluster: 'c1' }), JSON.stringify({ cpu })]);
  }
  await pool.query("INSERT INTO config_items (type, name, namespace, tags) VALUES ('Kubernetes::Namespace', 'prod', 'prod', '{}'), ('Kubernetes::Namespace', 'data', 'data', '{}')");
  server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/api/v1/query')) {
      res.end(JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [{ metric: { pod: 'api' }, value: [1, '12.5'] }, { metric: { pod: 'db' }, value: [1, '40'] }] } }));
    } else res.end(JSON.stringify({ recipes: [{ id: 1, name: 'Soup', rating: 4.5 }, { id: 2, name: 'Bread', rating: 3 }, { id: 3, name: 'Cake', rating: 5 }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  server?.close();
  await t?.close();
});

const podsSpec = {
  display: { title: 'Pods', table: { sort: 'name' } },
  columns: [
    { name: 'name', type: 'string', primaryKey: true },
    { name: 'namespace', type: 'string' },
    { name: 'health', type: 'health' },
    { name: 'cpu', type: 'number' },
    { name: 'kind', type: 'string' },
    { name: 'created', type: 'datetime' },
  ],
  queries: { pods: { configs: { types: ['Kubernetes::Pod'] } } },
  mapping: { namespace: 'row.tags.namespace', cpu: 'row.config.cpu', kind: 'row.type.replace("Kubernetes::", "")', created: 'row.created_at' },
  panels: [
    { name: 'By health', type: 'piechart', query: 'SELECT health, COUNT(*) AS count FROM pods GROUP BY health ORDER BY health' },
    { name: 'Sneaky', type: 'table', query: 'SELECT * FROM config_items' },
    { name: 'People', type: 'table', query: 'SELECT * FROM public.people' },
    { name: 'Delete', type: 'table', query: 'DELETE FROM pods' },
    { name: 'Insert', type: 'table', query: "INSERT INTO pods (name) VALUES ('x')" },
    { name: 'Escalate', type: 'table', query: "SELECT set_config('role', 'none', true)" },
    { name: 'Chained', type: 'number', query: 'SELECT 1 AS value) q; COMMIT; SELECT (1' },
    { name: 'Count', type: 'number', query: 'SELECT COUNT(*) AS value FROM pods' },
  ],
};

describe('views engine', () => {
  let podsId = '';

  it('materialises a configs view with mapping CEL into its table, panels sandboxed', async () => {
    podsId = await createView('pods', podsSpec);
    const { status, json } = await post(podsId);
    expect(status).toBe(200);
    expect(json.error).toBeUndefined();
    expect(json.table).toBe('view_default_pods');
    expect(json.totalRows).toBe(3);
    expect(json.rows.map((row: { name: string }) => row.name)).toEqual(['api', 'db', 'web']);
    expect(json.rows[0]).toMatchObject({ name: 'api', namespace: 'prod', health: 'healthy', cpu: 100, kind: 'Pod' });
    expect(typeof json.rows[0].created).toBe('string');
    expect(json.requestFingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(json.stale).toBe(false);
    const panels = Object.fromEntries(json.panels.map((panel: { name: string }) => [panel.name, panel]));
    expect(panels['By health'].rows).toEqual([{ health: 'healthy', count: '1' }, { health: 'unhealthy', count: '1' }, { health: 'warning', count: '1' }].map((row) => ({ ...row, count: expect.anything() })));
    expect(panels['By health'].type).toBe('piechart');
    expect(panels['By health'].query).toBeUndefined();
    expect(panels.Sneaky.error).toMatch(/permission denied for table config_items: view SQL reads only/);
    expect(panels.People.error).toMatch(/permission denied for table people/);
    expect(panels.Delete.error).toMatch(/must be a query \(SELECT …\): DELETE is not allowed/);
    expect(panels.Insert.error).toMatch(/INSERT is not allowed/);
    expect(panels.Escalate.error).toMatch(/set_config is not allowed in view SQL/);
    expect(panels.Chained.error).toBeDefined();
    expect(Number(panels.Count.rows[0].value)).toBe(3);
    expect(panels.Count.error).toBeUndefined();
    // The real tables are untouched.
    expect((await t.db.pool.query("SELECT count(*)::int AS n FROM config_items WHERE type = 'Kubernetes::Pod'")).rows[0].n).toBe(3);
  });

  it("answers the table's default order (display.table.sort) and reads its first page in it", async () => {
    const id = await createView('pods-by-cpu', { ...podsSpec, panels: [], display: { table: { sort: '-cpu' } } });
    const { json } = await post(id);
    expect(json.sort).toEqual({ column: 'cpu', desc: true });
    expect(json.rows.map((row: { name: string }) => row.name)).toEqual(['db', 'web', 'api']);
    const plain = await createView('pods-unsorted', { ...podsSpec, panels: [], display: { table: { sort: 'nope' } } });
    expect((await post(plain)).json.sort).toBeNull();
  });

  it('answers from the table while fresh; refresh is honoured only past minAge; stale rows refresh', async () => {
    const first = await post(podsId);
    const again = await post(podsId, { refresh: true });
    expect(again.json.refreshedAt).toBe(first.json.refreshedAt);
    await t.db.pool.query("INSERT INTO config_items (type, name, namespace, tags) VALUES ('Kubernetes::Pod', 'cache', 'prod', '{\"namespace\":\"prod\"}')");
    expect((await post(podsId)).json.totalRows).toBe(3);
    await t.db.pool.query("UPDATE view_refreshes SET refreshed_at = now() - interval '1 hour', attempted_at = now() - interval '1 hour' WHERE view_id = $1", [podsId]);
    const fresh = await post(podsId);
    expect(fresh.json.totalRows).toBe(4);
    expect(fresh.json.ageSeconds).toBeLessThan(5);
    const summary = await t.db.pool.query('SELECT last_ran FROM views_summary WHERE id = $1', [podsId]);
    expect(summary.rows[0].last_ran).not.toBeNull();
  });

  it('serves the table through /api/db with filter, order, paging and count, for views readers only', async () => {
    const { json } = await post(podsId);
    const url = `/api/db/view_default_pods?select=name,cpu,namespace&request_fingerprint=eq.${json.requestFingerprint}&namespace=eq.prod&order=name.desc&limit=2&offset=0`;
    const response = await t.app.inject({ method: 'GET', url, headers: { ...t.adminHeaders, prefer: 'count=exact' } });
    expect(response.statusCode).toBe(206);
    expect(response.json()).toEqual([{ name: 'web', cpu: 250, namespace: 'prod' }, { name: 'cache', cpu: null, namespace: 'prod' }]);
    expect(response.headers['content-range']).toBe('0-1/3');
    const nobody = await t.userWith([]);
    const denied = await t.app.inject({ method: 'GET', url, headers: nobody.headers });
    expect(denied.statusCode).toBe(403);
    const viewer = await t.userWith(['viewer']);
    expect((await t.app.inject({ method: 'GET', url, headers: viewer.headers })).statusCode).toBe(200);
    expect((await post(podsId, {}, nobody.headers)).status).toBe(403);
    const missing = await t.app.inject({ method: 'GET', url: '/api/db/view_default_nothing', headers: t.adminHeaders });
    expect(missing.statusCode).toBe(404);
  });

  it('merges two queries (configs and sql through a url, prometheus) with merge SQL', async () => {
    const id = await createView('merged', {
      columns: [
        { name: 'name', type: 'string', primaryKey: true },
        { name: 'namespace', type: 'string' },
        { name: 'owner', type: 'string' },
        { name: 'usage', type: 'number' },
      ],
      queries: {
        pod: { configs: { types: ['Kubernetes::Pod'], tagSelector: 'cluster=c1' } },
        owners: { sql: { url: t.db.url, query: "SELECT 'api' AS pod, 'team-a' AS owner UNION ALL SELECT 'db', 'team-b'" } },
        metrics: { prometheus: { url: peer, query: 'sum by (pod) (x)' } },
      },
      merge: "SELECT pod.name, json_extract(pod.tags, '$.namespace') AS namespace, owners.owner, metrics.value AS usage FROM pod LEFT JOIN owners ON owners.pod = pod.name LEFT JOIN metrics ON metrics.pod = pod.name",
    });
    const { status, json } = await post(id);
    expect(status).toBe(200);
    expect(json.error).toBeUndefined();
    expect(json.rows).toEqual([
      { name: 'api', namespace: 'prod', owner: 'team-a', usage: 12.5 },
      { name: 'db', namespace: 'data', owner: 'team-b', usage: 40 },
      { name: 'web', namespace: 'prod', owner: null, usage: null },
    ]);
  });

  it('reads an http query (jsonpath) and resolves variables into queries; each selection has its fingerprint', async () => {
    const recipes = await createView('recipes', {
      columns: [{ name: 'id', type: 'number', primaryKey: true }, { name: 'name', type: 'string' }, { name: 'rating', type: 'number' }],
      queries: { recipes: { http: { url: `${peer}/recipes`, jsonpath: '$.recipes[:2]' } } },
    });
    expect((await post(recipes)).json.rows).toEqual([{ id: 1, name: 'Soup', rating: 4.5 }, { id: 2, name: 'Bread', rating: 3 }]);

    const id = await createView('by-namespace', {
      templating: [
        { key: 'namespace', label: 'Namespace', valueFrom: { config: { types: ['Kubernetes::Namespace'] } } },
        { key: 'health', label: 'Health', values: ['healthy', 'warning', 'unhealthy'], dependsOn: ['namespace'] },
      ],
      columns: [{ name: 'name', type: 'string', primaryKey: true }],
      queries: { items: { configs: { types: ['Kubernetes::Pod'], tagSelector: 'namespace=$(var.namespace)' } } },
    });
    const first = await post(id);
    expect(first.json.variables).toEqual([
      { key: 'namespace', label: 'Namespace', values: ['data', 'prod'], options: [{ label: 'data', value: 'data' }, { label: 'prod', value: 'prod' }], selected: 'data' },
      { key: 'health', label: 'Health', values: ['healthy', 'warning', 'unhealthy'], options: expect.any(Array), dependsOn: ['namespace'], selected: 'healthy' },
    ]);
    expect(first.json.rows).toEqual([{ name: 'db' }]);
    const prod = await post(id, { variables: { namespace: 'prod' } });
    expect(prod.json.rows.map((row: { name: string }) => row.name)).toEqual(['api', 'cache', 'web']);
    expect(prod.json.requestFingerprint).not.toBe(first.json.requestFingerprint);
    const count = await t.app.inject({ method: 'GET', url: '/api/db/view_default_by_namespace?select=name', headers: { ...t.adminHeaders, prefer: 'count=exact' } });
    expect(count.headers['content-range']).toBe('0-3/4');
    const bad = await post(id, { variables: { namespace: "x' OR 1=1" } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain('variables.namespace');
  });

  it('a failing query answers 200 with the error, keeping the last good rows; by-name, list and saving', async () => {
    const id = await createView('broken', {
      columns: [{ name: 'name', type: 'string', primaryKey: true }],
      queries: { rows: { sql: { url: 'postgres://postgres@127.0.0.1:1/none', query: 'SELECT 1' } } },
      display: { plugins: [{ configTab: { types: ['Kubernetes::Pod'] }, variables: { pod: '$(.config.name)', team: '$(.config.labels.team)' } }] },
    });
    const { status, json } = await post(id);
    expect(status).toBe(200);
    expect(json.error).toMatch(/^queries\.rows\.sql: /);
    expect(json.rows).toEqual([]);
    expect(JSON.stringify(json)).not.toMatch(/stack|at \//);
    const byName = await t.app.inject({ method: 'GET', url: '/api/view/by-name/default/broken', headers: t.adminHeaders });
    expect(byName.json()).toEqual({ id });
    expect((await t.app.inject({ method: 'GET', url: '/api/view/by-name/pods', headers: t.adminHeaders })).json()).toEqual({ id: podsId });
    expect((await t.app.inject({ method: 'GET', url: '/api/view/by-name/x/none', headers: t.adminHeaders })).statusCode).toBe(404);
    expect((await post('6f1c9a52-4a0e-4c4b-9d2a-3f0e8b7c1d22')).status).toBe(404);
    const pod = (await t.db.pool.query("SELECT id FROM config_items WHERE name = 'api'")).rows[0].id;
    const ns = (await t.db.pool.query("SELECT id FROM config_items WHERE type = 'Kubernetes::Namespace' LIMIT 1")).rows[0].id;
    const list = await t.app.inject({ method: 'GET', url: `/api/view/list?config_id=${pod}`, headers: t.adminHeaders });
    expect(list.json()).toEqual([{ id, name: 'broken', namespace: 'default', title: 'broken', icon: null, variables: { pod: 'api' } }]);
    expect((await t.app.inject({ method: 'GET', url: `/api/view/list?config_id=${ns}`, headers: t.adminHeaders })).json()).toEqual([]);

    // Columns change: the table is re-created; deletion drops it.
    const client = await t.db.pool.connect();
    try {
      await client.query("UPDATE views SET spec = jsonb_set(spec, '{columns}', '[{\"name\":\"name\",\"type\":\"string\",\"primaryKey\":true},{\"name\":\"extra\",\"type\":\"boolean\"}]') WHERE id = $1", [podsId]);
      await onViewSaved(client, podsId);
      const columns = await client.query("SELECT column_name FROM information_schema.columns WHERE table_name = 'view_default_pods' ORDER BY ordinal_position");
      expect(columns.rows.map((row) => row.column_name)).toEqual(['name', 'extra', 'request_fingerprint', 'agent_id', 'organization_id']);
      await client.query('UPDATE views SET deleted_at = now() WHERE id = $1', [podsId]);
      await onViewSaved(client, podsId);
      expect((await client.query("SELECT to_regclass('public.view_default_pods') AS t")).rows[0].t).toBeNull();
    } finally {
      client.release();
    }
  });
});
