import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { ROOT } from '../../../platform/paths';
import { applyDocuments } from '../../../platform/resources';
import { runScraper } from '../run';
import { scrapeConfigKind } from '../scraper-kind';

/**
 * examples/catalog/scrapers/*.yaml apply as they are, without warnings, and each finds items on this
 * machine: the manifests and inventory in the repository, the machine's PostgreSQL, this console's
 * /health (on the test's port instead of 3000), a script and this repository's git objects.
 */
const DIR = path.join(ROOT, 'examples', 'catalog', 'scrapers');
let t: TestApp;
let base = '';

beforeAll(async () => {
  t = await createTestApp();
  base = await t.listen();
});

afterAll(async () => {
  await t?.close();
});

describe('catalog examples', async () => {
  const files = (await readdir(DIR)).filter((file) => file.endsWith('.yaml')).sort();

  it('has one example per scraper type', () => {
    expect(files).toEqual(['exec-disks.yaml', 'file-inventory.yaml', 'git-canaries.yaml', 'http-console.yaml', 'kubernetes-manifests.yaml', 'postgres-databases.yaml']);
  });

  it.each(files)('%s applies without warnings and scrapes items without errors', async (file) => {
    const text = (await readFile(path.join(DIR, file), 'utf8')).replaceAll('http://localhost:3000', base);
    const applied = await applyDocuments(t.db.pool, [scrapeConfigKind], [{ file, text }], 'ConfigFile', createLogger('silent'));
    expect(applied[0]).toMatchObject({ ok: true });
    expect(applied[0]?.outcome?.warnings ?? []).toEqual([]);
    const id = applied[0]?.outcome?.id ?? '';
    // Relative paths are read from the working directory: the repository, as with `npm start`.
    const cwd = process.cwd();
    process.chdir(ROOT);
    try {
      const summary = await runScraper(t.db.pool, id, { log: createLogger('silent') });
      expect(summary.errors).toEqual([]);
      expect(summary.created).toBeGreaterThan(0);
    } finally {
      process.chdir(cwd);
    }
  });

  it('masks and leaves out what the inventory example says', async () => {
    const { rows } = await t.db.pool.query<{ name: string; health: string; tags: Record<string, string>; config: Record<string, Record<string, unknown>> }>(
      "SELECT name, health, tags, config FROM config_items WHERE type = 'Host' ORDER BY name",
    );
    expect(rows.map((row) => [row.name, row.health, row.tags.datacenter])).toEqual([
      ['db-1.internal', 'healthy', 'fra1'],
      ['db-2.internal', 'healthy', 'ams1'],
      ['web-1.internal', 'unhealthy', 'fra1'],
    ]);
    expect(rows[0]?.config.ipmi).toEqual({ user: 'admin', password: '******' });
    expect(rows[0]?.config.owner).toEqual({ team: 'data' });
  });
});
