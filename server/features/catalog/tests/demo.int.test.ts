import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { applyCatalogDemo, DEMO_NAMESPACE, DEMO_READER_ROLE } from '../demo';
import { runScraper } from '../run';

/** `serve --demo`: the bundled manifests and the console's own database become items, insights and edges. */
let t: TestApp;
let dataDir = '';
const log = createLogger('silent');

beforeAll(async () => {
  t = await createTestApp();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'wk-catalog-demo-'));
});

afterAll(async () => {
  // The role is the server's, not the test database's: it goes with the test.
  await t?.db.pool.query(`DROP ROLE IF EXISTS ${DEMO_READER_ROLE}`).catch(() => undefined);
  await rm(dataDir, { recursive: true, force: true });
  await t?.close();
});

async function demoScrapers() {
  const { rows } = await t.db.pool.query<{ id: string; name: string; source: string; due: boolean }>(
    'SELECT id, name, source, next_run_at <= now() AS due FROM config_scrapers WHERE namespace = $1 AND deleted_at IS NULL ORDER BY name',
    [DEMO_NAMESPACE],
  );
  return rows;
}

describe('catalog demo data', () => {
  it('adds two scrapers that run at once, once each however often the console starts', async () => {
    const ctx = { ...t.context, config: { ...t.context.config, dataDir } };
    expect(await applyCatalogDemo(ctx)).toMatch(/^2 demo scrapers in the namespace "demo"/);
    expect(await applyCatalogDemo(ctx)).toMatch(/^2 demo scrapers/);
    expect((await demoScrapers()).map(({ name, source, due }) => ({ name, source, due }))).toEqual([
      { name: 'console-database', source: 'Demo', due: true },
      { name: 'kubernetes-cluster', source: 'Demo', due: true },
    ]);
  });

  it('scrapes the demo cluster: a tree from namespaces to pods, health, masked secrets, rule edges and insights', async () => {
    const scraper = (await demoScrapers()).find((row) => row.name === 'kubernetes-cluster');
    const summary = await runScraper(t.db.pool, scraper?.id ?? '', { log });
    expect(summary.errors).toEqual([]);
    expect(summary.created).toBeGreaterThan(30);

    const item = async (type: string, name: string) =>
      (await t.db.pool.query<{ id: string; health: string; status: string; config: Record<string, unknown>; tags: Record<string, string>; parent: string | null }>(
        'SELECT i.id, i.health, i.status, i.config, i.tags, p.name AS parent FROM config_items i LEFT JOIN config_items p ON p.id = i.parent_id WHERE i.type = $1 AND i.name = $2',
        [type, name],
      )).rows[0];
    const crashing = await item('Kubernetes::Pod', 'cart-59c7d8f6b-zt8wk');
    expect(crashing).toMatchObject({ health: 'unhealthy', parent: 'cart-59c7d8f6b', tags: { namespace: 'shop', cluster: 'demo' } });
    expect((await item('Kubernetes::Pod', 'frontend-6d8f9c7b4-x2kq9'))?.health).toBe('healthy');
    expect((await item('Kubernetes::ReplicaSet', 'cart-59c7d8f6b'))?.parent).toBe('cart');
    expect((await item('Kubernetes::Deployment', 'cart'))?.parent).toBe('shop');
    expect((await item('Kubernetes::Secret', 'catalog-db-credentials'))?.config.data).toEqual({ username: '******', password: '******' });

    const edges = await t.db.pool.query<{ from: string; to: string; relation: string }>(
      `SELECT a.type || '/' || a.name AS from, b.type || '/' || b.name AS to, r.relation FROM config_relationships r
         JOIN config_items a ON a.id = r.config_id JOIN config_items b ON b.id = r.related_id
        WHERE r.deleted_at IS NULL AND a.type = 'Kubernetes::Service' ORDER BY 1`,
    );
    expect(edges.rows).toContainEqual({ from: 'Kubernetes::Service/cart', to: 'Kubernetes::Deployment/cart', relation: 'routes to' });
    expect(edges.rows).toContainEqual({ from: 'Kubernetes::Service/catalog-db', to: 'Kubernetes::StatefulSet/catalog-db', relation: 'routes to' });

    const insights = await t.db.pool.query<{ item: string; analyzer: string; analysis_type: string; severity: string }>(
      `SELECT i.type || '/' || i.name AS item, a.analyzer, a.analysis_type, a.severity FROM config_analysis a JOIN config_items i ON i.id = a.config_id
        WHERE a.status = 'open' ORDER BY 1, 2`,
    );
    expect(insights.rows).toEqual([
      { item: 'Kubernetes::DaemonSet/node-exporter', analyzer: 'privileged-container', analysis_type: 'security', severity: 'high' },
      { item: 'Kubernetes::Deployment/cart', analyzer: 'image-not-pinned', analysis_type: 'reliability', severity: 'medium' },
      { item: 'Kubernetes::Deployment/payments-api', analyzer: 'no-memory-limit', analysis_type: 'reliability', severity: 'low' },
      { item: 'Kubernetes::Deployment/payments-api', analyzer: 'single-replica', analysis_type: 'availability', severity: 'low' },
      { item: 'Kubernetes::Pod/cart-59c7d8f6b-zt8wk', analyzer: 'container-waiting', analysis_type: 'availability', severity: 'high' },
    ]);
  });

  it('records an edit of a manifest as a change with its diff, and resolves the insight it fixes', async () => {
    const file = path.join(dataDir, 'demo', 'kubernetes', 'payments', 'api.yaml');
    const text = await readFile(file, 'utf8');
    // Two replicas instead of one, in the Deployment only (the ReplicaSet keeps its own count).
    const edited = text.replace(/(kind: Deployment[\s\S]*?\nspec:\n  replicas: )1/, '$12');
    expect(edited).not.toBe(text);
    await writeFile(file, edited);
    const scraper = (await demoScrapers()).find((row) => row.name === 'kubernetes-cluster');
    const summary = await runScraper(t.db.pool, scraper?.id ?? '', { log });
    expect(summary).toMatchObject({ updated: 1, changes: 1, errors: [] });
    const { rows } = await t.db.pool.query<{ summary: string; diff: string; patches: unknown }>(
      "SELECT c.summary, c.diff, c.patches FROM config_changes c JOIN config_items i ON i.id = c.config_id WHERE i.name = 'payments-api' AND i.type = 'Kubernetes::Deployment'",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.diff).toMatch(/-\s+replicas: 1\n\+\s+replicas: 2/);
    expect(rows[0]?.patches).toEqual({ spec: { replicas: 2 } });
    const single = await t.db.pool.query("SELECT status FROM config_analysis WHERE analyzer = 'single-replica'");
    expect(single.rows).toEqual([{ status: 'resolved' }]);
  });

  it("scrapes the console's own database as the reader role: the database and each table under it", async () => {
    const scraper = (await demoScrapers()).find((row) => row.name === 'console-database');
    const summary = await runScraper(t.db.pool, scraper?.id ?? '', { log });
    expect(summary.errors).toEqual([]);
    const { rows } = await t.db.pool.query<{ type: string; name: string; parent: string; columns: Array<{ name: string }> }>(
      `SELECT i.type, i.name, p.name AS parent, i.config->'columns' AS columns FROM config_items i JOIN config_items p ON p.id = i.parent_id
        WHERE i.scraper_id = $1 AND i.name IN ('config_items', 'configs')`,
      [scraper?.id],
    );
    const database = (await t.db.pool.query<{ name: string }>('SELECT current_database() AS name')).rows[0]?.name;
    expect(rows.map(({ type, name, parent }) => ({ type, name, parent })).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { type: 'PostgreSQL::Table', name: 'config_items', parent: database },
      { type: 'PostgreSQL::View', name: 'configs', parent: database },
    ]);
    expect(rows.find((row) => row.name === 'config_items')?.columns.map((column) => column.name)).toContain('external_id');
  });
});
