import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useJourney } from './harness';

/** Settings journeys: feature flags, jobs history with its filters, and the time range picker. */
describe('settings', () => {
  const journey = useJourney({ signIn: true });
  const url = (path: string) => `${journey.server().url}${path}`;
  const query = (sql: string, values: unknown[] = []) => journey.server().pool.query(sql, values);

  it('adds, edits and deletes a feature flag', async () => {
    const page = journey.page();
    await page.goto(url('/settings/feature-flags'));
    await page.getByRole('heading', { name: 'Feature Flags', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Add Feature Flag' }).click();
    const addDialog = page.getByRole('dialog', { name: 'Add Feature Flag' });
    const name = addDialog.getByLabel('Name');
    await name.click();
    await page.keyboard.press('Tab');
    await addDialog.getByText('This field is required').first().waitFor();
    await name.pressSequentially('e2e.journey.disable');
    await addDialog.getByLabel('Value').pressSequentially('false');
    await addDialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('e2e.journey.disable created successfully').waitFor();
    await addDialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /e2e\.journey\.disable/ });
    await row.getByText('false', { exact: true }).waitFor();

    await row.click();
    const editDialog = page.getByRole('dialog', { name: 'Edit Feature Flag' });
    expect(await editDialog.getByLabel('Name').isDisabled()).toBe(true);
    const value = editDialog.getByLabel('Value');
    await value.fill('');
    await value.pressSequentially('true');
    await editDialog.getByRole('button', { name: 'Update' }).click();
    await page.getByText('e2e.journey.disable updated successfully').waitFor();
    await row.getByText('true', { exact: true }).waitFor();
    expect((await query(`SELECT value FROM properties WHERE name = 'e2e.journey.disable'`)).rows).toEqual([{ value: 'true' }]);

    await row.click();
    await page.getByRole('dialog', { name: 'Edit Feature Flag' }).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Feature Flag' });
    await confirm.getByText('Are you sure you want to delete e2e.journey.disable?').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('e2e.journey.disable deleted successfully').waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await query(`SELECT count(*)::int AS n FROM properties WHERE name = 'e2e.journey.disable'`)).rows).toEqual([{ n: 0 }]);
  });

  const canaryId = randomUUID();
  const lastYear = new Date().getFullYear() - 1;

  /** Job runs as the scheduler would write them: two recent, one older than 2 days, one from last year. */
  async function arrangeJobs() {
    const insert = (name: string, status: string, duration: number, start: Date, details: object, resourceName: string) =>
      query(
        `INSERT INTO job_history (name, status, resource_type, resource_id, resource_name, duration_millis, time_start, time_end, success_count, error_count, details)
         VALUES ($1, $2, 'canary', $3, $4, $5, $6, $7, 3, $8, $9)`,
        [name, status, canaryId, resourceName, duration, start, new Date(start.getTime() + duration), status === 'FAILED' ? 1 : 0, JSON.stringify(details)],
      );
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
    await insert('e2e-sync', 'SUCCESS', 2_000, hoursAgo(1), {}, 'fast-canary');
    await insert('e2e-sync', 'FAILED', 90_000, hoursAgo(2), { errors: ['connection refused'] }, 'slow-canary');
    await insert('e2e-sync', 'SUCCESS', 5_000, hoursAgo(24 * 5), {}, 'stale-canary');
    await insert('e2e-archive', 'SUCCESS', 1_000, new Date(`${lastYear}-06-15T12:00:00Z`), {}, 'archived-canary');
  }

  it('lists job history and filters it by status, duration and job name', async () => {
    await arrangeJobs();
    const page = journey.page();
    await page.goto(url('/settings/jobs'));
    const table = page.getByRole('table', { name: 'Job history' });
    // Defaults (spec §9): last 2 days, SUCCESS only.
    await table.getByText('fast-canary').waitFor();
    expect(await table.getByText('slow-canary').count()).toBe(0);
    expect(await table.getByText('stale-canary').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Time range: Last 2 days' }).count()).toBe(1);
    // Spec §2 "Job history": a canary's run links to its page, /settings/canaries/{id}.
    expect(await table.getByRole('link', { name: 'fast-canary' }).getAttribute('href')).toBe(`/settings/canaries/${canaryId}`);
    // Its agent, 'local' (this instance, the nil uuid), links to the Agents page, which shows it (issue 38).
    await table.getByRole('row', { name: /fast-canary/ }).getByRole('link', { name: 'local' }).click();
    await page.waitForURL((u) => u.pathname === '/settings/agents' && u.searchParams.get('id') === '00000000-0000-0000-0000-000000000000');
    const agent = page.getByRole('dialog', { name: 'Agent local' });
    await agent.getByText('This instance', { exact: true }).waitFor();
    await agent.getByRole('table', { name: 'Agent job history' }).getByText('fast-canary').waitFor();
    expect(await page.getByText(/No agent found/).count()).toBe(0);
    await page.goBack();
    await table.getByText('fast-canary').waitFor();

    await page.getByLabel('Status').selectOption('FAILED');
    await page.waitForURL(/status=FAILED/);
    await table.getByText('slow-canary').waitFor();
    await table.getByText('fast-canary').waitFor({ state: 'detached' });

    await table.getByRole('row', { name: /slow-canary/ }).getByText('FAILED').click();
    await page.waitForURL(/details=/);
    const details = page.getByRole('dialog', { name: 'Job: e2e-sync' });
    await details.getByText('connection refused').waitFor();
    await details.getByText('1m 30s').waitFor();
    await details.getByRole('button', { name: 'Close' }).click();
    await details.waitFor({ state: 'detached' });
    expect(page.url()).not.toContain('details=');

    await page.getByLabel('Status').selectOption('all');
    await page.getByLabel('Duration').selectOption('1m');
    await page.waitForURL((u) => u.searchParams.get('status') === 'all' && u.searchParams.get('duration') === '1m');
    await table.getByText('slow-canary').waitFor();
    // The rows of status=all may show for a moment before the duration filter's answer replaces them.
    await table.getByText('fast-canary').waitFor({ state: 'detached' });

    await page.getByLabel('Duration').selectOption('none');
    await page.getByLabel('Job', { exact: true }).selectOption('e2e-sync');
    await page.waitForURL((u) => u.searchParams.get('name') === 'e2e-sync' && !u.searchParams.has('duration') && u.searchParams.get('status') === 'all');
    await table.getByText('fast-canary').waitFor();
    await table.getByText('slow-canary').waitFor();
    expect(await table.getByText('archived-canary').count()).toBe(0);
  });

  it('applies a quick range and an absolute range from the time range picker', async () => {
    const page = journey.page();
    await page.goto(url('/settings/jobs?status=all'));
    const table = page.getByRole('table', { name: 'Job history' });
    await table.getByText('fast-canary').waitFor();

    await page.getByRole('button', { name: /^Time range:/ }).click();
    await page.getByRole('button', { name: 'Previous year' }).click();
    await page.waitForURL((u) => u.searchParams.get('from') === 'now-1y/y' && u.searchParams.get('to') === 'now-1y/y');
    await table.getByText('archived-canary').waitFor();
    expect(await table.getByText('fast-canary').count()).toBe(0);
    await page.getByRole('button', { name: 'Time range: Previous year' }).waitFor();

    // An absolute range from the last 4 hours holds both recent runs and nothing older.
    const pad = (n: number) => String(n).padStart(2, '0');
    const local = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
    const from = local(new Date(Date.now() - 4 * 3_600_000));
    const to = local(new Date(Date.now() + 60_000));
    await page.getByRole('button', { name: /^Time range:/ }).click();
    const form = page.getByRole('form', { name: 'Absolute time range' });
    await form.getByLabel('From').fill('');
    await form.getByLabel('To').fill('');
    expect(await form.getByRole('button', { name: 'Apply time range' }).isDisabled()).toBe(true);
    await form.getByLabel('From').pressSequentially(from);
    await form.getByLabel('To').pressSequentially(to);
    await form.getByRole('button', { name: 'Apply time range' }).click();
    await page.waitForURL((u) => (u.searchParams.get('from') ?? '').endsWith('Z') && (u.searchParams.get('to') ?? '').endsWith('Z'));
    await table.getByText('fast-canary').waitFor();
    await table.getByText('slow-canary').waitFor();
    await table.getByText('archived-canary').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: `Time range: ${from} to ${to}` }).waitFor();

    // Both ranges are remembered as recent ones.
    await page.getByRole('button', { name: /^Time range:/ }).click();
    const recent = page.getByRole('region', { name: 'Recently used ranges' });
    await recent.getByRole('button', { name: 'Previous year' }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('shows the event queue summary, and not-found for an unregistered resource table', async () => {
    const page = journey.page();
    await page.goto(url('/settings/event-queue-status'));
    await page.getByRole('heading', { name: 'Event Queue', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Event queue' }).waitFor();
    await query(`INSERT INTO event_queue (name, attempts, error, last_attempt) VALUES ('e2e.event', 5, 'boom', now())`);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const row = page.getByRole('row', { name: /e2e\.event/ });
    await row.getByText('boom').waitFor();

    await page.goto(url('/settings/no_such_table'));
    await page.getByText(/not found/i).first().waitFor();
  });
});
