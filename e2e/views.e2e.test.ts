import { describe, expect, it } from 'vitest';
import { useJourney } from './harness';

/**
 * Views (issue 22; spec §2 /views/{id}, /view/{namespace}/{name}, /catalog/{id}/view/{viewId}, §7 error
 * text): a view over seeded catalog items, opened from the sidebar as a person would, with its panels,
 * rows, sorting, a column filter, paging, a variable in the URL, Refresh, its name URL, the catalog tab
 * of an item, and a view whose query fails.
 */
describe('views', () => {
  const journey = useJourney({ signIn: true });
  const url = (path: string) => `${journey.server().url}${path}`;
  const query = (sql: string, values: unknown[] = []) => journey.server().pool.query(sql, values);

  async function createView(name: string, spec: Record<string, unknown>): Promise<string> {
    const created = await journey.page().request.post(url('/api/views'), { data: { name, namespace: 'default', labels: {}, spec } });
    expect(created.status(), await created.text()).toBe(201);
    const body: unknown = await created.json();
    const id = body && typeof body === 'object' ? Reflect.get(body, 'id') : undefined;
    expect(typeof id).toBe('string');
    return String(id);
  }

  it('shows a view with panels and rows; sorts, filters, pages, changes a variable, refreshes, and opens by name and as a catalog tab', async () => {
    const page = journey.page();
    await query("INSERT INTO config_items (type, name, config, tags) VALUES ('E2E::Namespace', 'data', '{}', '{}'), ('E2E::Namespace', 'prod', '{}', '{}')");
    // 55 pods in prod (two pages of 50), 3 in data; cpu is 1000 - i so sorting by cpu reverses the names.
    const healths = ['healthy', 'warning', 'unhealthy'];
    for (let i = 1; i <= 55; i += 1) {
      await query("INSERT INTO config_items (type, name, config, tags, health) VALUES ('E2E::Pod', $1, $2, '{\"namespace\":\"prod\"}', $3)", [
        `pod-${String(i).padStart(2, '0')}`,
        JSON.stringify({ cpu: 1000 - i }),
        healths[i % 3],
      ]);
    }
    for (const name of ['db-1', 'db-2', 'db-3']) {
      await query("INSERT INTO config_items (type, name, config, tags, health) VALUES ('E2E::Pod', $1, '{\"cpu\": 5}', '{\"namespace\":\"data\"}', 'healthy')", [name]);
    }
    const podId = String((await query("SELECT id FROM config_items WHERE name = 'pod-01'")).rows[0]?.id);

    const viewId = await createView('e2e-pods', {
      display: { title: 'E2E Pods', sidebar: true, ordinal: 1, plugins: [{ configTab: { types: ['E2E::Pod'] } }] },
      cache: { maxAge: '1h', minAge: '1s' },
      templating: [{ key: 'namespace', label: 'Namespace', values: ['prod', 'data'] }],
      columns: [
        { name: 'id', type: 'string', hidden: true },
        { name: 'name', type: 'string', primaryKey: true, url: { config: 'row.id' } },
        { name: 'health', type: 'health', filter: { type: 'multiselect' } },
        { name: 'cpu', type: 'number', unit: 'm' },
      ],
      queries: { pods: { configs: { types: ['E2E::Pod'], tagSelector: 'namespace=$(var.namespace)' } } },
      mapping: { cpu: 'row.config.cpu' },
      panels: [
        { name: 'By health', type: 'piechart', query: 'SELECT health, COUNT(*) AS count FROM pods GROUP BY health ORDER BY health' },
        { name: 'Pod count', type: 'number', number: { unit: ' pods' }, query: 'SELECT COUNT(*) AS value FROM pods' },
        { name: 'Pods created', type: 'timeseries', query: 'SELECT created_at AS timestamp, COUNT(*) AS value FROM pods GROUP BY created_at ORDER BY created_at' },
      ],
    });

    // Through the sidebar entry the view asks for.
    await page.goto(url('/health'));
    await page.getByRole('complementary', { name: 'Main navigation' }).getByRole('link', { name: 'E2E Pods' }).click();
    await page.waitForURL(url(`/views/${viewId}`));
    await page.getByRole('heading', { name: 'E2E Pods' }).first().waitFor();
    await page.getByRole('region', { name: 'Pod count' }).getByText('55 pods').waitFor();
    await page.getByRole('region', { name: 'By health' }).getByText('warning', { exact: true }).waitFor();
    // The timeseries panel is the console's time chart (uPlot): hovering reads a point's time and value.
    const created = page.getByRole('region', { name: 'Pods created' });
    await created.getByRole('img', { name: /^Pods created: 1 series of value over time, up to \d+$/ }).waitFor();
    // A tooltip shows for a point within 32 px of the cursor: the points sit where the inserts' times fell (a
    // pause while inserting leaves a gap), so the cursor moves across the plot until it is near one.
    const plot = created.locator('.u-over');
    const box = await plot.boundingBox();
    const width = box?.width ?? 100;
    for (let step = 0; step < 24; step += 1) {
      await plot.hover({ position: { x: Math.min(width - 1, ((step + 0.5) * width) / 24), y: (box?.height ?? 2) / 2 } });
      if ((await page.getByRole('tooltip').count()) > 0) break;
    }
    expect(await page.getByRole('tooltip').textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}value\d+$/);
    await page.mouse.move(0, 0);
    const table = page.getByRole('table', { name: 'E2E Pods' });
    await table.getByRole('link', { name: 'pod-01' }).waitFor();
    await page.getByText('Showing 1–50 of 55').waitFor();
    expect(await table.getByRole('columnheader', { name: 'id' }).count()).toBe(0);
    expect(await table.getByRole('link', { name: 'pod-01' }).getAttribute('href')).toBe(`/catalog/${podId}`);

    // Sort by cpu (server side): the smallest cpu is pod-55.
    await table.getByRole('button', { name: 'cpu' }).click();
    await page.waitForURL(/sortBy=cpu&sortOrder=asc/);
    await table.getByRole('row').nth(1).getByText('pod-55').waitFor();
    await table.getByRole('row').nth(1).getByText('945 m').waitFor();

    // Page 2 holds the last 5.
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Showing 51–55 of 55').waitFor();
    await page.waitForURL(/page=2/);

    // Filter by name (contains) and by health (multiselect of the column's values).
    await page.getByRole('button', { name: /^Filter name/ }).click();
    await page.getByRole('searchbox', { name: 'name contains' }).fill('pod-0');
    await page.getByText('Showing 1–9 of 9').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /^Filter health/ }).click();
    await page.getByRole('dialog', { name: 'Filter health' }).getByRole('checkbox', { name: 'warning' }).check();
    await page.getByText('Showing 1–3 of 3').waitFor();
    expect(new URL(page.url()).searchParams.getAll('filter-health')).toEqual(['warning']);
    await page.keyboard.press('Escape');

    // A variable: the URL changes and so do the rows.
    await page.goto(url(`/views/${viewId}`));
    await table.getByRole('link', { name: 'pod-01' }).waitFor();
    await page.getByLabel('Namespace').selectOption('data');
    await page.waitForURL(/var-namespace=data/);
    await table.getByRole('link', { name: 'db-1' }).waitFor();
    await page.getByText('Showing 1–3 of 3').waitFor();
    expect(await table.getByRole('link', { name: 'pod-01' }).count()).toBe(0);

    // Refresh: an old refresh reads its age; Refresh brings it back to now.
    await query("UPDATE view_refreshes SET refreshed_at = now() - interval '5 minutes' WHERE view_id = $1", [viewId]);
    await page.reload();
    await page.getByText('Refreshed 5 minutes ago').waitFor();
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await page.getByText('Refreshed just now').waitFor();

    // By name, with a Mission Control style plain variable key.
    await page.goto(url('/view/default/e2e-pods?namespace=data'));
    await page.getByRole('table', { name: 'E2E Pods' }).getByRole('link', { name: 'db-2' }).waitFor();
    await page.goto(url('/view/e2e-pods'));
    await page.getByRole('table', { name: 'E2E Pods' }).getByRole('link', { name: 'pod-01' }).waitFor();

    // The item's tab.
    await page.goto(url(`/catalog/${podId}`));
    await page.getByRole('navigation', { name: 'Config sections' }).getByRole('link', { name: 'E2E Pods' }).click();
    await page.waitForURL(url(`/catalog/${podId}/view/${viewId}`));
    await page.getByRole('table', { name: 'E2E Pods' }).getByRole('link', { name: 'pod-01' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Config sections' }).getByRole('link', { name: 'E2E Pods' }).getAttribute('aria-current')).toBe('page');
  });

  it("shows a failing view's error text and a missing view's, never a blank page", async () => {
    const page = journey.page();
    const broken = await createView('e2e-broken', {
      display: { title: 'Broken view' },
      columns: [{ name: 'name', type: 'string', primaryKey: true }],
      queries: { rows: { sql: { url: 'postgres://postgres@127.0.0.1:1/none', query: 'SELECT 1' } } },
    });
    await page.goto(url(`/views/${broken}`));
    await page.getByRole('heading', { name: 'Broken view' }).first().waitFor();
    const banner = page.getByRole('alert').filter({ hasText: 'The last refresh failed' });
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/ECONNREFUSED|connect/i);

    await page.goto(url('/views/00000000-0000-4000-8000-000000000000'));
    await page.getByRole('alert').getByText('view 00000000-0000-4000-8000-000000000000 not found').waitFor();
    await page.goto(url('/view/default/nope'));
    await page.getByRole('alert').getByText('view default/nope not found').waitFor();
  });
});
