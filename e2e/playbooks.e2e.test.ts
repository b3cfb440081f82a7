import { describe, expect, it } from 'vitest';
import { createUser, launchBrowser, signIn, useJourney } from './harness';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/**
 * Playbooks (spec §2 /playbooks, /playbooks/runs/{id}, §4 Run dialog, §5 run parameters): a playbook with an
 * exec action and a text parameter, applied through the API, run from the list with its parameter filled,
 * followed live to its end and its output; and the same from a config item's 'Run playbook' menu.
 */
describe('playbooks', () => {
  const journey = useJourney({ signIn: true });
  const url = (path: string) => `${journey.server().url}${path}`;
  const query = (sql: string, values: unknown[] = []) => journey.server().pool.query(sql, values);

  it('runs a playbook from the list: the parameter is required, Run lands on the run page, which follows the action to its stdout', async () => {
    const page = journey.page();
    const created = await page.request.post(url('/api/playbooks'), {
      data: {
        name: 'e2e-greet',
        namespace: 'default',
        labels: {},
        spec: {
          title: 'Greet someone',
          category: 'E2E',
          description: 'Says hello in a shell',
          parameters: [{ name: 'who', label: 'Who', type: 'text', required: true }],
          actions: [{ name: 'say hello', exec: { script: 'echo "hello {{.params.who}}"' } }],
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);

    await page.goto(url('/health'));
    await page.getByRole('complementary', { name: 'Main navigation' }).getByRole('link', { name: 'Playbooks' }).click();
    await page.waitForURL(url('/playbooks'));
    const card = page.getByRole('listitem', { name: 'Greet someone' });
    await card.getByText('Says hello in a shell').waitFor();
    await card.getByText('No recent runs').waitFor();
    await card.getByRole('button', { name: 'Run Greet someone' }).click();

    const dialog = page.getByRole('dialog', { name: 'Run Greet someone' });
    const who = dialog.getByLabel('Who');
    await who.waitFor();
    const run = dialog.getByRole('button', { name: 'Run', exact: true });
    expect(await run.isDisabled()).toBe(true);
    await who.focus();
    await who.blur();
    await dialog.getByText('This field is required').waitFor();
    await who.fill('world');
    expect(await run.isDisabled()).toBe(false);
    await run.click();

    await page.waitForURL(new RegExp(`/playbooks/runs/${UUID}$`));
    const runId = new URL(page.url()).pathname.split('/').pop() ?? '';
    await page.getByRole('status', { name: 'Status: completed' }).waitFor({ timeout: 30_000 });
    const action = page.getByRole('region', { name: 'Action say hello' });
    await action.getByRole('region', { name: 'stdout' }).getByText('hello world').waitFor();
    await action.getByText('Exit code').waitFor();
    await page.getByRole('region', { name: 'Parameters' }).getByText('world').waitFor();
    const stored = await query('SELECT status, parameters FROM playbook_runs WHERE id = $1', [runId]);
    expect(stored.rows).toEqual([{ status: 'completed', parameters: { who: 'world' } }]);

    // The list now shows the run as the playbook's last one, and the runs page lists it.
    await page.goto(url('/playbooks'));
    await page.getByRole('listitem', { name: 'Greet someone' }).getByRole('link', { name: /Last run: completed/ }).waitFor();
    await page.goto(url('/playbooks/runs'));
    await page.getByRole('table', { name: 'Playbook runs' }).getByRole('link', { name: 'Greet someone' }).first().waitFor();
  });

  it("runs a playbook on a config item from its 'Run playbook' menu and lists the run on the item's Playbooks tab", async () => {
    const page = journey.page();
    const item = await query("INSERT INTO config_items (type, name, config) VALUES ('E2E::Service', 'orders-api', '{}') RETURNING id");
    const configId = String(item.rows[0]?.id);
    const created = await page.request.post(url('/api/playbooks'), {
      data: {
        name: 'e2e-describe',
        namespace: 'default',
        labels: {},
        spec: {
          title: 'Describe the item',
          configs: [{ types: ['E2E::Service'] }],
          actions: [{ name: 'describe', exec: { script: 'echo "item {{.config.name}}"' } }],
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);

    await page.goto(url(`/catalog/${configId}`));
    await page.getByRole('button', { name: 'Run playbook' }).click();
    await page.getByRole('menuitem', { name: 'Describe the item' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run Describe the item' });
    await dialog.getByText('No parameters for this playbook.').waitFor();
    await dialog.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForURL(new RegExp(`/playbooks/runs/${UUID}$`));
    await page.getByRole('status', { name: 'Status: completed' }).waitFor({ timeout: 30_000 });
    await page.getByRole('region', { name: 'Action describe' }).getByRole('region', { name: 'stdout' }).getByText('item orders-api').waitFor();
    await page.getByRole('link', { name: 'orders-api' }).first().waitFor();

    await page.goto(url(`/catalog/${configId}/playbooks`));
    await page.getByRole('navigation', { name: 'Config sections' }).getByRole('link', { name: 'Playbooks' }).waitFor();
    await page.getByRole('region', { name: 'Runnable playbooks' }).getByRole('link', { name: 'Describe the item' }).waitFor();
    await page.getByRole('region', { name: 'Runs on this item' }).getByRole('table', { name: 'Playbook runs' }).getByText('Completed').waitFor();
  });

  it('writes a playbook in Code with a live error until it is fixed, saves it, then retitles it in the Form', async () => {
    const page = journey.page();
    await page.goto(url('/playbooks'));
    await page.getByRole('button', { name: 'New playbook' }).click();
    await page.waitForURL(url('/playbooks/new'));
    await page.getByRole('tab', { name: 'Code' }).click();
    const editor = page.locator('.cm-content');
    await editor.waitFor();
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(
      ['apiVersion: mission-control.flanksource.com/v1', 'kind: Playbook', 'metadata:', '  name: e2e-written', '  namespace: default', 'spec:', '  title: Written in code', '  actions:', '    - name: say it', ''].join('\n'),
    );
    // The action has no type: the validate endpoint answers it by path, shown live under the editor.
    const problems = page.getByRole('region', { name: 'Problems' });
    const missing = problems.getByText(/spec\.actions\[0\]: names no action/).first();
    await missing.waitFor();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('      exec:\n        script: echo "written in code"\n');
    await missing.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Playbook created successfully').first().waitFor();
    await page.waitForURL(new RegExp(`/playbooks/${UUID}$`));
    const id = new URL(page.url()).pathname.split('/').pop() ?? '';
    await page.getByRole('heading', { name: 'Written in code', level: 1 }).waitFor();
    expect((await query('SELECT name, spec FROM playbooks WHERE id = $1', [id])).rows).toEqual([
      { name: 'e2e-written', spec: { title: 'Written in code', actions: [{ name: 'say it', exec: { script: 'echo "written in code"' } }] } },
    ]);

    // Edit → Form: a new title, saved, shows in the list.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('tab', { name: 'Form' }).click();
    const title = page.getByLabel('Title', { exact: true });
    await expect.poll(() => title.inputValue()).toBe('Written in code');
    await title.fill('Retitled in the form');
    await page.getByRole('button', { name: 'Update', exact: true }).click();
    await page.getByText('e2e-written updated successfully').first().waitFor();
    await page.getByRole('heading', { name: 'Retitled in the form', level: 1 }).waitFor();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Playbooks' }).click();
    await page.waitForURL(url('/playbooks'));
    await page.getByRole('listitem', { name: 'Retitled in the form' }).waitFor();
    expect(await page.getByRole('listitem', { name: 'Written in code' }).count()).toBe(0);
    expect((await query("SELECT spec->>'title' AS title FROM playbooks WHERE id = $1", [id])).rows).toEqual([{ title: 'Retitled in the form' }]);
  });

  it("lists one playbook's runs at /playbooks/runs?playbook=, narrowed by status", async () => {
    const page = journey.page();
    const create = async (name: string, title: string): Promise<string> => {
      const created = await page.request.post(url('/api/playbooks'), {
        data: { name, namespace: 'default', labels: {}, spec: { title, parameters: [{ name: 'code', label: 'Exit code', default: '0' }], actions: [{ name: 'exit', exec: { script: 'exit {{.params.code}}' } }] } },
      });
      expect(created.status(), await created.text()).toBe(201);
      return String(((await created.json()) as { id: string }).id);
    };
    const mine = await create('e2e-exits', 'Exits as told');
    const other = await create('e2e-other', 'Another playbook');
    const runs: string[] = [];
    for (const [id, code] of [[mine, '0'], [mine, '3'], [mine, '0'], [other, '0']] as const) {
      const res = await page.request.post(url('/api/playbook/run'), { data: { id, params: { code } } });
      expect(res.status(), await res.text()).toBe(201);
      runs.push(String(((await res.json()) as { run_id: string }).run_id));
    }
    await expect
      .poll(async () => (await query("SELECT count(*)::int AS n FROM playbook_runs WHERE id = ANY($1) AND status IN ('completed', 'failed')", [runs])).rows[0]?.n, { timeout: 30_000 })
      .toBe(4);

    await page.goto(url(`/playbooks/runs?playbook=${mine}`));
    await page.getByRole('heading', { name: 'Runs of Exits as told', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Playbook runs' });
    const rows = table.getByRole('row').filter({ has: page.getByRole('link', { name: /^Open run / }) });
    await expect.poll(() => rows.count()).toBe(3);
    expect(await table.getByRole('link', { name: 'Another playbook' }).count()).toBe(0);
    expect(await table.getByRole('link', { name: 'Exits as told' }).count()).toBe(3);
    expect(await page.getByLabel('Playbook', { exact: true }).inputValue()).toBe(mine);

    await page.getByLabel('Status', { exact: true }).selectOption('failed');
    await page.waitForURL((address) => address.searchParams.get('status') === 'failed' && address.searchParams.get('playbook') === mine);
    await expect.poll(() => rows.count()).toBe(1);
    await rows.getByText('Failed').waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('completed');
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByLabel('Status', { exact: true }).selectOption('cancelled');
    await page.getByText('No data available').waitFor();
    expect(await rows.count()).toBe(0);

    // Opening a row lands on that run.
    await page.getByLabel('Status', { exact: true }).selectOption('failed');
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().click();
    await page.waitForURL(url(`/playbooks/runs/${runs[1] ?? ''}`));
    await page.getByRole('status', { name: 'Status: failed' }).waitFor();
  });

  it("runs a playbook on a check from the check detail's 'Run playbook' menu, and on a component from its page", async () => {
    const page = journey.page();
    const canary = await page.request.post(url('/api/canary/canaries'), { data: { name: 'e2e-probes', namespace: 'default', labels: {}, spec: { exec: [{ name: 'e2e probe', script: 'echo ok' }] } } });
    expect(canary.status(), await canary.text()).toBe(201);
    const checks = (await (await page.request.get(url('/api/db/checks?select=id,name&name=eq.e2e%20probe'))).json()) as { id: string }[];
    const checkId = checks[0]?.id ?? '';
    expect(checkId).not.toBe('');
    const component = await query("INSERT INTO components (external_id, name, type) VALUES ('e2e-cart', 'cart', 'E2E::App') RETURNING id");
    const componentId = String(component.rows[0]?.id);
    for (const [name, title, selector, script] of [
      ['e2e-check-probe', 'Probe the check', { checks: [{ types: ['exec'] }] }, 'echo "check {{.check.name}}"'],
      ['e2e-component-probe', 'Probe the component', { components: [{ types: ['E2E::App'] }] }, 'echo "component {{.component.name}}"'],
    ] as const) {
      const created = await page.request.post(url('/api/playbooks'), { data: { name, namespace: 'default', labels: {}, spec: { title, ...selector, actions: [{ name: 'probe', exec: { script } }] } } });
      expect(created.status(), await created.text()).toBe(201);
    }

    await page.goto(url(`/health?checkId=${checkId}`));
    const drawer = page.getByRole('dialog', { name: /e2e probe/ });
    await drawer.getByRole('button', { name: 'Run playbook' }).click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Probe the check' }).waitFor();
    expect(await menu.getByRole('menuitem', { name: 'Probe the component' }).count()).toBe(0);
    await menu.getByRole('menuitem', { name: 'Probe the check' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run Probe the check' });
    await dialog.getByText('No parameters for this playbook.').waitFor();
    await dialog.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForURL(new RegExp(`/playbooks/runs/${UUID}$`));
    await page.getByRole('status', { name: 'Status: completed' }).waitFor({ timeout: 30_000 });
    await page.getByRole('region', { name: 'Action probe' }).getByRole('region', { name: 'stdout' }).getByText('check e2e probe').waitFor();
    await page.locator('dl[aria-label="Run"]').getByRole('link', { name: 'e2e probe' }).waitFor();
    const runId = new URL(page.url()).pathname.split('/').pop() ?? '';
    expect((await query('SELECT check_id FROM playbook_runs WHERE id = $1', [runId])).rows).toEqual([{ check_id: checkId }]);

    await page.goto(url(`/topology/${componentId}`));
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('cart').waitFor();
    await page.getByRole('button', { name: 'Run playbook' }).click();
    await page.getByRole('menuitem', { name: 'Probe the component' }).click();
    await page.getByRole('dialog', { name: 'Run Probe the component' }).getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForURL(new RegExp(`/playbooks/runs/${UUID}$`));
    await page.getByRole('status', { name: 'Status: completed' }).waitFor({ timeout: 30_000 });
    await page.getByRole('region', { name: 'Action probe' }).getByRole('region', { name: 'stdout' }).getByText('component cart').waitFor();
  });

  it('hides the run menu from a viewer and when the playbooks feature is off', async () => {
    const server = journey.server();
    const checkId = String((await query("SELECT id FROM checks WHERE name = 'e2e probe'")).rows[0]?.id ?? '');
    expect(checkId).not.toBe('');
    await createUser(server, { email: 'vic@example.com', password: 'vic-viewer-pass-1', name: 'Vic Viewer', roles: ['viewer'] });
    const viewer = await launchBrowser();
    try {
      await signIn(viewer.page, server, 'vic@example.com', 'vic-viewer-pass-1');
      await viewer.page.goto(url(`/health?checkId=${checkId}`));
      const drawer = viewer.page.getByRole('dialog', { name: /e2e probe/ });
      await drawer.getByRole('link', { name: 'Edit' }).waitFor();
      await viewer.page.waitForLoadState('networkidle');
      expect(await drawer.getByRole('button', { name: 'Run playbook' }).count()).toBe(0);
    } finally {
      await viewer.close();
    }

    // The admin sees it, until playbooks.disable is set.
    const page = journey.page();
    await page.goto(url(`/health?checkId=${checkId}`));
    const drawer = page.getByRole('dialog', { name: /e2e probe/ });
    await drawer.getByRole('button', { name: 'Run playbook' }).waitFor();
    await query("INSERT INTO properties (name, value) VALUES ('playbooks.disable', 'true')");
    try {
      await page.goto(url(`/health?checkId=${checkId}`));
      await drawer.getByRole('link', { name: 'Edit' }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await drawer.getByRole('button', { name: 'Run playbook' }).count()).toBe(0);
    } finally {
      await query("DELETE FROM properties WHERE name = 'playbooks.disable'");
    }
  });
});
