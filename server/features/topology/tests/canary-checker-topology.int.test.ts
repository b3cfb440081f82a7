import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { COMPONENT, contractProblems, emptyFields, TOPOLOGY } from '../../../../test/contracts/canary-checker';

/**
 * GET /api/canary/api/topology answers canary-checker's TopologyResponse (test/contracts/canary-checker.ts):
 * a topology built here from a real run, with a check and a catalog item (with an open insight) attached.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  const { rows } = await t.db.pool.query<{ id: string }>(
    `INSERT INTO config_items (external_id, type, name, namespace, health, status, tags, config)
     VALUES ('{orders-db}', 'Database', 'orders-db', 'prod', 'healthy', 'Available', '{"env": "prod"}', '{}'),
            ('{archive-db}', 'Database', 'archive-db', 'prod', 'unhealthy', 'Failing over', '{"env": "prod"}', '{}') RETURNING id`,
  );
  await t.db.pool.query(`INSERT INTO config_analysis (config_id, analyzer, severity, analysis_type, message) VALUES ($1, 'open-port', 'critical', 'security', 'port 5432 is open to the world')`, [rows[0]?.id]);
  await t.db.pool.query(`INSERT INTO canaries (id, name, namespace) VALUES ('55555555-5555-4555-8555-555555555555', 'shop-checks', 'shop')`);
  await t.db.pool.query(`INSERT INTO checks (canary_id, key, type, name, status, labels) VALUES ('55555555-5555-4555-8555-555555555555', 'http/shop', 'http', 'shop-home', 'healthy', '{"app": "shop"}')`);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/canary/topologies',
    headers: t.adminHeaders,
    payload: {
      name: 'shop',
      namespace: 'shop',
      labels: { team: 'web' },
      spec: {
        schedule: '@never',
        type: 'Application',
        owner: 'web-team',
        components: [
          {
            name: 'storefront',
            text: 'Storefront',
            tooltip: 'what shoppers see',
            icon: 'globe',
            type: 'WebApp',
            description: 'the shop pages',
            checks: [{ selector: { labels: { app: 'shop' } } }],
            properties: [{ name: 'replicas', value: 3 }],
          },
          { name: 'Databases', type: 'DatabaseGroup', lookup: { configs: [{ type: 'Database', tags: { env: 'prod' } }] } },
        ],
      },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const ran = await t.app.inject({ method: 'POST', url: `/api/canary/run/topology/${created.json<{ id: string }>().id}`, headers: t.adminHeaders });
  expect(ran.statusCode, ran.body).toBe(200);
});

afterAll(async () => {
  await t?.close();
});

async function topology(query: string) {
  const response = await t.app.inject({ method: 'GET', url: `/api/canary/api/topology${query}`, headers: t.adminHeaders });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Record<string, unknown>>();
}

type Component = Record<string, unknown> & { components?: Component[] };

describe("canary-checker's /api/topology", () => {
  it('answers its TopologyResponse, each component with its fields and types', async () => {
    for (const query of ['', '?depth=3']) {
      const answer = await topology(query);
      expect(answer.components).toEqual([expect.objectContaining({ name: 'shop' })]);
      // The console reads null as "none" where canary-checker leaves the field out (docs/API.md).
      expect(contractProblems(answer, TOPOLOGY, '', { nullForEmpty: true })).toEqual([]);
    }
    const root = ((await topology('?depth=3')).components as Component[]).find((component) => component.name === 'shop');
    expect(root).toMatchObject({ namespace: 'shop', type: 'Application', is_leaf: false, owner: 'web-team' });
    const children = root?.components ?? [];
    const storefront = children.find((component) => component.name === 'storefront');
    const group = children.find((component) => component.name === 'Databases');
    const database = group?.components?.find((component) => component.name === 'orders-db');
    const archive = group?.components?.find((component) => component.name === 'archive-db');
    expect(storefront).toMatchObject({ namespace: 'shop', is_leaf: true, description: 'the shop pages', summary: { checks: { healthy: 1 } } });
    // Insights by analysis type, then severity, as canary-checker counts them.
    expect(database).toMatchObject({ description: '', status: 'Available', is_leaf: true, summary: { insights: { security: { critical: 1 } } } });
    // What no component here has: canary-checker's fields we have nothing for.
    const all = [root, storefront, group, database, archive];
    expect(all.every(Boolean)).toBe(true);
    const carried = new Set(Object.keys(COMPONENT).filter((name) => all.some((component) => !emptyFields(component as object, COMPONENT).includes(name))));
    expect(Object.keys(COMPONENT).filter((name) => !carried.has(name))).toEqual([
      'external_id',
      'topology_type',
      'silenced',
      'lifecycle',
      'logs',
      'schedule',
      'selectors',
      'componentChecks',
      'path',
      'cost_per_minute',
      'cost_total_1d',
      'cost_total_7d',
      'cost_total_30d',
      'created_by',
      'deleted_at',
      'status_expr',
      'health_expr',
      'order',
      'relationship_id',
      'children',
      'parents',
    ]);
  });

  it("takes canary-checker's status filter as the health filter", async () => {
    const unhealthy = await topology('?depth=1&status=unhealthy');
    expect(contractProblems(unhealthy, TOPOLOGY, '', { nullForEmpty: true })).toEqual([]);
    expect((unhealthy.components as Component[]).map((component) => component.name)).toEqual(['shop']);
    expect((await topology('?status=healthy')).components).toEqual([]);
  });
});
