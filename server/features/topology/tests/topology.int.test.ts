import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TopologyComponent, TopologyResponse, TopologyRunResult } from '../../../../common/topology';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { topologyKind } from '../kind';
import type { ResourceKind } from '../../../platform/resources';

/** Topologies from the API and from files: lookups against real peers, selectors, RBAC and bad input. */
let t: TestApp;
let server: http.Server;
let apiUrl = '';
const log = createLogger('silent');

beforeAll(async () => {
  t = await createTestApp();
  // A JSON API the http lookup reads: two services, one of them down.
  server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ services: [{ name: 'billing', status: 'up', latency_ms: 12 }, { name: 'search', status: 'down', latency_ms: 950 }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/services`;
  // Catalog items the config lookups and selectors find.
  await t.db.pool.query(
    `INSERT INTO config_items (external_id, type, name, namespace, health, status, labels, tags, config) VALUES
       ('{db-1}', 'Database', 'orders-db', 'prod', 'healthy', 'Available', '{"app": "orders"}', '{"env": "prod"}', '{"engine": "postgres", "size_gb": 120}'),
       ('{db-2}', 'Database', 'users-db', 'prod', 'unhealthy', 'Failing over', '{"app": "users"}', '{"env": "prod"}', '{"engine": "mysql", "size_gb": 40}'),
       ('{db-3}', 'Database', 'scratch-db', 'dev', 'healthy', 'Available', '{}', '{"env": "dev"}', '{"engine": "postgres", "size_gb": 1}')`,
  );
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

const create = (body: Record<string, unknown>, headers = t.adminHeaders) => t.app.inject({ method: 'POST', url: '/api/canary/topologies', headers, payload: body });
const run = async (id: string) => {
  const response = await t.app.inject({ method: 'POST', url: `/api/canary/run/topology/${id}`, headers: t.adminHeaders });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TopologyRunResult>();
};
const tree = async (query: string) => {
  const response = await t.app.inject({ method: 'GET', url: `/api/canary/api/topology${query}`, headers: t.adminHeaders });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TopologyResponse>();
};
const find = (items: TopologyComponent[] | undefined, name: string) => items?.find((item) => item.name === name);

describe('topology lookups', () => {
  let id = '';

  it('creates a topology that looks components up from a SQL query, a JSON API and the catalog', async () => {
    const response = await create({
      name: 'data-platform',
      labels: { team: 'data' },
      spec: {
        schedule: '@never',
        type: 'Platform',
        components: [
          {
            name: 'Databases',
            type: 'DatabaseGroup',
            lookup: { configs: [{ type: 'Database', tags: { env: 'prod' } }] },
            forEach: { properties: [{ name: 'size', unit: 'GB', configLookup: { config: { type: 'Database', name: '{{.component.name}}' }, field: '$.size_gb' }, warning: 100, critical: 500 }] },
          },
          {
            name: 'Schemas',
            type: 'SchemaGroup',
            lookup: {
              sql: [{ connection: t.db.url, query: "SELECT nspname AS name, 'Schema' AS type, 'healthy' AS health, 3 AS tables FROM pg_namespace WHERE nspname IN ('public', 'pg_catalog') ORDER BY 1" }],
            },
          },
          {
            name: 'Services',
            type: 'ServiceGroup',
            lookup: {
              http: [{ url: apiUrl }],
              display: { expr: "results[0].services.map(s, {'name': s.name, 'type': 'API', 'health': s.status == 'up' ? 'healthy' : 'unhealthy', 'status': s.status, 'properties': [{'name': 'latency', 'value': s.latency_ms, 'unit': 'ms'}]})" },
            },
          },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    id = response.json<{ id: string }>().id;

    const result = await run(id);
    expect(result.errors).toEqual([]);
    expect(result.components.map((component) => component.name).sort()).toEqual(
      ['Databases', 'Schemas', 'Services', 'billing', 'data-platform', 'orders-db', 'pg_catalog', 'public', 'search', 'users-db'].sort(),
    );
  });

  it('shows each looked-up component with its health, properties and reason', async () => {
    const root = (await tree('?depth=2')).components.find((component) => component.name === 'data-platform');
    expect(root?.labels).toEqual({ team: 'data' });
    // Spec §3: the agent of a component built here is this instance (the nil uuid, 'local').
    expect(root).toMatchObject({ agent_id: '00000000-0000-0000-0000-000000000000', agent_name: 'local' });
    const databases = find(root?.components, 'Databases');
    expect(databases?.status_reason).toBe('unhealthy: 1 of 2 databases unhealthy');
    const users = find(databases?.components, 'users-db');
    expect(users).toMatchObject({ health: 'unhealthy', status: 'Failing over', status_reason: 'unhealthy: Failing over' });
    expect(users?.configs.map((config) => config.name)).toEqual(['users-db']);
    expect(find(databases?.components, 'orders-db')?.properties).toEqual([{ name: 'size', value: 120, unit: 'GB', type: 'number', color: 'orange' }]);
    expect(find(databases?.components, 'scratch-db')).toBeUndefined();

    const schemas = find(root?.components, 'Schemas');
    expect(schemas?.components?.map((schema) => [schema.name, schema.type, schema.health, schema.properties])).toEqual([
      ['pg_catalog', 'Schema', 'healthy', [{ name: 'tables', value: 3, type: 'number' }]],
      ['public', 'Schema', 'healthy', [{ name: 'tables', value: 3, type: 'number' }]],
    ]);
    const services = find(root?.components, 'Services');
    expect(services?.components?.map((service) => [service.name, service.health, service.properties[0]?.value])).toEqual([
      ['search', 'unhealthy', 950],
      ['billing', 'healthy', 12],
    ]);
  });

  it('follows the catalog live: a config that recovers turns its component healthy before the next run', async () => {
    await t.db.pool.query("UPDATE config_items SET health = 'healthy', status = 'Available' WHERE name = 'users-db'");
    const databases = find((await tree('?depth=2')).components.find((component) => component.name === 'data-platform')?.components, 'Databases');
    expect(databases?.health).toBe('healthy');
    expect(find(databases?.components, 'users-db')?.health).toBe('healthy');
  });

  it('publishes component.<health> for new components that are not healthy and on a change of stored health, never on a rerun without change', async () => {
    type Event = { event_id: string; name: string; component: string; previous: unknown; namespace: string; topology_id: string };
    const events = async () =>
      (
        await t.db.pool.query<Event>(
          `SELECT DISTINCT event_id, name, properties->>'name' AS component, properties->'previous' AS previous, properties->>'namespace' AS namespace,
             properties->>'topology_id' AS topology_id, created_at
           FROM event_queue WHERE name LIKE 'component.%' AND properties->>'topology_id' = $1 ORDER BY created_at, name, component`,
          [id],
        )
      ).rows;
    const first = await events();
    // The first run: users-db (its config unhealthy), search (down), and the groups they made unhealthy.
    expect(first.map((event) => [event.name, event.component, event.previous])).toEqual(
      expect.arrayContaining([
        ['component.unhealthy', 'users-db', { health: null, status: null }],
        ['component.unhealthy', 'search', { health: null, status: null }],
        ['component.unhealthy', 'Databases', { health: null, status: null }],
      ]),
    );
    expect(first.every((event) => event.namespace === 'default' && event.topology_id === id)).toBe(true);
    expect(first.find((event) => event.component === 'billing')).toBeUndefined();
    const ids = await t.db.pool.query<{ id: string; name: string }>("SELECT id, name FROM components WHERE topology_id = $1 AND name = 'users-db'", [id]);

    // users-db recovered in the catalog (the test above): the next run stores and announces it.
    await run(id);
    const second = (await events()).filter((event) => !first.some((seen) => seen.event_id === event.event_id));
    expect(second.map((event) => [event.name, event.component, event.previous])).toEqual(
      expect.arrayContaining([
        ['component.healthy', 'users-db', expect.objectContaining({ health: 'unhealthy' })],
        ['component.healthy', 'Databases', expect.objectContaining({ health: 'unhealthy' })],
      ]),
    );
    expect(second.find((event) => event.component === 'search')).toBeUndefined();
    const usersEvent = await t.db.pool.query("SELECT DISTINCT properties->>'id' AS id FROM event_queue WHERE name = 'component.healthy' AND properties->>'name' = 'users-db'");
    expect(usersEvent.rows).toEqual([{ id: ids.rows[0]?.id }]);

    await run(id);
    expect((await events()).length).toBe(first.length + second.length);
  });

  it('records a failing lookup as an error of the run and still builds the rest', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/canary/topologies/${id}`,
      headers: t.adminHeaders,
      payload: {
        name: 'data-platform',
        labels: { team: 'data' },
        spec: { schedule: '@never', components: [{ name: 'Broken', lookup: { http: [{ url: 'http://127.0.0.1:9/nothing' }] } }, { name: 'Still here' }] },
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = await run(id);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(/^spec\.components\[0\]\.lookup\.http\[0\]: /);
    expect(result.deleted).toBeGreaterThan(5);
    const root = (await tree('?depth=1')).components.find((component) => component.name === 'data-platform');
    expect(root?.components?.map((component) => component.name).sort()).toEqual(['Broken', 'Still here']);
    const history = await t.db.pool.query<{ status: string; error_count: number }>("SELECT status, error_count FROM job_history WHERE resource_id = $1 ORDER BY created_at DESC LIMIT 1", [id]);
    expect(history.rows[0]).toMatchObject({ status: 'WARNING', error_count: 1 });
  });
});

describe('saving topologies', () => {
  it('refuses a bad spec with every problem by path and writes nothing', async () => {
    const response = await create({
      name: 'bad',
      spec: { schedule: '@every 5s', components: [{ type: 'Service' }, { name: 'x', health: 'great', properties: [{ text: 'no name or label' }], lookup: { ftp: [] } }] },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ details: Array<{ path: string; message: string }> }>();
    expect(body.details.map((issue) => issue.path).sort()).toEqual(
      ['spec.components[0].name', 'spec.components[1].health', 'spec.components[1].lookup.ftp', 'spec.components[1].properties[0].name', 'spec.schedule'].sort(),
    );
    expect((await t.db.pool.query("SELECT 1 FROM topologies WHERE name = 'bad'")).rowCount).toBe(0);
  });

  it('refuses a CEL field that does not compile, naming its path and position', async () => {
    const response = await create({ name: 'bad-cel', spec: { components: [{ name: 'api', properties: [{ name: 'p', expr: 'size(' }], statusExpr: 'nosuch()' }] } });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ details: Array<{ path: string; message: string }> }>();
    expect(body.details.map((issue) => issue.path).sort()).toEqual(['spec.components[0].properties[0].expr', 'spec.components[0].statusExpr']);
    expect(body.details.find((issue) => issue.path.endsWith('properties[0].expr'))?.message).toMatch(/^"size\(" at 1:\d+: /);
    expect((await t.db.pool.query("SELECT 1 FROM topologies WHERE name = 'bad-cel'")).rowCount).toBe(0);
  });

  it('answers a duplicate name with 409 and keeps name and namespace once created', async () => {
    const first = await create({ name: 'unique', spec: { schedule: '@never', components: [{ name: 'a' }] } });
    expect(first.statusCode).toBe(201);
    const again = await create({ name: 'unique', spec: { components: [{ name: 'a' }] } });
    expect(again.statusCode).toBe(409);
    const renamed = await t.app.inject({ method: 'PUT', url: `/api/canary/topologies/${first.json<{ id: string }>().id}`, headers: t.adminHeaders, payload: { name: 'other', spec: { components: [{ name: 'a' }] } } });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.body).toMatch(/cannot be changed once the topology exists/);
  });

  it('lets a viewer read the dashboard but not create, run or delete', async () => {
    const viewer = await t.userWith(['viewer']);
    expect((await t.app.inject({ method: 'GET', url: '/api/canary/api/topology', headers: viewer.headers })).statusCode).toBe(200);
    expect((await create({ name: 'nope', spec: { components: [{ name: 'a' }] } }, viewer.headers)).statusCode).toBe(403);
    const { rows } = await t.db.pool.query<{ id: string }>("SELECT id FROM topologies WHERE name = 'unique'");
    expect((await t.app.inject({ method: 'POST', url: `/api/canary/run/topology/${rows[0]?.id ?? ''}`, headers: viewer.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/canary/topologies/${rows[0]?.id ?? ''}`, headers: viewer.headers })).statusCode).toBe(403);
  });

  it('runs a new topology twice at once (the API beside the scheduler) with both runs answering and one row per component', async () => {
    const response = await create({ name: 'twice-at-once', spec: { type: 'System', components: [{ name: 'twin-a', type: 'Service' }, { name: 'twin-b', type: 'Service' }] } });
    expect(response.statusCode, response.body).toBe(201);
    const { id } = response.json<{ id: string }>();
    const [first, second] = await Promise.all([run(id), run(id)]);
    expect([first.errors ?? [], second.errors ?? []]).toEqual([[], []]);
    const { rows } = await t.db.pool.query<{ name: string }>('SELECT name FROM components WHERE topology_id = $1 AND deleted_at IS NULL ORDER BY name', [id]);
    expect(rows.map((row) => row.name)).toEqual(['twice-at-once', 'twin-a', 'twin-b']);
  });

  it('deletes a topology with its components', async () => {
    const { rows } = await t.db.pool.query<{ id: string }>("SELECT id FROM topologies WHERE name = 'unique'");
    const topologyId = rows[0]?.id ?? '';
    await run(topologyId);
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/canary/topologies/${topologyId}`, headers: t.adminHeaders });
    expect(deleted.statusCode).toBe(200);
    expect((await t.db.pool.query('SELECT 1 FROM components WHERE topology_id = $1 AND deleted_at IS NULL', [topologyId])).rowCount).toBe(0);
    expect((await tree('')).components.map((component) => component.name)).not.toContain('unique');
  });

  it('applies a canary-checker Topology file, with unsupported fields as warnings', async () => {
    const text = `apiVersion: canaries.flanksource.com/v1
kind: Topology
metadata: {name: from-file, namespace: ops}
spec:
  schedule: "@never"
  components:
    - name: api
      order: 2
      checks:
        - inline: {http: [{url: "http://example.com"}]}
`;
    const [result] = await applyDocuments(t.db.pool, [topologyKind as ResourceKind], [{ file: 'topology.yaml', text }], 'ConfigFile', log);
    expect(result?.ok).toBe(true);
    expect(result?.outcome?.warnings).toEqual([
      'spec.components[0].order: components are ordered by health, then name',
      'spec.components[0].checks[0].inline: inline canaries are not supported; define the canary on its own and select it',
    ]);
    const [bad] = await applyDocuments(t.db.pool, [topologyKind as ResourceKind], [{ file: 'bad.yaml', text: 'apiVersion: canaries.flanksource.com/v1\nkind: Topology\nmetadata: {name: x}\nspec: {components: [{}]}\n' }], 'ConfigFile', log);
    expect(bad?.errors).toEqual(['spec.components[0].name: is required (or a lookup that finds the components)']);
  });
});
