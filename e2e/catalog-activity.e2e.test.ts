import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useJourney } from './harness';

const scraperRow = z.object({ id: z.string(), spec: z.record(z.string(), z.unknown()), source: z.string(), schedule: z.string().nullable() });

/** A Deployment as a cluster export writes it: one replica, an unpinned image, no memory limit (three insights). */
function deployment(replicas: number): string {
  return [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: web',
    '  namespace: shop',
    '  labels:',
    '    app: web',
    'spec:',
    `  replicas: ${replicas}`,
    '  selector:',
    '    matchLabels:',
    '      app: web',
    '  template:',
    '    metadata:',
    '      labels:',
    '        app: web',
    '    spec:',
    '      containers:',
    '        - name: web',
    '          image: nginx:latest',
    '',
  ].join('\n');
}

const CONFIG_MAP = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: settings', '  namespace: shop', 'data:', '  mode: fast', ''].join('\n');

/**
 * Spec §2 /catalog/scrapers, /catalog/changes, /catalog/insights: a person adds a file scraper over a folder
 * of manifests in the editor, runs it, sees its items, changes a file, runs it again, finds the change in
 * the feed and opens its diff, filters the feed, reads the insights the manifests raise, and deletes the
 * scraper after confirming.
 */
describe('catalog scrapers, changes and insights', () => {
  const journey = useJourney({ signIn: true });
  const url = (to: string) => `${journey.server().url}${to}`;
  const query = (sql: string, values: unknown[] = []) => journey.server().pool.query(sql, values);
  let dir = '';

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-manifests-'));
    await fs.writeFile(path.join(dir, 'web.yaml'), deployment(1));
    await fs.writeFile(path.join(dir, 'settings.yaml'), CONFIG_MAP);
  });
  afterAll(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('adds a file scraper, runs it, follows a change to its diff, reads the insights, and deletes the scraper', async () => {
    const page = journey.page();
    const pattern = `${dir}/*.yaml`;

    // Add: the type cards, then the form of a file source; it runs only when asked.
    await page.goto(url('/catalog/scrapers'));
    await page.getByRole('heading', { name: 'Scrapers', level: 1 }).waitFor();
    await page.getByText('No scrapers found').waitFor();
    await page.getByRole('link', { name: 'Add scraper' }).click();
    const picker = page.getByRole('region', { name: 'Choose the type of scraper' });
    await picker.getByRole('button', { name: 'File', exact: true }).click();
    await page.waitForURL(/\/catalog\/scrapers\/new\?type=file$/);
    await page.getByLabel('Name', { exact: true }).fill('local-files');
    const source = page.getByRole('group', { name: 'File source 1' });
    await source.getByLabel('Paths', { exact: true }).fill(pattern);
    await page.getByRole('combobox', { name: 'Schedule' }).click();
    const presets = await page.getByRole('option').allTextContents();
    expect(presets).toEqual(['@every 15m', '@every 30m', '@hourly', '@every 2h', '@every 4h', '@daily', 'Custom']);
    await page.getByRole('option', { name: 'Custom' }).click();
    await page.getByLabel('Custom schedule').fill('@never');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL((u) => /^\/catalog\/scrapers\/[0-9a-f-]{36}$/.test(u.pathname));
    await page.getByText('Catalog Scraper created successfully').first().waitFor();
    const saved = scraperRow.parse((await query("SELECT id, spec, source, schedule FROM config_scrapers WHERE name = 'local-files' AND deleted_at IS NULL")).rows[0]);
    expect(saved).toMatchObject({ source: 'UI', schedule: null, spec: { schedule: '@never', file: [{ paths: [pattern] }] } });
    expect(new URL(page.url()).pathname).toBe(`/catalog/scrapers/${saved.id}`);

    // Run Now: the toast says what it did, and the items appear.
    const items = page.getByRole('table', { name: 'Items' });
    await page.getByText('No items yet: Run Now scrapes the sources').waitFor();
    await page.getByRole('button', { name: 'Run Now' }).click();
    await page.getByText(/^local-files: 2 created, 0 updated/).first().waitFor();
    await items.getByRole('link', { name: /web/ }).waitFor();
    await items.getByRole('link', { name: /settings/ }).waitFor();
    expect(await items.getByRole('link', { name: /web/ }).getAttribute('href')).toMatch(/^\/catalog\/[0-9a-f-]{36}$/);

    // A file changes; the next run finds it.
    await fs.writeFile(path.join(dir, 'web.yaml'), deployment(3));
    await page.getByRole('button', { name: 'Run Now' }).click();
    await page.getByText(/^local-files: 0 created, 1 updated, 1 unchanged, 0 deleted; 1 change/).first().waitFor();
    await page.getByRole('tab', { name: 'Job History' }).click();
    const runs = page.getByRole('table', { name: 'Runs' });
    await expect.poll(async () => (await runs.getByRole('row').count()) - 1).toBe(2);
    await runs.getByText('SUCCESS').first().waitFor();

    // The change feed: the diff of the Deployment, opened in place.
    await page.goto(url('/catalog/changes'));
    await page.getByRole('heading', { name: 'Config Changes', level: 1 }).waitFor();
    const feed = page.getByRole('table', { name: 'Changes' });
    // A change's own row (an opened row's details, below it, are a row too).
    const row = feed.locator('tr[aria-expanded]').filter({ has: page.getByRole('link', { name: /web/ }) }).filter({ hasText: 'spec.replicas' });
    await row.waitFor();
    expect(await feed.locator('tr[aria-expanded]').count()).toBe(1);
    await page.getByRole('list', { name: 'Changes by type' }).getByRole('button', { name: /diff\s*1/ }).waitFor();
    expect(await row.textContent()).toContain('diff');
    await row.click();
    await expect.poll(() => row.getAttribute('aria-expanded')).toBe('true');
    const diff = page.locator('pre[aria-label="Diff"]');
    await diff.waitFor();
    expect(await diff.locator('[data-diff="add"]').allTextContents()).toContain('+  replicas: 3');
    expect(await diff.locator('[data-diff="remove"]').allTextContents()).toContain('-  replicas: 1');
    expect(new URL(page.url()).searchParams.get('change')).toMatch(/^[0-9a-f-]{36}$/);

    // Filter by change type (then by a severity no change has), all in the URL.
    await page.getByLabel('Change type').selectOption('diff');
    await page.waitForURL((u) => u.searchParams.get('changeType') === 'diff');
    await row.waitFor();
    await page.getByLabel('Severity').selectOption('high');
    await page.waitForURL((u) => u.searchParams.get('severity') === 'high' && u.searchParams.get('changeType') === 'diff');
    await page.getByText('No changes match these filters in this time range.').waitFor();
    await page.goBack();
    await row.waitFor();

    // Insights: what the manifests raise, open first, each linking to its config.
    await page.goto(url('/catalog/insights'));
    const insights = page.getByRole('table', { name: 'Insights' });
    await insights.getByText('no-memory-limit').waitFor();
    await insights.getByText('image-not-pinned').waitFor();
    expect(await insights.getByText('single-replica').count()).toBe(0);
    await page.getByLabel('Status').selectOption('resolved');
    await insights.getByText('single-replica').waitFor();
    await insights.getByText('single-replica').click();
    const dialog = page.getByRole('dialog', { name: 'Insight: single-replica' });
    await dialog.getByText('The deployment runs one replica: every rollout or node drain is an outage.').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Delete, after confirmation: the list is empty again.
    await page.goto(url(`/catalog/scrapers/${saved.id}`));
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Catalog Scraper' });
    await confirm.getByText(/Are you sure you want to delete local-files\?/).waitFor();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/catalog/scrapers');
    await page.getByText('local-files deleted successfully').first().waitFor();
    await page.getByText('No scrapers found').waitFor();
    expect((await query("SELECT count(*)::int AS n FROM config_scrapers WHERE name = 'local-files' AND deleted_at IS NULL")).rows[0]).toEqual({ n: 0 });
  });
});
