import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useJourney } from './harness';

/**
 * The catalog (spec §2 /catalog, /catalog/{id} and its tabs): items scraped from Kubernetes manifests in a
 * folder by a file scraper made through the API, then browsed, filtered, compared and walked as a person.
 */
describe('catalog', () => {
  const journey = useJourney({ signIn: true });
  const url = (to: string) => `${journey.server().url}${to}`;
  let folder = '';
  let scraperId = '';
  const ids = new Map<string, string>();

  const deployment = (name: string, replicas: number, ready: number) => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: shop, uid: dep-${name}, labels: {app: ${name}}}
spec: {replicas: ${replicas}}
status: {replicas: ${replicas}, readyReplicas: ${ready}}
`;
  const manifests: Record<string, string> = {
    'shop.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\nstatus: {phase: Active}\n',
    'web.yaml': deployment('web', 2, 1),
    'api.yaml': deployment('api', 1, 1),
    'web-rs.yaml': `
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-7d9
  namespace: shop
  uid: rs-web
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: dep-web, controller: true}]
spec: {replicas: 2}
status: {replicas: 2, readyReplicas: 1}
`,
    'web-pod.yaml': `
apiVersion: v1
kind: Pod
metadata:
  name: web-7d9-abc
  namespace: shop
  uid: pod-web
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-7d9, uid: rs-web, controller: true}]
status:
  phase: Running
  conditions: [{type: Ready, status: "False"}]
  containerStatuses: [{name: web, state: {waiting: {reason: CrashLoopBackOff}}}]
`,
  };

  beforeAll(async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-e2e-catalog-'));
    for (const [file, text] of Object.entries(manifests)) await fs.writeFile(path.join(folder, file), text);
  });
  afterAll(() => fs.rm(folder, { recursive: true, force: true }));

  /** Run Now through the API, as the scraper page's button does. */
  async function runScraper(page: Page) {
    const run = await page.request.post(url(`/api/config/run/${scraperId}`), { data: {} });
    expect(run.status(), await run.text()).toBe(200);
    return (await run.json()) as { created: number; updated: number; changes: number; errors: unknown[] };
  }

  const params = (page: Page) => new URL(page.url()).searchParams;

  it('summarises the scraped items by type and lists the items of a type, filtered by health', async () => {
    const page = journey.page();
    const created = await page.request.post(url('/api/catalog/scrapers'), { data: { name: 'e2e-shop', spec: { file: [{ paths: [path.join(folder, '*.yaml')] }] } } });
    expect(created.status(), await created.text()).toBe(201);
    scraperId = String(((await created.json()) as { id: string }).id);
    expect(await runScraper(page)).toMatchObject({ created: 5, errors: [] });
    const rows = (await (await page.request.get(url('/api/db/configs?select=id,name'))).json()) as { id: string; name: string }[];
    for (const row of rows) ids.set(row.name, row.id);

    await page.goto(url('/catalog'));
    await page.waitForFunction(() => document.title === 'Catalog | Watchkeeper');
    // Spec §2 main sidebar order: …, Health, Incidents, Catalog, …
    const nav = page.getByRole('navigation', { name: 'Areas' });
    expect(await nav.getByRole('link', { name: 'Catalog' }).getAttribute('href')).toBe('/catalog');
    const entries = await nav.getByRole('link').allTextContents();
    expect(entries.indexOf('Catalog')).toBeGreaterThan(entries.indexOf('Health'));
    const summary = page.getByRole('table', { name: 'Catalog summary' });
    const deployments = summary.getByRole('row', { name: /Kubernetes::Deployment/ });
    await deployments.getByRole('img', { name: '1 healthy, 1 warning' }).waitFor();
    await summary.getByRole('row', { name: /Kubernetes::Pod/ }).getByRole('img', { name: '1 unhealthy' }).waitFor();
    await page.getByText('5 items in 4 groups').waitFor();

    // A type's items, a page from the server: its row is a link (keyboard reachable).
    await deployments.getByRole('link', { name: 'Kubernetes::Deployment' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((current) => current.searchParams.get('type') === 'Kubernetes::Deployment');
    const items = page.getByRole('table', { name: 'Config items' });
    await items.getByRole('row', { name: /\bapi\b/ }).waitFor();
    await items.getByRole('row', { name: /\bweb\b/ }).getByText('Warning').waitFor();
    await page.getByText('2 items of type Kubernetes::Deployment').waitFor();

    await page.getByRole('button', { name: 'Health: All' }).click();
    await page.getByRole('button', { name: 'Include warning' }).click();
    await page.keyboard.press('Escape');
    await page.waitForURL((current) => current.searchParams.get('health') === 'warning');
    await items.getByRole('row', { name: /\bapi\b/ }).waitFor({ state: 'detached' });
    await page.getByText('1 item of type Kubernetes::Deployment').waitFor();

    await items.getByRole('link', { name: 'web', exact: true }).click();
    await page.waitForURL((current) => current.pathname === `/catalog/${ids.get('web') ?? ''}`);
  });

  it('shows an item: breadcrumb up its parents, health, tags, the id to copy, its config as YAML or JSON', async () => {
    const page = journey.page();
    const id = ids.get('web') ?? '';
    await journey.browser().context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: journey.server().url });
    await page.goto(url(`/catalog/${id}`));
    await page.getByRole('heading', { name: 'web', level: 1 }).waitFor();
    await page.waitForFunction(() => document.title === 'web | Watchkeeper');
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    await breadcrumb.getByRole('link', { name: 'shop' }).waitFor();
    expect((await breadcrumb.textContent())?.replace(/\s+/g, '')).toBe('Catalog/Kubernetes::Deployment/shop/web');
    const item = page.getByRole('region', { name: 'Config item' });
    await item.getByRole('img', { name: 'Warning' }).waitFor();
    await item.getByText('· 1/2 ready').waitFor();
    expect(await item.getByRole('list', { name: 'Tags' }).getByRole('listitem').first().textContent()).toBe('namespace: shop');
    await item.getByRole('list', { name: 'Labels' }).getByText('web').waitFor();

    await item.getByRole('button', { name: 'Copy ID' }).click();
    await page.getByText(`Copied ${id} to clipboard`, { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);

    const yaml = page.getByRole('textbox', { name: 'Config (YAML)' });
    await yaml.getByText('kind: Deployment').waitFor();
    await page.getByRole('group', { name: 'Format' }).getByRole('button', { name: 'JSON' }).click();
    await page.waitForURL((current) => current.searchParams.get('format') === 'json');
    await page.getByRole('textbox', { name: 'Config (JSON)' }).getByText('"kind": "Deployment",').waitFor();
  });

  it("compares with the change an edited manifest made, showing that change's diff", async () => {
    const page = journey.page();
    const id = ids.get('web') ?? '';
    await fs.writeFile(path.join(folder, 'web.yaml'), deployment('web', 3, 1));
    expect(await runScraper(page)).toMatchObject({ updated: 1, changes: 1, errors: [] });

    await page.goto(url(`/catalog/${id}`));
    await page.getByRole('region', { name: 'Config item' }).getByText('· 1/3 ready').waitFor();
    const compare = page.getByLabel('Compare with');
    await compare.locator('option', { hasText: 'diff' }).waitFor({ state: 'attached' });
    await compare.selectOption({ index: 1 });
    await page.waitForURL((current) => current.searchParams.has('compare'));
    const diff = page.getByLabel('Change diff');
    await diff.waitFor();
    const lines = (await diff.locator('[data-diff]').allTextContents()).map((line) => line.trimEnd());
    expect(lines.some((line) => /^-\s+replicas: 2$/.test(line))).toBe(true);
    expect(lines.some((line) => /^\+\s+replicas: 3$/.test(line))).toBe(true);
    expect(await diff.locator('[data-diff="add"]').count()).toBeGreaterThan(0);
    expect(await diff.locator('[data-diff="remove"]').count()).toBeGreaterThan(0);

    // Back to the current config.
    await compare.selectOption('');
    await page.waitForURL((current) => !current.searchParams.has('compare'));
    await page.getByRole('textbox', { name: /^Config/ }).getByText(/replicas/).first().waitFor();
  });

  it('walks the relationships as a graph, with depth and direction in the URL', async () => {
    const page = journey.page();
    const id = ids.get('web') ?? '';
    await page.goto(url(`/catalog/${id}`));
    await page.getByRole('navigation', { name: 'Config sections' }).getByRole('link', { name: /Relationships/ }).click();
    await page.waitForURL((current) => current.pathname === `/catalog/${id}/relationships`);
    const graph = page.getByRole('group', { name: 'Relationship graph' });
    for (const name of ['shop', 'web-7d9', 'web-7d9-abc']) await graph.getByRole('link', { name: new RegExp(`^${name} Kubernetes::`) }).waitFor();
    const table = page.getByRole('table', { name: 'Related items' });
    expect(await table.getByRole('row').count()).toBe(4);

    await page.getByLabel('Depth').selectOption('1');
    await page.waitForURL((current) => current.searchParams.get('depth') === '1');
    await graph.getByRole('link', { name: /web-7d9-abc/ }).waitFor({ state: 'detached' });
    await page.getByText('2 related items').waitFor();

    await page.getByRole('group', { name: 'Direction' }).getByRole('button', { name: 'Incoming' }).click();
    await page.waitForURL((current) => current.searchParams.get('direction') === 'incoming');
    await graph.getByRole('link', { name: /web-7d9/ }).waitFor({ state: 'detached' });
    expect(params(page).get('depth')).toBe('1');

    // Nodes are links, reachable from the keyboard.
    const shop = graph.getByRole('link', { name: /shop/ });
    await shop.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((current) => current.pathname === `/catalog/${ids.get('shop') ?? ''}`);
    await page.getByRole('heading', { name: 'shop', level: 1 }).waitFor();
  });

  it('says when an item does not exist, and redirects /configs to /catalog with its query', async () => {
    const page = journey.page();
    await page.goto(url('/catalog/00000000-0000-4000-8000-000000000000'));
    await page.getByText('Config item not found').waitFor();

    await page.goto(url('/configs?type=Kubernetes::Pod'));
    await page.waitForURL((current) => current.pathname === '/catalog' && current.searchParams.get('type') === 'Kubernetes::Pod');
    await page.getByRole('table', { name: 'Config items' }).getByRole('row', { name: /web-7d9-abc/ }).waitFor();
  });
});
