import { describe, expect, it } from 'vitest';
import { useJourney } from './harness';

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
});
