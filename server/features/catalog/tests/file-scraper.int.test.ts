import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { subscribeConsumer } from '../../../platform/jobs/event-queue';

/** The file scraper end to end through the API: create, Run Now, edit a file, run again, delete. */
let t: TestApp;
let root = '';

const cars = (colour: string) => [
  { reg_no: 'A123', name: 'Polo', colour, owner: { name: 'Ann', password: 'secret-1' }, status: 'parked', ok: true },
  { reg_no: 'B456', name: 'Golf', colour: 'red', owner: { name: 'Bob', password: 'secret-2' }, status: 'driving', ok: false },
];

const manifests = `
apiVersion: v1
kind: Namespace
metadata: {name: shop}
status: {phase: Active}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, uid: dep-1, labels: {app: web}}
spec: {replicas: 2}
status: {replicas: 2, readyReplicas: 1}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-7d9
  namespace: shop
  uid: rs-1
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: dep-1, controller: true}]
  managedFields: [{manager: kubectl}]
spec: {replicas: 2}
status: {replicas: 2, readyReplicas: 2}
---
apiVersion: v1
kind: Pod
metadata:
  name: web-7d9-abc
  namespace: shop
  uid: pod-1
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-7d9, uid: rs-1, controller: true}]
spec: {nodeName: node-1}
status:
  phase: Running
  conditions: [{type: Ready, status: "False"}]
  containerStatuses: [{name: web, state: {waiting: {reason: CrashLoopBackOff}}}]
---
apiVersion: v1
kind: Secret
metadata: {name: db, namespace: shop}
data: {password: c2VjcmV0}
`;

beforeAll(async () => {
  t = await createTestApp();
  root = await mkdtemp(path.join(os.tmpdir(), 'wk-scrape-'));
  await mkdir(path.join(root, 'k8s'));
  await writeFile(path.join(root, 'cars.json'), JSON.stringify(cars('blue')));
  await writeFile(path.join(root, 'k8s', 'shop.yaml'), manifests);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await t?.close();
});

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  const response = await t.app.inject({ method, url, headers: t.adminHeaders, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> & { errors?: unknown } };
}

const carSpec = () => ({
  schedule: '@every 1h',
  file: [
    {
      type: 'Car',
      id: '$.reg_no',
      name: '$.name',
      status: '$.status',
      health: { expr: "ok ? 'healthy' : 'unhealthy'" },
      tags: { colour: '$.colour' },
      transform: { mask: [{ jsonpath: '$.owner.password', value: '******' }] },
      paths: [path.join(root, 'cars.json')],
    },
  ],
});

describe('expressions at apply', () => {
  it('refuses a CEL field that does not compile, with its path and position, writing nothing', async () => {
    const spec = { file: [{ type: 'Car', id: '$.reg_no', name: '$.name', health: { expr: "ok ? 'healthy' :" }, transform: { expr: 'config.nosuch()' }, paths: [path.join(root, 'cars.json')] }] };
    const bad = await call('POST', '/api/catalog/scrapers', { name: 'bad-cel', spec });
    expect(bad.status).toBe(400);
    const text = JSON.stringify(bad.body);
    expect(text).toMatch(/spec\.file\[0\]\.health\.expr.*at 1:\d+/);
    expect(text).toContain('spec.file[0].transform.expr');
    expect((await t.db.pool.query("SELECT 1 FROM config_scrapers WHERE name = 'bad-cel'")).rows).toHaveLength(0);
  });
});

describe('an entry that needs a secret', () => {
  it('reads a secret at each run: a missing one fails that entry naming it (the rest still scrape, nothing is deleted)', async () => {
    const spec = {
      schedule: '@every 1h',
      file: [{ type: 'Car', id: '$.reg_no', name: '$.name', paths: [path.join(root, 'cars.json')] }],
      sql: [{ type: 'Row', id: '$.n', name: '$.n', connection: 'postgres://postgres@127.0.0.1:5432/postgres', password: { valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }, query: 'SELECT 1 AS n' }],
    };
    const created = await call('POST', '/api/catalog/scrapers', { name: 'needs-secret', spec });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain('valueFrom');
    const run = await call('POST', `/api/config/run/${String(created.body.id)}`);
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ created: 2, deleted: 0 });
    expect(run.body.errors).toEqual(['spec.sql[0].password: valueFrom.secretKeyRef (name "db", key "password"): secret "db" not found in namespace "default"']);
    const secret = await call('POST', '/api/secrets', { name: 'db', data: { password: 'anything' } });
    expect(secret.status).toBe(201);
    const again = await call('POST', `/api/config/run/${String(created.body.id)}`);
    expect(again.body).toMatchObject({ created: 1, errors: [] });
  });
});

describe('file scraper', () => {
  let id = '';

  it('refuses a bad spec with every problem by path, writing nothing', async () => {
    const bad = await call('POST', '/api/catalog/scrapers', { name: 'bad', spec: { schedule: '@every 5s', file: [{ type: 'Car', paths: [], bogus: 1 }], nope: [] } });
    expect(bad.status).toBe(400);
    const text = JSON.stringify(bad.body);
    expect(text).toContain('spec.schedule');
    expect(text).toContain('30s');
    expect(text).toContain('spec.file[0]');
    expect(text).toContain('bogus');
    expect(text).toContain('spec.nope');
    const { rows } = await t.db.pool.query("SELECT 1 FROM config_scrapers WHERE name = 'bad'");
    expect(rows).toHaveLength(0);
  });

  it('creates a scraper, runs it now, and maps ids, names, status, health (CEL), tags and masks', async () => {
    const created = await call('POST', '/api/catalog/scrapers', { name: 'cars', namespace: 'garage', spec: carSpec() });
    expect(created.status).toBe(201);
    id = String(created.body.id);
    const run = await call('POST', `/api/config/run/${id}`);
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ created: 2, updated: 0, unchanged: 0, deleted: 0, changes: 0, errors: [], status: 'SUCCESS' });
    const { rows } = await t.db.pool.query(
      'SELECT name, type, external_id, status, health, tags, config FROM config_items WHERE scraper_id = $1 ORDER BY name',
      [id],
    );
    expect(rows).toMatchObject([
      { name: 'Golf', type: 'Car', external_id: ['B456'], status: 'driving', health: 'unhealthy', tags: { colour: 'red' } },
      { name: 'Polo', type: 'Car', external_id: ['A123'], status: 'parked', health: 'healthy', tags: { colour: 'blue' } },
    ]);
    expect(JSON.stringify(rows)).not.toContain('secret-1');
    const history = await t.db.pool.query("SELECT status, resource_type, details FROM job_history WHERE resource_id = $1", [id]);
    expect(history.rows).toMatchObject([{ status: 'SUCCESS', resource_type: 'config_scraper' }]);
  });

  it('records exactly the change of an edited file, with a diff, a merge patch and the changed path', async () => {
    const again = await call('POST', `/api/config/run/${id}`);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 2, changes: 0 });
    await writeFile(path.join(root, 'cars.json'), JSON.stringify(cars('green')));
    const changed = await call('POST', `/api/config/run/${id}`);
    expect(changed.body).toMatchObject({ created: 0, updated: 1, unchanged: 1, changes: 1 });
    const { rows } = await t.db.pool.query('SELECT c.change_type, c.config_type, c.patches, c.diff, c.summary, c.count, c.source FROM config_changes c JOIN config_items i ON i.id = c.config_id WHERE i.scraper_id = $1', [id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ change_type: 'diff', config_type: 'Car', patches: { colour: 'green' }, summary: 'colour', count: 1, source: 'garage/cars' });
    expect(rows[0].diff).toContain('-colour: blue');
    expect(rows[0].diff).toContain('+colour: green');
  });

  it('counts an identical change within the hour instead of repeating it', async () => {
    await writeFile(path.join(root, 'cars.json'), JSON.stringify(cars('blue')));
    await call('POST', `/api/config/run/${id}`);
    await writeFile(path.join(root, 'cars.json'), JSON.stringify(cars('green')));
    await call('POST', `/api/config/run/${id}`);
    const { rows } = await t.db.pool.query("SELECT patches, count FROM config_changes c JOIN config_items i ON i.id = c.config_id WHERE i.scraper_id = $1 ORDER BY c.first_observed", [id]);
    expect(rows).toEqual([
      { patches: { colour: 'green' }, count: 2 },
      { patches: { colour: 'blue' }, count: 1 },
    ]);
  });

  it('deletes items that stay missing past the stale age, and brings them back when they return', async () => {
    await writeFile(path.join(root, 'cars.json'), JSON.stringify(cars('green').slice(0, 1)));
    await call('PUT', `/api/catalog/scrapers/${id}`, { name: 'cars', namespace: 'garage', spec: { ...carSpec(), retention: { staleItemAge: '1ms' } } });
    const run = await call('POST', `/api/config/run/${id}`);
    expect(run.body).toMatchObject({ deleted: 1 });
    const { rows } = await t.db.pool.query("SELECT delete_reason FROM config_items WHERE scraper_id = $1 AND name = 'Golf'", [id]);
    expect(rows).toEqual([{ delete_reason: 'STALE' }]);
    await writeFile(path.join(root, 'cars.json'), JSON.stringify(cars('green')));
    const back = await call('POST', `/api/config/run/${id}`);
    expect(back.body).toMatchObject({ updated: 1, deleted: 0 });
    const after = await t.db.pool.query("SELECT deleted_at FROM config_items WHERE scraper_id = $1 AND name = 'Golf'", [id]);
    expect(after.rows).toEqual([{ deleted_at: null }]);
  });

  it('reports a missing file and a result without an id as errors of the run', async () => {
    const created = await call('POST', '/api/catalog/scrapers', {
      name: 'broken',
      spec: { file: [{ type: 'Car', id: '$.missing', paths: [path.join(root, 'cars.json'), path.join(root, 'nothing.json')] }] },
    });
    const run = await call('POST', `/api/config/run/${String(created.body.id)}`);
    expect(run.body.status).toBe('FAILED');
    const errors = JSON.stringify(run.body.errors);
    expect(errors).toContain('nothing.json: no such file');
    expect(errors).toContain('spec.file[0].id');
  });
});

describe('Kubernetes manifests', () => {
  it('makes Kubernetes::<Kind> items with namespace, labels, owner parents, health and masked secrets', async () => {
    const created = await call('POST', '/api/catalog/scrapers', { name: 'k8s', spec: { kubernetesFile: [{ paths: [path.join(root, 'k8s')] }] } });
    expect(created.status).toBe(201);
    const run = await call('POST', `/api/config/run/${String(created.body.id)}`);
    expect(run.body).toMatchObject({ created: 5, errors: [] });
    const { rows } = await t.db.pool.query<{ id: string; name: string; type: string; parent_id: string | null; path: string; health: string | null; status: string | null; namespace: string | null; config: Record<string, unknown> }>(
      'SELECT id, name, type, parent_id, path, health, status, namespace, config FROM config_items WHERE scraper_id = $1',
      [created.body.id],
    );
    const by = (type: string) => rows.find((row) => row.type === `Kubernetes::${type}`);
    const ns = by('Namespace');
    const deployment = by('Deployment');
    const replicaSet = by('ReplicaSet');
    const pod = by('Pod');
    expect(deployment).toMatchObject({ parent_id: ns?.id, namespace: 'shop', health: 'warning', status: '1/2 ready' });
    expect(replicaSet).toMatchObject({ parent_id: deployment?.id, health: 'healthy' });
    expect(pod).toMatchObject({ parent_id: replicaSet?.id, path: `${ns?.id}.${deployment?.id}.${replicaSet?.id}`, health: 'unhealthy', status: 'CrashLoopBackOff' });
    expect(JSON.stringify(replicaSet?.config)).not.toContain('managedFields');
    expect(by('Secret')?.config).toMatchObject({ data: { password: '******' } });

    const related = await t.db.pool.query('SELECT name, depth, direction FROM related_configs_recursive($1, $2, false, 5) ORDER BY depth, name', [deployment?.id, 'all']);
    expect(related.rows).toEqual([
      { name: 'shop', depth: 1, direction: 'incoming' },
      { name: 'web-7d9', depth: 1, direction: 'outgoing' },
      { name: 'web-7d9-abc', depth: 2, direction: 'outgoing' },
    ]);
    const parents = await t.db.pool.query('SELECT name FROM get_parents_by_location($1)', [pod?.id]);
    expect(parents.rows.map((row) => row.name)).toEqual(['shop', 'web', 'web-7d9']);
  });

  it('gives owner parents to Kubernetes objects of a file scraper that maps its own type ($.kind)', async () => {
    const created = await call('POST', '/api/catalog/scrapers', {
      name: 'k8s-typed',
      spec: { file: [{ type: '$.kind', id: '$.metadata.uid', name: '$.metadata.name', paths: [path.join(root, 'k8s', 'shop.yaml')] }] },
    });
    expect(created.status).toBe(201);
    // Run Now as curl and client libraries send it: Content-Type JSON and no body at all.
    const base = await t.listen();
    const run = await fetch(`${base}/api/config/run/${String(created.body.id)}`, { method: 'POST', headers: { ...t.adminHeaders, 'content-type': 'application/json' } });
    expect(run.status).toBe(200);
    expect(await run.json()).toMatchObject({ errors: [] });
    const { rows } = await t.db.pool.query<{ id: string; type: string; parent_id: string | null }>('SELECT id, type, parent_id FROM config_items WHERE scraper_id = $1', [created.body.id]);
    const by = (type: string) => rows.find((row) => row.type === type);
    expect(by('ReplicaSet')?.parent_id).toBe(by('Deployment')?.id);
    expect(by('Pod')?.parent_id).toBe(by('ReplicaSet')?.id);
  });
});

describe('config events', () => {
  type Event = { event_id: string; name: string; properties: Record<string, unknown> };
  const seen = new Set<string>();
  /** config.* events published since the last call (one per event, whatever the number of consumers). */
  const newEvents = async (): Promise<Array<{ name: string; properties: Record<string, unknown> }>> => {
    const { rows } = await t.db.pool.query<Event>(
      "SELECT DISTINCT event_id, name, properties, created_at FROM event_queue WHERE name LIKE 'config.%' AND properties->>'type' = 'Truck' ORDER BY created_at, name",
    );
    const fresh = rows.filter((row) => !seen.has(row.event_id));
    for (const row of fresh) seen.add(row.event_id);
    return fresh.map(({ name, properties }) => ({ name, properties }));
  };
  const trucks = (colour: string, ok: boolean) => [
    { reg_no: 'T1', name: 'Actros', colour, ok },
    { reg_no: 'T2', name: 'Scania', colour: 'red', ok: false },
  ];
  const truckSpec = (extra: Record<string, unknown> = {}) => ({
    schedule: '@every 1h',
    ...extra,
    file: [{ type: 'Truck', id: '$.reg_no', name: '$.name', health: { expr: "ok ? 'healthy' : 'unhealthy'" }, paths: [path.join(root, 'trucks.json')] }],
  });
  const itemId = async (name: string) => String((await t.db.pool.query('SELECT id FROM config_items WHERE name = $1', [name])).rows[0]?.id);
  let id = '';

  it('publishes config.created and the health of new items that are not healthy, once, and nothing on a rescrape without change', async () => {
    await writeFile(path.join(root, 'trucks.json'), JSON.stringify(trucks('white', true)));
    // A subscribed consumer gets its own row of each event it subscribes to (the batch insert fans out as publish does).
    await subscribeConsumer(t.db.pool, 'trucks-test', ['config.created']);
    const created = await call('POST', '/api/catalog/scrapers', { name: 'trucks', namespace: 'depot', spec: truckSpec() });
    id = String(created.body.id);
    expect((await call('POST', `/api/config/run/${id}`)).body).toMatchObject({ created: 2 });
    const [actros, scania] = [await itemId('Actros'), await itemId('Scania')];
    const events = await newEvents();
    expect(events).toHaveLength(3);
    expect(events).toEqual(
      expect.arrayContaining([
        { name: 'config.created', properties: expect.objectContaining({ id: actros, name: 'Actros', type: 'Truck', namespace: null, health: 'healthy', previous: null }) },
        { name: 'config.created', properties: expect.objectContaining({ id: scania, name: 'Scania', type: 'Truck', health: 'unhealthy', previous: null }) },
        { name: 'config.unhealthy', properties: expect.objectContaining({ id: scania, name: 'Scania', health: 'unhealthy', previous: { health: null, status: null } }) },
      ]),
    );
    const rows = await t.db.pool.query("SELECT name, consumer, count(*)::int AS n FROM event_queue WHERE properties->>'type' = 'Truck' GROUP BY 1, 2 ORDER BY 1, 2");
    expect(rows.rows).toEqual([
      { name: 'config.created', consumer: 'trucks-test', n: 2 },
      { name: 'config.unhealthy', consumer: '', n: 1 },
    ]);
    expect((await call('POST', `/api/config/run/${id}`)).body).toMatchObject({ unchanged: 2 });
    expect(await newEvents()).toEqual([]);
  });

  it('publishes config.updated, config.changed (with the change id) and the health transition of a changed item, with the previous state', async () => {
    await writeFile(path.join(root, 'trucks.json'), JSON.stringify(trucks('blue', false)));
    expect((await call('POST', `/api/config/run/${id}`)).body).toMatchObject({ updated: 1, changes: 1 });
    const actros = await itemId('Actros');
    const change = await t.db.pool.query('SELECT id FROM config_changes WHERE config_id = $1', [actros]);
    const events = await newEvents();
    expect(events).toHaveLength(3);
    expect(events).toEqual(
      expect.arrayContaining([
        { name: 'config.updated', properties: expect.objectContaining({ id: actros, name: 'Actros', type: 'Truck', health: 'unhealthy', previous: { health: 'healthy', status: null } }) },
        { name: 'config.unhealthy', properties: expect.objectContaining({ id: actros, name: 'Actros', previous: { health: 'healthy', status: null } }) },
        {
          name: 'config.changed',
          properties: expect.objectContaining({ id: actros, name: 'Actros', type: 'Truck', change_id: change.rows[0]?.id, change_type: 'diff', summary: 'colour, ok', severity: 'info', previous: { health: 'healthy', status: null } }),
        },
      ]),
    );
    expect((await call('POST', `/api/config/run/${id}`)).body).toMatchObject({ unchanged: 2 });
    expect(await newEvents()).toEqual([]);
  });

  it('publishes config.healthy on recovery, and config.deleted for a stale item and for the items of a deleted scraper', async () => {
    await writeFile(path.join(root, 'trucks.json'), JSON.stringify(trucks('blue', true).slice(0, 1)));
    await call('PUT', `/api/catalog/scrapers/${id}`, { name: 'trucks', namespace: 'depot', spec: truckSpec({ retention: { staleItemAge: '1ms' } }) });
    expect((await call('POST', `/api/config/run/${id}`)).body).toMatchObject({ deleted: 1 });
    const [actros, scania] = [await itemId('Actros'), await itemId('Scania')];
    expect(await newEvents()).toEqual(
      expect.arrayContaining([
        { name: 'config.healthy', properties: expect.objectContaining({ id: actros, previous: { health: 'unhealthy', status: null } }) },
        { name: 'config.deleted', properties: expect.objectContaining({ id: scania, name: 'Scania', delete_reason: 'STALE', previous: { health: 'unhealthy', status: null } }) },
      ]),
    );
    expect((await call('DELETE', `/api/catalog/scrapers/${id}`)).status).toBeLessThan(300);
    expect(await newEvents()).toEqual([
      { name: 'config.deleted', properties: expect.objectContaining({ id: actros, name: 'Actros', delete_reason: 'SCRAPER_DELETED', previous: { health: 'healthy', status: null } }) },
    ]);
  });
});
