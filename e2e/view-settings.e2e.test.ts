import { describe, expect, it } from 'vitest';
import { createUser, launchBrowser, signIn, useJourney } from './harness';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/**
 * Settings → Views (spec §2 /settings/views, Main sidebar views, issue 22): an admin writes a view in the
 * Form tab, finds it in the list and the sidebar, opens it, changes it in the Code tab (a bad column type
 * is named by its path and nothing is saved), and deletes it after a confirmation; a viewer reads views
 * but has no Add or Delete, and a view from a file is read-only with the reason.
 */
describe('view settings', () => {
  const journey = useJourney({ signIn: true });
  const url = (path: string) => `${journey.server().url}${path}`;
  const query = (sql: string, values: unknown[] = []) => journey.server().pool.query(sql, values);
  const sidebar = () => journey.page().getByRole('complementary', { name: 'Main navigation' });

  it('creates a view in the Form tab, lists it, shows it in the sidebar, edits it in Code, then deletes it', async () => {
    const page = journey.page();
    await query("INSERT INTO config_items (type, name, config) VALUES ('E2E::Deployment', 'orders-api', '{}')");

    await page.goto(url('/settings/views'));
    await page.getByText('No views yet').waitFor();
    await page.getByRole('button', { name: 'Add view' }).click();
    await page.waitForURL(url('/settings/views/new'));

    await page.getByLabel('Name', { exact: true }).fill('e2e-deployments');
    await page.getByLabel('Title', { exact: true }).fill('E2E Deployments');
    await page.getByLabel('Icon', { exact: true }).fill('layers');
    await page.getByRole('switch', { name: 'Show in the sidebar' }).click();
    await page.getByLabel('Ordinal', { exact: true }).fill('1');

    await page.getByRole('button', { name: 'Add query' }).click();
    await page.getByRole('menuitem', { name: 'configs' }).click();
    await page.getByLabel('Types of query 1').fill('E2E::Deployment');

    const columns = page.getByRole('region', { name: 'Columns' });
    await columns.getByRole('button', { name: 'Add column' }).click();
    await columns.getByLabel('Column 1 name').fill('name');
    await columns.getByLabel('Primary key').first().check();
    await columns.getByRole('button', { name: 'Add column' }).click();
    await columns.getByLabel('Column 2 name').fill('type');
    await columns.getByRole('combobox', { name: 'Type of column 2' }).click();
    await page.getByRole('option', { name: 'badge' }).click();

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('View created successfully').first().waitFor();
    await page.waitForURL(new RegExp(`/settings/views\\?saved=${UUID}$`));
    const id = new URL(page.url()).searchParams.get('saved') ?? '';
    expect((await query('SELECT name, namespace, source, sidebar, ordinal, title, spec FROM views WHERE id = $1', [id])).rows).toEqual([
      {
        name: 'e2e-deployments',
        namespace: 'default',
        source: 'UI',
        sidebar: true,
        ordinal: 1,
        title: 'E2E Deployments',
        spec: {
          display: { title: 'E2E Deployments', icon: 'layers', sidebar: true, ordinal: 1 },
          queries: { configs: { configs: { types: ['E2E::Deployment'] } } },
          columns: [
            { name: 'name', type: 'string', primaryKey: true },
            { name: 'type', type: 'badge' },
          ],
        },
      },
    ]);

    // Back on the list: the row, and the offer to open the saved view.
    const table = page.getByRole('table', { name: 'Views' });
    const row = table.getByRole('row').filter({ hasText: 'e2e-deployments' });
    await row.getByText('E2E Deployments').waitFor();
    await row.getByText('Yes').waitFor();
    await page.getByRole('status').filter({ hasText: 'The view is saved.' }).getByRole('link', { name: 'Open view' }).waitFor();

    // The sidebar lists it after the fixed items; it opens the view page.
    const entry = sidebar().getByRole('list', { name: 'Views' }).getByRole('link', { name: 'E2E Deployments' });
    await entry.click();
    await page.waitForURL(url(`/views/${id}`));
    await page.getByRole('heading', { name: 'E2E Deployments', level: 2 }).waitFor();
    await page.getByRole('cell', { name: 'orders-api' }).first().waitFor({ timeout: 30_000 });

    // Code tab: a column of no known type is named by its path, and the save is refused.
    await page.goto(url(`/settings/views/${id}`));
    await page.getByRole('tab', { name: 'Code' }).click();
    const editor = page.locator('.cm-content');
    await editor.waitFor();
    await editor.click();
    await page.keyboard.press('Control+A');
    const yaml = (type: string, title: string) =>
      [
        'apiVersion: mission-control.flanksource.com/v1',
        'kind: View',
        'metadata:',
        '  name: e2e-deployments',
        '  namespace: default',
        'spec:',
        '  display:',
        `    title: ${title}`,
        '    icon: layers',
        '    sidebar: true',
        '    ordinal: 1',
        '  queries:',
        '    configs:',
        '      configs:',
        '        types: [E2E::Deployment]',
        '  columns:',
        '    - name: name',
        '      type: string',
        '      primaryKey: true',
        '    - name: type',
        `      type: ${type}`,
        '',
      ].join('\n');
    await page.keyboard.insertText(yaml('sparkline', 'Broken'));
    const problems = page.getByRole('region', { name: 'Problems' });
    const badType = problems.getByText(/spec\.columns\[1\]\.type/).first();
    await badType.waitFor();
    await page.getByRole('button', { name: 'Update', exact: true }).click();
    await page.getByText('Not saved: the server found problems, shown in the YAML.').waitFor();
    expect((await query("SELECT title, spec->'columns'->1->>'type' AS type FROM views WHERE id = $1", [id])).rows).toEqual([{ title: 'E2E Deployments', type: 'badge' }]);

    // Fixed, it saves and the list shows the new title.
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(yaml('status', 'E2E Rollouts'));
    await badType.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Update', exact: true }).click();
    await page.getByText('e2e-deployments updated successfully').first().waitFor();
    await page.waitForURL(new RegExp(`/settings/views\\?saved=${id}$`));
    await table.getByRole('row').filter({ hasText: 'e2e-deployments' }).getByText('E2E Rollouts').waitFor();
    await sidebar().getByRole('link', { name: 'E2E Rollouts' }).waitFor();
    expect((await query("SELECT title, spec->'columns'->1->>'type' AS type FROM views WHERE id = $1", [id])).rows).toEqual([{ title: 'E2E Rollouts', type: 'status' }]);

    // Delete asks first; Cancel keeps the view, Delete removes it from the list and the sidebar.
    await table.getByRole('row').filter({ hasText: 'e2e-deployments' }).click();
    await page.waitForURL(url(`/settings/views/${id}`));
    await page.getByRole('button', { name: 'Delete' }).first().click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete View' });
    await dialog.getByText('Are you sure you want to delete e2e-deployments?').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await query('SELECT deleted_at FROM views WHERE id = $1', [id])).rows).toEqual([{ deleted_at: null }]);
    await page.getByRole('button', { name: 'Delete' }).first().click();
    await page.getByRole('alertdialog', { name: 'Delete View' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('e2e-deployments deleted successfully').first().waitFor();
    await page.waitForURL(url('/settings/views'));
    await page.getByText('No views yet').waitFor();
    await sidebar().getByRole('link', { name: 'E2E Rollouts' }).waitFor({ state: 'detached' });
    const deleted = await query('SELECT deleted_at FROM views WHERE id = $1', [id]);
    expect(deleted.rows[0]?.deleted_at).not.toBeNull();
  });

  it('shows a viewer the views without Add or Delete, and a view from a file as read-only with the reason', async () => {
    const spec = { display: { title: 'Viewer sees this' }, queries: { all: { configs: { types: ['E2E::Any'] } } }, columns: [{ name: 'name', type: 'string', primaryKey: true }] };
    const created = await journey.page().request.post(url('/api/views'), { data: { name: 'e2e-readable', namespace: 'default', labels: {}, spec } });
    expect(created.status(), await created.text()).toBe(201);
    const uiId = String((await created.json()).id);
    const fromFile = await query("INSERT INTO views (name, namespace, spec, source, title) VALUES ('e2e-from-file', 'default', $1, 'KubernetesCRD', 'From a file') RETURNING id", [JSON.stringify(spec)]);
    const fileId = String(fromFile.rows[0]?.id);

    // The admin: a file's view is read-only here, with the reason, and cannot be deleted.
    const admin = journey.page();
    await admin.goto(url(`/settings/views/${fileId}`));
    await admin.getByText('This view comes from KubernetesCRD; it is read-only here: change it where it is defined.').waitFor();
    expect(await admin.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await admin.getByRole('button', { name: 'Update', exact: true }).count()).toBe(0);

    await createUser(journey.server(), { email: 'viewer@example.com', password: 'viewer passphrase 42', roles: ['viewer'] });
    const viewer = await launchBrowser();
    try {
      await signIn(viewer.page, journey.server(), 'viewer@example.com', 'viewer passphrase 42');
      await viewer.page.goto(url('/settings/views'));
      const table = viewer.page.getByRole('table', { name: 'Views' });
      await table.getByRole('row').filter({ hasText: 'e2e-readable' }).waitFor();
      await table.getByRole('row').filter({ hasText: 'e2e-from-file' }).waitFor();
      expect(await viewer.page.getByRole('button', { name: 'Add view' }).count()).toBe(0);
      await table.getByRole('row').filter({ hasText: 'e2e-readable' }).click();
      await viewer.page.waitForURL(url(`/settings/views/${uiId}`));
      await viewer.page.getByText('You may read this view but not change it.').waitFor();
      await viewer.page.getByRole('link', { name: 'Open view' }).waitFor();
      expect(await viewer.page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
      expect(await viewer.page.getByRole('button', { name: 'Update', exact: true }).count()).toBe(0);
      expect((await viewer.page.request.delete(url(`/api/views/${uiId}`))).status()).toBe(403);
      await viewer.page.goto(url('/settings/views/new'));
      await viewer.page.getByText('You do not have permission to access this page').waitFor();
    } finally {
      await viewer.close();
    }
  });
});
