import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { DAY, insertChange, insertInsight, insertItem, relate } from './testing';

/**
 * The catalog list and its lookups as the console reads them through /api/db (spec §7 Catalog): the
 * configs view with `Prefer: count=exact`, config_types, change_types and related_configs_recursive.
 */
let t: TestApp;
const ids: Record<string, string> = {};

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await t.app.inject({ method: 'GET', url, headers: { ...t.adminHeaders, ...headers } });
  return { status: response.statusCode, body: response.json(), range: response.headers['content-range'] };
}

beforeAll(async () => {
  t = await createTestApp();
  const pool = t.db.pool;
  ids.cluster = await insertItem(pool, { type: 'Kubernetes::Cluster', name: 'east', tags: { cluster: 'east' } });
  ids.namespace = await insertItem(pool, { type: 'Kubernetes::Namespace', name: 'shop', parent: ids.cluster, tags: { cluster: 'east' } });
  ids.deployment = await insertItem(pool, { type: 'Kubernetes::Deployment', name: 'web', parent: ids.namespace, tags: { cluster: 'east' } });
  ids.replicaSet = await insertItem(pool, { type: 'Kubernetes::ReplicaSet', name: 'web-1', parent: ids.deployment });
  ids.pod = await insertItem(pool, { type: 'Kubernetes::Pod', name: 'web-1-a', parent: ids.replicaSet, health: 'unhealthy' });
  ids.oldPod = await insertItem(pool, { type: 'Kubernetes::Pod', name: 'web-1-z', parent: ids.replicaSet, deleted: true });
  ids.service = await insertItem(pool, { type: 'Kubernetes::Service', name: 'web', parent: ids.namespace });
  ids.instance = await insertItem(pool, { type: 'AWS::EC2::Instance', name: 'i-123' });
  await relate(pool, ids.service, ids.deployment, 'routes to');
  await relate(pool, ids.pod, ids.instance, 'runs on');
  await insertChange(pool, ids.pod, { change_type: 'BackOff', ago: DAY });
  await insertChange(pool, ids.pod, { change_type: 'diff', ago: 2 * DAY });
  await insertChange(pool, ids.pod, { change_type: 'Pulled', ago: 20 * DAY });
  await insertInsight(pool, ids.pod, 'crash-looping', 'availability');
});

afterAll(async () => {
  await t?.close();
});

describe('catalog relations through /api/db', () => {
  it('lists configs a page at a time with the exact total, changes of the week and open insights', async () => {
    const page = await get('/api/db/configs?select=id,name,type,health,changes,analysis&type=eq.Kubernetes::Pod&order=updated_at.desc&limit=1', { prefer: 'count=exact' });
    expect(page.status).toBe(200);
    expect(page.range).toBe('0-0/1');
    expect(page.body).toEqual([{ id: ids.pod, name: 'web-1-a', type: 'Kubernetes::Pod', health: 'unhealthy', changes: 2, analysis: { availability: 1 } }]);
    const all = await get('/api/db/configs?select=id&limit=3', { prefer: 'count=exact' });
    expect([200, 206]).toContain(all.status);
    expect(all.range).toBe('0-2/7');
    const deleted = await get('/api/db/configs?select=name&deleted_at=not.is.null', { prefer: 'count=exact' });
    expect(deleted.body).toEqual([{ name: 'web-1-z' }]);
  });

  it('lists the types of live items and the change types', async () => {
    const types = await get('/api/db/config_types?select=type&order=type');
    expect(types.body.map((row: { type: string }) => row.type)).toEqual([
      'AWS::EC2::Instance', 'Kubernetes::Cluster', 'Kubernetes::Deployment', 'Kubernetes::Namespace', 'Kubernetes::Pod', 'Kubernetes::ReplicaSet', 'Kubernetes::Service',
    ]);
    const changeTypes = await get('/api/db/change_types?select=change_type');
    expect(changeTypes.body.map((row: { change_type: string }) => row.change_type).sort()).toEqual(['BackOff', 'Pulled', 'diff']);
  });

  it('walks related configs with /rpc/related_configs_recursive (GET arguments or a POST body)', async () => {
    const down = await get(`/api/db/rpc/related_configs_recursive?config_id=${ids.deployment}&type_filter=outgoing&max_depth=5&select=name,depth,direction`);
    expect(down.status).toBe(200);
    expect(down.body).toEqual([
      { name: 'web-1', depth: 1, direction: 'outgoing' },
      { name: 'web-1-a', depth: 2, direction: 'outgoing' },
      { name: 'i-123', depth: 3, direction: 'outgoing' },
    ]);
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/db/rpc/related_configs_recursive?select=name,type,depth',
      headers: t.adminHeaders,
      payload: { config_id: ids.deployment, type_filter: 'incoming', max_depth: 5 },
    });
    expect(up.json()).toEqual([
      { name: 'shop', type: 'Kubernetes::Namespace', depth: 1 },
      { name: 'web', type: 'Kubernetes::Service', depth: 1 },
      { name: 'east', type: 'Kubernetes::Cluster', depth: 2 },
    ]);
    const withDeleted = await get(`/api/db/rpc/related_configs_recursive?config_id=${ids.replicaSet}&type_filter=outgoing&include_deleted_configs=true&max_depth=1&select=name&order=name`);
    expect(withDeleted.body).toEqual([{ name: 'web-1-a' }, { name: 'web-1-z' }]);
  });

  it('describes the query endpoints and their bodies in /api/openapi.json', async () => {
    const spec = (await get('/api/openapi.json')).body as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> } }>> };
    const fields = (url: string) => Object.keys(spec.paths[url]?.post?.requestBody?.content['application/json']?.schema.properties ?? {}).sort();
    expect(fields('/api/catalog/summary')).toEqual(['analysis', 'changes', 'deleted', 'filter', 'groupBy']);
    expect(fields('/api/catalog/changes')).toEqual(expect.arrayContaining(['id', 'recursive', 'depth', 'page', 'page_size', 'sort_by', 'tags', 'summary_only']));
    expect(fields('/api/resources/search')).toEqual(['checks', 'components', 'configs', 'connections', 'playbooks']);
  });
});
