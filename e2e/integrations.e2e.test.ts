import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signIn, useJourney } from './harness';

/**
 * Settings → Integrations (spec §2 /settings/integrations, /settings/integrations/{type}/{id}, the Add
 * Integration modal and the GitOps wizard; §7 /integrations_with_status; §9 GitOps defaults).
 */
describe('integrations', () => {
  const journey = useJourney({ signIn: true });
  const url = (p: string) => `${journey.server().url}${p}`;
  const query = (sql: string, values: unknown[] = []) => journey.server().pool.query(sql, values);
  let folder = '';
  let scraperId = '';
  let topologyId = '';

  beforeAll(async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-e2e-integrations-'));
    await fs.writeFile(path.join(folder, 'hosts.json'), JSON.stringify([{ hostname: 'web-1', up: true }, { hostname: 'db-1', up: true }]));
  });
  afterAll(() => fs.rm(folder, { recursive: true, force: true }));

  async function waitFor<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
    for (let attempt = 0; attempt < 150; attempt += 1) {
      const value = await read();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  it('lists a scraper and a topology made through the API, with their health and last run, searched and filtered', async () => {
    const page = journey.page();
    const scraper = await page.request.post(url('/api/catalog/scrapers'), {
      data: { name: 'e2e-hosts', namespace: 'ops', spec: { file: [{ paths: [path.join(folder, 'hosts.json')], type: 'Host', id: '$.hostname', name: '$.hostname' }] } },
    });
    expect(scraper.status(), await scraper.text()).toBe(201);
    scraperId = String(((await scraper.json()) as { id: string }).id);
    const run = await page.request.post(url(`/api/config/run/${scraperId}`), { data: {} });
    expect(run.status(), await run.text()).toBe(200);
    const topology = await page.request.post(url('/api/canary/topologies'), {
      data: { name: 'e2e-shop', namespace: 'default', labels: { team: 'web' }, spec: { type: 'Application', components: [{ name: 'storefront', type: 'Service' }] } },
    });
    expect(topology.status(), await topology.text()).toBe(201);
    topologyId = String(((await topology.json()) as { id: string }).id);
    const runs = await waitFor(async () => {
      const { rows } = await query(`SELECT resource_id, status FROM job_history WHERE resource_id = ANY($1) AND status <> 'RUNNING'`, [[scraperId, topologyId]]);
      return rows.length >= 2 ? rows : undefined;
    }, 'the scraper and topology runs');
    expect(runs.map((row: { status: string }) => row.status)).toEqual(['SUCCESS', 'SUCCESS']);

    await page.goto(url('/catalog'));
    const sidebar = page.getByRole('complementary', { name: 'Main navigation' });
    await sidebar.getByRole('button', { name: 'Settings' }).click();
    await sidebar.getByRole('link', { name: 'Integrations' }).click();
    await page.waitForURL(url('/settings/integrations'));
    await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Integrations' });
    const scraperRow = table.getByRole('row', { name: /e2e-hosts/ });
    await scraperRow.getByText('Catalog Scraper').waitFor();
    await scraperRow.getByText('ops', { exact: true }).waitFor();
    await scraperRow.getByText('healthy', { exact: true }).waitFor();
    await scraperRow.getByText('SUCCESS').waitFor();
    await scraperRow.getByText('local', { exact: true }).waitFor();
    const topologyRow = table.getByRole('row', { name: /e2e-shop/ });
    await topologyRow.getByText('Topology', { exact: true }).waitFor();
    await topologyRow.getByText('healthy', { exact: true }).waitFor();
    await topologyRow.getByText(/ago/).waitFor();

    // Search narrows the rows (in the URL), the type filter too.
    await page.getByRole('searchbox', { name: 'Search integrations' }).fill('e2e-shop');
    await page.waitForURL(/search=e2e-shop/);
    await table.getByRole('row', { name: /e2e-hosts/ }).waitFor({ state: 'detached' });
    await topologyRow.waitFor();
    await page.getByRole('searchbox', { name: 'Search integrations' }).fill('');
    await page.waitForURL((u) => !u.search.includes('search='));
    await page.getByLabel('Type').selectOption('scrapers');
    await page.waitForURL(/type=scrapers/);
    await scraperRow.waitFor();
    expect(await table.getByRole('row', { name: /e2e-shop/ }).count()).toBe(0);
    await page.getByLabel('Type').selectOption('all');
    await topologyRow.waitFor();
  });

  it('opens a topology and edits it with the Topology form; Update returns to the list', async () => {
    const page = journey.page();
    await page.getByRole('table', { name: 'Integrations' }).getByRole('row', { name: /e2e-shop/ }).click();
    await page.waitForURL(url(`/settings/integrations/topologies/${topologyId}`));
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('e2e-shop').waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('e2e-shop');
    expect(await page.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).waitFor();
    const spec = page.getByLabel('Spec (YAML)');
    expect(await spec.inputValue()).toContain('storefront');
    await spec.fill('type: Application\ncomponents:\n  - name: storefront\n    type: Service\n  - name: checkout\n    type: Service\n');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Topology updated successfully').waitFor();
    await page.waitForURL(url('/settings/integrations'));
    const { rows } = await query('SELECT spec FROM topologies WHERE id = $1', [topologyId]);
    expect(JSON.stringify(rows[0]?.spec)).toContain('checkout');
  });

  it('Add Integration: search, pick Prometheus, fill the generated form and see the Flux and Helm CLI previews follow', async () => {
    const page = journey.page();
    await page.getByRole('button', { name: 'Add Integration' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Integration - All' });
    await dialog.getByRole('region', { name: 'Add via GitOps' }).waitFor();
    const gitops = dialog.getByRole('region', { name: 'Add via GitOps' });
    for (const name of ['AWS', 'Azure', 'Prometheus', 'Flux', 'Kubernetes', 'Mission Control']) await gitops.getByRole('button', { name: new RegExp(`^${name} `) }).waitFor();
    for (const name of ['Custom Topology', 'Catalog Scraper', 'Log Backends']) await dialog.getByRole('region', { name: 'Add Directly' }).getByRole('button', { name: new RegExp(`^${name} `) }).waitFor();

    await dialog.getByRole('searchbox', { name: 'Search integrations' }).fill('prometheus');
    await gitops.getByRole('button', { name: /^Azure / }).waitFor({ state: 'detached' });
    expect(await dialog.getByRole('region', { name: 'Add Directly' }).count()).toBe(0);
    await gitops.getByRole('button', { name: /^Prometheus / }).click();

    const wizard = page.getByRole('dialog', { name: 'Add Integration - Prometheus' });
    await wizard.getByText('mission-control-prometheus 0.1.1').waitFor();
    expect(await wizard.getByLabel('Namespace', { exact: true }).inputValue()).toBe('mission-control');
    const urlField = wizard.getByLabel('prometheusURL', { exact: true });
    expect(await urlField.inputValue()).toBe('http://prometheus.monitoring.svc:9090');
    await urlField.fill('http://prom.example.internal:9090');
    await wizard.getByLabel('topologyName', { exact: true }).fill('observability');

    const flux = wizard.getByLabel('Flux manifests', { exact: true });
    await wizard.getByText('You will need to have Kubernetes chart installed in flux to use this option.').waitFor();
    await expect.poll(() => flux.textContent()).toContain('prometheusURL: http://prom.example.internal:9090');
    const fluxText = (await flux.textContent()) ?? '';
    expect(fluxText).toContain('kind: HelmRepository');
    expect(fluxText).toContain('url: https://flanksource.github.io/charts');
    expect(fluxText).toContain('kind: HelmRelease');
    expect(fluxText).toContain('interval: 30m');
    expect(fluxText).toContain('namespace: mission-control');
    expect(fluxText).toContain('topologyName: observability');
    expect(fluxText).toContain('version: 0.1.1');
    await wizard.getByRole('button', { name: 'Copy Flux manifests' }).waitFor();

    // The Values editor follows the form; a required value removed is a problem named by its path.
    await wizard.getByRole('textbox', { name: 'Values YAML' }).getByText('prom.example.internal', { exact: false }).waitFor();
    await wizard.getByLabel('topologyName', { exact: true }).fill('');
    await wizard.getByRole('region', { name: 'Problems' }).getByText('topologyName: is required').waitFor();
    await wizard.getByLabel('topologyName', { exact: true }).fill('observability');
    await wizard.getByRole('region', { name: 'Problems' }).waitFor({ state: 'detached' });

    await wizard.getByLabel('Namespace', { exact: true }).fill('monitoring');
    await wizard.getByRole('tab', { name: 'Helm CLI' }).click();
    const helm = wizard.getByLabel('Helm commands', { exact: true });
    await wizard.getByText('You will need to have Kubernetes chart installed in flux to use this option.').waitFor();
    await expect.poll(() => helm.textContent()).toContain('helm install mission-control-prometheus flanksource/mission-control-prometheus --version 0.1.1 -n monitoring --create-namespace -f values.yaml');
    const helmText = (await helm.textContent()) ?? '';
    expect(helmText).toContain('helm repo add flanksource https://flanksource.github.io/charts');
    expect(helmText).toContain('prometheusURL: http://prom.example.internal:9090');
    await wizard.getByRole('button', { name: 'Copy Helm commands' }).waitFor();

    // The other way round: values typed in the Values editor fill the form and the preview.
    await wizard.getByRole('textbox', { name: 'Values YAML' }).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('prometheusURL: http://typed.example:9090\ntopologyName: typed\n');
    await expect.poll(() => urlField.inputValue()).toBe('http://typed.example:9090');
    expect(await wizard.getByLabel('topologyName', { exact: true }).inputValue()).toBe('typed');
    await expect.poll(() => helm.textContent()).toContain('topologyName: typed');
    await wizard.getByRole('button', { name: 'Close' }).click();
    await wizard.waitFor({ state: 'detached' });
  });

  it("Add Directly → Custom Topology: the Topology form creates it and returns to /settings/integrations", async () => {
    const page = journey.page();
    await page.getByRole('button', { name: 'Add Integration' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Integration - All' });
    await dialog.getByRole('region', { name: 'Add Directly' }).getByRole('button', { name: /^Custom Topology / }).click();
    await page.waitForURL(url('/settings/integrations/topologies/new'));
    await page.getByLabel('Name', { exact: true }).fill('e2e-direct');
    await page.getByLabel('Namespace', { exact: true }).fill('ops');
    await page.getByLabel('Spec (YAML)').fill('type: Application\ncomponents:\n  - name: api\n    type: Service\n');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Topology created successfully').waitFor();
    await page.waitForURL(url('/settings/integrations'));
    await page.getByRole('table', { name: 'Integrations' }).getByRole('row', { name: /e2e-direct/ }).waitFor();
    const { rows } = await query(`SELECT namespace, source FROM topologies WHERE name = 'e2e-direct' AND deleted_at IS NULL`);
    expect(rows).toEqual([{ namespace: 'ops', source: 'UI' }]);
  });

  it('shows a resource from another source read-only, and the detail page needs write on integrations', async () => {
    const page = journey.page();
    await query(`UPDATE topologies SET source = 'KubernetesCRD' WHERE name = 'e2e-direct'`);
    const { rows } = await query(`SELECT id FROM topologies WHERE name = 'e2e-direct'`);
    const id = String(rows[0]?.id);
    await page.goto(url(`/settings/integrations/topologies/${id}`));
    await page.getByText('This topology comes from KubernetesCRD and is read-only here: change it where it is defined.').waitFor();
    expect(await page.getByLabel('Spec (YAML)').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Update' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);

    // A viewer reads the list but may not open the editor (spec §6: write needed), nor add.
    await createUser(journey.server(), { email: 'viewer@example.com', password: 'viewer-e2e-password-1', name: 'Vera Viewer', roles: ['viewer'] });
    await page.context().clearCookies();
    await signIn(page, journey.server(), 'viewer@example.com', 'viewer-e2e-password-1');
    await page.goto(url('/settings/integrations'));
    await page.getByRole('table', { name: 'Integrations' }).getByRole('row', { name: /e2e-direct/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Add Integration' }).count()).toBe(0);
    await page.goto(url(`/settings/integrations/topologies/${id}`));
    await page.getByText('You do not have permission to access this page').waitFor();
  });
});
