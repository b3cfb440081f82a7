import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useJourney } from './harness';

/**
 * Topology (spec §2 /topology, /topology/{id}, /view/topology/{id}, the Topology form): a topology made
 * in Settings over pods a scraper found, read on the dashboard the way a person reads it.
 */
describe('topology', () => {
  const journey = useJourney({ signIn: true });
  const url = (to: string) => `${journey.server().url}${to}`;
  let folder = '';

  const pod = (name: string, ready: boolean) => `
apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: shop, uid: pod-${name}, labels: {app: web}}
status:
  phase: Running
  conditions: [{type: Ready, status: "${ready ? 'True' : 'False'}"}]
  containerStatuses: [{name: web, ${ready ? 'ready: true, state: {running: {}}' : 'state: {waiting: {reason: CrashLoopBackOff}}'}}]
`;

  beforeAll(async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-e2e-topology-'));
    await fs.writeFile(path.join(folder, 'web-1.yaml'), pod('web-1', true));
    await fs.writeFile(path.join(folder, 'web-2.yaml'), pod('web-2', false));
  });
  afterAll(() => fs.rm(folder, { recursive: true, force: true }));

  it('makes a topology in Settings from the form, with a bad spec refused in place', async () => {
    const page = journey.page();
    const scraper = await page.request.post(url('/api/catalog/scrapers'), { data: { name: 'e2e-pods', spec: { schedule: '@never', file: [{ paths: [path.join(folder, '*.yaml')] }] } } });
    expect(scraper.status(), await scraper.text()).toBe(201);
    const scraped = await page.request.post(url(`/api/config/run/${String(((await scraper.json()) as { id: string }).id)}`), { data: {} });
    expect(scraped.status(), await scraped.text()).toBe(200);

    await page.goto(url('/settings/topologies'));
    await page.getByRole('heading', { name: 'Topologies', level: 1 }).waitFor();
    await page.getByText('No resources found').waitFor();
    await page.getByRole('link', { name: 'Add Topology' }).click();
    await page.waitForURL(url('/settings/topologies/new'));
    expect(await page.getByLabel('Namespace').inputValue()).toBe('default');
    await page.getByLabel('Name', { exact: true }).pressSequentially('shop');
    await page.getByRole('button', { name: 'Add label' }).click();
    await page.getByLabel('Label 1 key').fill('team');
    await page.getByLabel('Label 1 value').fill('web');
    const spec = page.getByRole('textbox', { name: 'Spec' });
    // A component without a name: the server names the field, nothing is saved.
    await spec.fill('schedule: "@never"\ncomponents:\n  - type: Service\n');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('spec.components[0].name', { exact: false }).first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/settings/topologies/new');

    await spec.fill(
      [
        'schedule: "@never"',
        'type: Application',
        'icon: store',
        'properties:',
        '  - {name: region, text: eu-west-1}',
        'components:',
        '  - name: Web',
        '    type: Service',
        '    owner: web',
        '    lookup:',
        '      configs: [{type: Kubernetes::Pod, namespace: shop}]',
        '  - name: Legacy',
        '    type: Service',
        '    hidden: true',
        '    health: unhealthy',
        '',
      ].join('\n'),
    );
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(url('/settings/topologies'));
    const row = page.getByRole('table', { name: 'Topologies' }).getByRole('row', { name: /shop/ });
    await row.waitFor();

    // Run it now from its Code tab, which also shows the resource as a file.
    await row.click();
    await page.getByRole('tab', { name: 'Code' }).click();
    await page.getByLabel('Topology YAML').getByText('kind: Topology').waitFor();
    await page.getByRole('button', { name: 'Run Now' }).click();
    await page.getByText(/Topology ran: 5 components/).waitFor();
  });

  it('opens the dashboard at / and reads the card: health, why, properties and children', async () => {
    const page = journey.page();
    await page.goto(url('/'));
    await page.waitForURL((u) => u.pathname === '/topology');
    const card = page.getByRole('article', { name: 'shop' });
    await card.waitFor();
    expect(await card.getAttribute('data-health')).toBe('unhealthy');
    await card.getByText('unhealthy: 2 of 2 services unhealthy').waitFor();
    await card.getByText('eu-west-1').waitFor();
    // Hidden components are shown by default (spec: showHiddenComponents defaults to yes) …
    await card.getByRole('link', { name: 'Legacy' }).waitFor();
    // … and left out, with their share of the roll-up, when the preference says no.
    await page.goto(url('/topology?showHiddenComponents=no'));
    await card.getByText('unhealthy: 1 of 1 services unhealthy').waitFor();
    expect(await card.getByRole('link', { name: 'Legacy' }).count()).toBe(0);

    // Filtering by health: nothing is healthy at the top.
    await page.getByRole('button', { name: 'Health: All' }).click();
    await page.getByRole('button', { name: 'Include healthy' }).click();
    await page.keyboard.press('Escape');
    await page.getByText('No components match the filters').waitFor();
    expect(new URL(page.url()).searchParams.get('health')).toBe('healthy');
    await page.getByRole('button', { name: /Clear filters/ }).click();
    await card.waitFor();
  });

  it('walks into a component, with breadcrumbs, its children as cards and its details', async () => {
    const page = journey.page();
    await page.goto(url('/topology'));
    await page.getByRole('article', { name: 'shop' }).getByRole('link', { name: 'shop' }).click();
    await page.waitForURL(/\/topology\/[0-9a-f-]{36}$/);
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    await breadcrumb.getByRole('link', { name: 'Dashboard' }).waitFor();
    const web = page.getByRole('article', { name: 'Web' });
    await web.getByText('unhealthy: 1 of 2 pods unhealthy').waitFor();
    await web.getByText('Team').waitFor();

    await web.getByRole('link', { name: 'Web' }).first().click();
    await breadcrumb.getByRole('link', { name: 'shop' }).waitFor();
    const pods = page.getByRole('list', { name: 'Components of Web' });
    await pods.getByRole('article', { name: 'web-2' }).waitFor();
    expect(await pods.getByRole('article').count()).toBe(2);
    // Sorted unhealthy first; by name on request.
    expect(await pods.getByRole('article').first().getAttribute('aria-label')).toBe('web-2');
    await page.getByLabel('Sort by').selectOption('name');
    await page.waitForURL(/sortBy=name/);
    // The list re-sorts once the answer for the new order arrives.
    await expect.poll(() => pods.getByRole('article').first().getAttribute('aria-label'), { timeout: 10_000 }).toBe('web-1');

    // A pod's page lists the config it is, linked to the catalog.
    await pods.getByRole('article', { name: 'web-2' }).getByRole('link', { name: 'web-2' }).click();
    const details = page.getByRole('complementary', { name: 'Details' });
    await details.getByRole('region', { name: 'Configs' }).getByRole('link', { name: 'web-2' }).waitFor();
    const podUrl = new URL(page.url()).pathname;

    // The card alone, to share.
    await page.goto(url(podUrl.replace('/topology/', '/view/topology/')));
    await page.getByRole('article', { name: 'web-2' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Breadcrumb' }).count()).toBe(0);
  });

  it('updates the topology, then deletes it after confirming, and the dashboard says how to add one', async () => {
    const page = journey.page();
    await page.goto(url('/settings/topologies'));
    await page.getByRole('table', { name: 'Topologies' }).getByRole('row', { name: /shop/ }).click();
    // Spec §5: name and namespace stay once it exists; the labels and spec change.
    expect(await page.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Label 1 value').inputValue()).toBe('web');
    const spec = page.getByRole('textbox', { name: 'Spec' });
    await spec.fill((await spec.inputValue()).replace('eu-west-1', 'eu-central-1'));
    await page.getByRole('button', { name: 'Update' }).click();
    await page.waitForURL(url('/settings/topologies'));
    // This topology is @never: it runs when asked (Run Now), and the dashboard then shows the new property.
    await page.getByRole('table', { name: 'Topologies' }).getByRole('row', { name: /shop/ }).click();
    await page.getByRole('tab', { name: 'Code' }).click();
    await page.getByLabel('Topology YAML').getByText('eu-central-1').waitFor();
    await page.getByRole('button', { name: 'Run Now' }).click();
    await page.getByText(/Topology ran: \d+ components/).waitFor();
    await page.goto(url('/topology'));
    await page.getByRole('article', { name: 'shop' }).getByText('eu-central-1').waitFor();

    await page.goto(url('/settings/topologies'));
    await page.getByRole('table', { name: 'Topologies' }).getByRole('row', { name: /shop/ }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('alertdialog', { name: 'Delete Topology' }).getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL(url('/settings/topologies'));
    await page.getByText('No resources found').waitFor();
    await page.goto(url('/topology'));
    await page.getByText('No components').waitFor();
    await page.getByRole('link', { name: 'Add a topology' }).waitFor();
  });
});
