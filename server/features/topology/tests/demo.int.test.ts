import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TopologyComponent, TopologyResponse, TopologyRunResult } from '../../../../common/topology';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { applyCatalogDemo, DEMO_READER_ROLE, runScraper } from '../../catalog';
import { applyDemo, runCanary } from '../../health';
import { applyTopologyDemo } from '../demo';

/** `serve --demo`: the shop topology over the demo catalog and the demo checks, as the dashboard reads it. */
let t: TestApp;
let dataDir = '';
let topologyId = '';
const log = createLogger('silent');

beforeAll(async () => {
  t = await createTestApp();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'wk-topology-demo-'));
  const ctx = { ...t.context, config: { ...t.context.config, dataDir } };
  await applyCatalogDemo(ctx);
  const { rows: scrapers } = await t.db.pool.query<{ id: string }>("SELECT id FROM config_scrapers WHERE name = 'kubernetes-cluster'");
  await runScraper(t.db.pool, scrapers[0]?.id ?? '', { log });
  await applyDemo(ctx);
  const { rows: canaries } = await t.db.pool.query<{ id: string }>("SELECT id FROM canaries WHERE namespace = 'demo' AND name IN ('nightly-jobs', 'retired-services')");
  for (const canary of canaries) await runCanary({ pool: t.db.pool, log }, canary.id, new AbortController().signal);
  await applyTopologyDemo(ctx);
  topologyId = (await t.db.pool.query<{ id: string }>("SELECT id FROM topologies WHERE namespace = 'demo' AND name = 'shop'")).rows[0]?.id ?? '';
}, 120_000);

afterAll(async () => {
  await t?.db.pool.query(`DROP ROLE IF EXISTS ${DEMO_READER_ROLE}`).catch(() => undefined);
  await rm(dataDir, { recursive: true, force: true });
  await t?.close();
});

const get = async (url: string) => {
  const response = await t.app.inject({ method: 'GET', url, headers: t.adminHeaders });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TopologyResponse>();
};
const child = (component: TopologyComponent | undefined, name: string) => component?.components?.find((item) => item.name === name);

describe('the demo topology', () => {
  it('runs now and answers the components it built, recorded in job history', async () => {
    const response = await t.app.inject({ method: 'POST', url: `/api/canary/run/topology/${topologyId}`, headers: t.adminHeaders });
    expect(response.statusCode, response.body).toBe(200);
    const run = response.json<TopologyRunResult>();
    expect(run.errors).toEqual([]);
    expect(run.created).toBeGreaterThan(15);
    expect(run.components.map((component) => component.name)).toEqual(expect.arrayContaining(['shop', 'Storefront', 'frontend', 'cart-59c7d8f6b-zt8wk', 'node-a', 'import queue']));
    const history = await t.db.pool.query("SELECT name, status, resource_type FROM job_history WHERE resource_id = $1", [topologyId]);
    expect(history.rows).toEqual([{ name: 'Topology', status: 'SUCCESS', resource_type: 'topology' }]);

    // A second run changes nothing and keeps every id.
    const again = (await t.app.inject({ method: 'POST', url: `/api/canary/run/topology/${topologyId}`, headers: t.adminHeaders })).json<TopologyRunResult>();
    expect({ created: again.created, updated: again.updated, deleted: again.deleted }).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect(again.components.map((component) => component.id).sort()).toEqual(run.components.map((component) => component.id).sort());
  });

  it('shows the root card with its health rolled up and says why', async () => {
    const roots = await get('/api/canary/api/topology');
    expect(roots.components.map((component) => component.name)).toEqual(['shop']);
    const shop = roots.components[0];
    expect(shop?.health).toBe('unhealthy');
    expect(shop?.status_reason).toMatch(/^unhealthy: \d of \d children unhealthy/);
    expect(shop?.properties).toEqual([{ name: 'cluster', text: 'demo' }]);
    // Depth 1: the children, without theirs; hidden ones left out.
    expect(shop?.components?.map((component) => component.name).sort()).toEqual(['Batch jobs', 'Cluster', 'Console', 'Console database', 'Payments', 'Storefront']);
    expect(child(shop, 'Storefront')?.components).toBeUndefined();
    expect(shop?.summary.children.unhealthy).toBeGreaterThan(0);
    expect(roots.teams).toEqual([]);
  });

  it('answers one component with its parents, children, configs, properties and the pods it looked up', async () => {
    const roots = await get('/api/canary/api/topology');
    const storefrontId = child(roots.components[0], 'Storefront')?.id ?? '';
    const one = await get(`/api/canary/api/topology?id=${storefrontId}`);
    expect(one.parents.map((parent) => parent.name)).toEqual(['shop']);
    const storefront = one.components[0];
    expect(storefront?.configs.map((config) => config.type)).toEqual(['Kubernetes::Ingress']);
    const cart = child(storefront, 'cart');
    expect(cart?.health).toBe('unhealthy');
    expect(cart?.status_reason).toMatch(/unhealthy: 1 of 2 pods unhealthy/);
    expect(cart?.components?.map((pod) => [pod.name, pod.health])).toEqual([
      ['cart-59c7d8f6b-zt8wk', 'unhealthy'],
      ['cart-59c7d8f6b-r4nqs', 'healthy'],
    ]);
    const frontend = child(storefront, 'frontend');
    expect(frontend?.properties.find((property) => property.name === 'replicas')).toMatchObject({ value: 3, type: 'number', headline: true });
    expect(frontend?.properties.find((property) => property.name === 'image')?.text).toMatch(/frontend/);
    expect(frontend?.children_count).toBe(3);
    expect(storefront?.status_reason).toMatch(/^unhealthy: 1 of 3 deployments|^unhealthy: \d of 3 children unhealthy/);
  });

  it('renders forEach templates per looked-up component and attaches checks live', async () => {
    const roots = await get('/api/canary/api/topology?depth=3');
    const shop = roots.components[0];
    const nodes = child(child(shop, 'Cluster'), 'Nodes');
    expect(nodes?.components?.map((node) => [node.name, node.properties.find((property) => property.name === 'cpu')?.value])).toEqual([
      ['node-a', 2],
      ['node-b', expect.any(Number)],
    ]);
    const payments = child(shop, 'Payments');
    expect(payments?.components?.every((pod) => pod.labels.app === pod.name)).toBe(true);
    const batch = child(shop, 'Batch jobs');
    expect(batch?.components?.map((check) => check.name).sort()).toEqual(['import queue', 'report build']);
    expect(batch?.components?.every((check) => check.checks.length === 1)).toBe(true);
    // The check's Relationships tab names the components it belongs to.
    const checkId = batch?.components?.[0]?.checks[0]?.id ?? '';
    const links = await t.app.inject({ method: 'GET', url: `/api/db/check_component_relationships?check_id=eq.${checkId}&select=components(name,type)&order=component_id`, headers: t.adminHeaders });
    expect(links.json<Array<{ components: { name: string; type: string } }>>().map((link) => link.components.name)).toEqual([batch?.components?.[0]?.name]);
    expect((batch?.summary.checks.healthy ?? 0) + (batch?.summary.checks.unhealthy ?? 0)).toBe(2);
  });

  it('filters by health, type and labels, and shows hidden components only when asked', async () => {
    const roots = await get('/api/canary/api/topology');
    const shopId = roots.components[0]?.id ?? '';
    const unhealthy = await get(`/api/canary/api/topology?id=${shopId}&depth=1&health=unhealthy`);
    expect(unhealthy.components[0]?.components?.every((component) => component.health === 'unhealthy')).toBe(true);
    const services = await get(`/api/canary/api/topology?id=${shopId}&depth=1&type=Database`);
    expect(services.components[0]?.components?.map((component) => component.name)).toEqual(['Console database']);
    const frontendTier = await get(`/api/canary/api/topology?id=${shopId}&depth=1&labels=tier=frontend`);
    expect(frontendTier.components[0]?.components?.map((component) => component.name)).toEqual(['Storefront']);
    expect(frontendTier.types).toEqual(expect.arrayContaining(['Database', 'KubernetesCluster', 'Service']));
    expect(frontendTier.teams).toEqual(['data', 'payments', 'platform', 'web']);
    const hidden = await get(`/api/canary/api/topology?id=${shopId}&depth=1&hidden=true`);
    const legacy = child(hidden.components[0], 'Legacy cache');
    expect(legacy).toMatchObject({ hidden: true, health: 'unhealthy' });
    expect(legacy?.status_reason).toBe('unhealthy: check legacy cache failing');
  });

  it('downloads a snapshot and refuses bad queries with the field named', async () => {
    const roots = await get('/api/canary/api/topology');
    const snapshot = await t.app.inject({ method: 'GET', url: `/api/snapshot/topology/${roots.components[0]?.id ?? ''}`, headers: t.adminHeaders });
    expect(snapshot.statusCode).toBe(200);
    expect(snapshot.headers['content-disposition']).toMatch(/^attachment; filename="topology-shop-\d{8}-\d{4}\.json"$/);
    const body = snapshot.json<{ component: TopologyComponent }>();
    expect(child(child(body.component, 'Storefront'), 'cart')?.components?.length).toBe(2);

    const bad = await t.app.inject({ method: 'GET', url: '/api/canary/api/topology?depth=99&id=nope', headers: t.adminHeaders });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/depth/);
    expect(bad.body).toMatch(/id/);
    const missing = await t.app.inject({ method: 'GET', url: '/api/canary/api/topology?id=6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f', headers: t.adminHeaders });
    expect(missing.statusCode).toBe(404);
  });

  it('serves the /api/db relations', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/db/topologies?select=name,namespace,source,components,root_id', headers: t.adminHeaders });
    expect(list.json()).toEqual([{ name: 'shop', namespace: 'demo', source: 'Demo', components: expect.any(Number), root_id: expect.any(String) }]);
    const names = await t.app.inject({ method: 'GET', url: '/api/db/component_names?name=eq.Storefront&select=name,type', headers: t.adminHeaders });
    expect(names.json()).toEqual([{ name: 'Storefront', type: 'Service' }]);
    const labels = await t.app.inject({ method: 'GET', url: '/api/db/component_labels?key=eq.tier&order=value', headers: t.adminHeaders });
    // Looked-up checks bring their labels (the nightly-jobs canary's tier: batch).
    expect(labels.json()).toEqual([{ key: 'tier', value: 'backend' }, { key: 'tier', value: 'batch' }, { key: 'tier', value: 'frontend' }]);
    const search = await t.app.inject({ method: 'POST', url: '/api/resources/search', headers: t.adminHeaders, payload: { components: [{ search: 'store' }, { search: 'type=Database' }] } });
    expect(search.json<{ components: Array<{ name: string; type: string; tags: Record<string, string> }> }>().components.map((found) => [found.name, found.type])).toEqual([
      ['Storefront', 'Service'],
      ['Console database', 'Database'],
    ]);
  });
});
