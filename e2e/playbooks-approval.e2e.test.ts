import { describe, expect, it } from 'vitest';
import { createUser, launchBrowser, signIn, useJourney } from './harness';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const RUN_URL = new RegExp(`/playbooks/runs/(${UUID})$`);
const runIdOf = (address: string) => RUN_URL.exec(new URL(address).pathname)?.[1] ?? '';

/**
 * Playbook runs that wait on people (spec §2 /playbooks/runs/{id}, §6 playbook:run and playbook:approve):
 * a run waiting for a named approver, refused to the person who asked for it and approved by the
 * approver; and a long run cancelled from its page after confirmation, then run again.
 */
describe('playbook approval and cancel', () => {
  const journey = useJourney({ signIn: true });
  const url = (path: string) => `${journey.server().url}${path}`;
  const query = (sql: string, values: unknown[] = []) => journey.server().pool.query(sql, values);

  async function createPlaybook(body: object): Promise<string> {
    const created = await journey.page().request.post(url('/api/playbooks'), { data: body });
    expect(created.status(), await created.text()).toBe(201);
    const answer: unknown = await created.json();
    const id = answer && typeof answer === 'object' && 'id' in answer ? String(answer.id) : '';
    expect(id).not.toBe('');
    return id;
  }

  it('waits for the named approver: the requester sees no Approve and is refused, the approver approves and the run completes', async () => {
    const server = journey.server();
    const RUNNER = { email: 'rob@example.com', password: 'rob-runner-pass-1', name: 'Rob Runner' };
    const APPROVER = { email: 'ann@example.com', password: 'ann-approver-pass-1', name: 'Ann Approver' };
    await createUser(server, { ...RUNNER, roles: ['editor'] });
    await createUser(server, { ...APPROVER, roles: ['editor'] });
    await createPlaybook({
      name: 'e2e-guarded',
      namespace: 'default',
      labels: {},
      spec: {
        title: 'Guarded restart',
        description: 'Needs a second pair of eyes',
        approval: { approvers: { people: [APPROVER.email] } },
        actions: [{ name: 'restart', exec: { script: 'echo "restarted by approval"' } }],
      },
    });

    // The runner (an editor, who holds playbook:approve but is not named) runs it from the list.
    const runner = await launchBrowser();
    let runId = '';
    try {
      await signIn(runner.page, server, RUNNER.email, RUNNER.password);
      const page = runner.page;
      await page.goto(url('/playbooks'));
      await page.getByRole('listitem', { name: 'Guarded restart' }).getByRole('button', { name: 'Run Guarded restart' }).click();
      const dialog = page.getByRole('dialog', { name: 'Run Guarded restart' });
      await dialog.getByText('No parameters for this playbook.').waitFor();
      await dialog.getByRole('button', { name: 'Run', exact: true }).click();
      await page.waitForURL(RUN_URL);
      runId = runIdOf(page.url());
      await page.getByRole('status', { name: 'Status: pending_approval' }).waitFor();
      await page.getByRole('note', { name: 'Pending approval' }).getByText(`This run waits for approval by ${APPROVER.email}.`).waitFor();
      await page.getByText('The actions run once the run is approved.').waitFor();
      await page.getByRole('button', { name: 'Cancel run' }).waitFor();
      expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
      // The server agrees: the runner's approval is refused with the reason.
      const refused = await page.request.post(url(`/api/playbook/run/approve/${runId}`), { data: {} });
      expect(refused.status()).toBe(403);
      expect(await refused.text()).toContain('you are not an approver of this playbook');
    } finally {
      await runner.close();
    }
    expect((await query('SELECT status FROM playbook_runs WHERE id = $1', [runId])).rows).toEqual([{ status: 'pending_approval' }]);

    // The approver opens the run and approves it; it runs to its end.
    const approver = await launchBrowser();
    try {
      await signIn(approver.page, server, APPROVER.email, APPROVER.password);
      const page = approver.page;
      await page.goto(url(`/playbooks/runs/${runId}`));
      await page.getByRole('status', { name: 'Status: pending_approval' }).waitFor();
      await page.getByRole('note', { name: 'Pending approval' }).getByText('you are one of its approvers').waitFor();
      await page.locator('dl[aria-label="Run"]').getByText('Rob Runner').first().waitFor();
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('Run approved').first().waitFor();
      await page.getByRole('status', { name: 'Status: completed' }).waitFor({ timeout: 30_000 });
      const action = page.getByRole('region', { name: 'Action restart' });
      await action.getByRole('region', { name: 'stdout' }).getByText('restarted by approval').waitFor();
      await page.getByRole('region', { name: 'Approvals' }).getByText('Ann Approver').waitFor();
      expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
      expect(await page.getByRole('note', { name: 'Pending approval' }).count()).toBe(0);
    } finally {
      await approver.close();
    }
    const approvals = await query('SELECT p.email FROM playbook_approvals a JOIN people p ON p.id = a.person_id WHERE a.run_id = $1', [runId]);
    expect(approvals.rows).toEqual([{ email: APPROVER.email }]);
  });

  it('cancels a long run from its page after confirming, then runs it again', async () => {
    const page = journey.page();
    await createPlaybook({
      name: 'e2e-sleeper',
      namespace: 'default',
      labels: {},
      spec: { title: 'Long sleep', actions: [{ name: 'sleep', exec: { script: 'sleep 60' } }] },
    });
    await page.goto(url('/playbooks'));
    await page.getByRole('listitem', { name: 'Long sleep' }).getByRole('button', { name: 'Run Long sleep' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run Long sleep' });
    await dialog.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForURL(RUN_URL);
    const first = runIdOf(page.url());
    await page.getByRole('status', { name: 'Status: running' }).waitFor({ timeout: 15_000 });
    await page.getByRole('region', { name: 'Action sleep' }).getByText('Running').first().waitFor();

    // Cancel asks first; dismissing the question changes nothing.
    const cancel = page.getByRole('button', { name: 'Cancel run' });
    await cancel.click();
    const confirm = page.getByRole('alertdialog', { name: 'Cancel run' });
    await confirm.getByText('Stop this run?').waitFor();
    await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await query('SELECT status FROM playbook_runs WHERE id = $1', [first])).rows).toEqual([{ status: 'running' }]);

    const asked = Date.now();
    await cancel.click();
    await confirm.getByRole('button', { name: 'Cancel run' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('status', { name: 'Status: cancelled' }).waitFor({ timeout: 5_000 });
    expect(Date.now() - asked).toBeLessThan(5_000);
    await cancel.waitFor({ state: 'detached' });
    await page.getByRole('region', { name: 'Action sleep' }).getByText('Cancelled').first().waitFor();
    expect((await query('SELECT status, end_time IS NOT NULL AS ended FROM playbook_runs WHERE id = $1', [first])).rows).toEqual([{ status: 'cancelled', ended: true }]);

    // Re-run starts a new run of the same playbook and opens it.
    await page.getByRole('button', { name: 'Re-run' }).click();
    await page.waitForURL((address) => RUN_URL.test(address.pathname) && runIdOf(address.href) !== first);
    const second = runIdOf(page.url());
    await page.getByRole('status', { name: /Status: (scheduled|running)/ }).waitFor();
    await page.locator('dl[aria-label="Run"]').getByRole('link', { name: first }).waitFor();
    expect((await query("SELECT playbook_id, request->>'run_id' AS of FROM playbook_runs WHERE id = $1", [second])).rows).toEqual([{ playbook_id: expect.any(String), of: first }]);

    // Leave nothing sleeping behind.
    await page.getByRole('status', { name: 'Status: running' }).waitFor({ timeout: 15_000 });
    await cancel.click();
    await confirm.getByRole('button', { name: 'Cancel run' }).click();
    await page.getByRole('status', { name: 'Status: cancelled' }).waitFor({ timeout: 5_000 });
  });
});
