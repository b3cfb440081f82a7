import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useJourney } from './harness';

/**
 * Issue 23, the Agents page (spec §2 /settings/agents?id): an admin adds an agent, reads its command
 * line once, sees it offline, the agent pushes (as `watchkeeper serve --upstream` does) and turns online
 * with its checks counted and its job runs listed; the admin deletes it with its resources.
 */
describe('agents', () => {
  const journey = useJourney({ signIn: true });
  const url = (path: string) => `${journey.server().url}${path}`;
  const query = (sql: string, values: unknown[] = []) => journey.server().pool.query(sql, values);

  /**
   * Whole rows as an agent's database gives them (row_to_json, DESIGN contract): written in a transaction
   * on this server's database and rolled back, so only the push stores them.
   */
  async function agentRows() {
    const client = await journey.server().pool.connect();
    try {
      await client.query('BEGIN');
      const canaryId = randomUUID();
      const checkId = randomUUID();
      const jobId = randomUUID();
      const configId = randomUUID();
      const canary = await client.query(
        `INSERT INTO canaries (id, name, namespace, spec, schedule) VALUES ($1, 'edge-web', 'edge', '{"http":[{"name":"edge-home","url":"http://127.0.0.1:1"}]}', '@every 30s')
         RETURNING row_to_json(canaries.*) AS row`,
        [canaryId],
      );
      const check = await client.query(
        `INSERT INTO checks (id, canary_id, key, type, name, namespace, status, last_runtime) VALUES ($1, $2, 'http/edge-home', 'http', 'edge-home', 'edge', 'unhealthy', now())
         RETURNING row_to_json(checks.*) AS row`,
        [checkId, canaryId],
      );
      const job = await client.query(
        `INSERT INTO job_history (id, name, resource_type, resource_id, resource_name, status, success_count, error_count, details, hostname, duration_millis, time_start, time_end)
         VALUES ($1, 'CanaryRun', 'canary', $2, 'edge-web', 'SUCCESS', 1, 0, '{}', 'edge-host', 42, now() - interval '1 minute', now() - interval '1 minute' + interval '42 milliseconds')
         RETURNING row_to_json(job_history.*) AS row`,
        [jobId, canaryId],
      );
      const config = await client.query(
        `INSERT INTO config_items (id, external_id, type, config_class, name, namespace, config, health, status) VALUES ($1, ARRAY['edge/web'], 'Kubernetes::Deployment', 'Deployment', 'edge-deploy', 'edge', '{"spec":{}}', 'healthy', 'Running')
         RETURNING row_to_json(config_items.*) AS row`,
        [configId],
      );
      return {
        canaryId,
        checkId,
        jobId,
        configId,
        canary: canary.rows[0]?.row as object,
        check: check.rows[0]?.row as object,
        job: job.rows[0]?.row as object,
        config: config.rows[0]?.row as object,
      };
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }

  async function push(token: string, body: object): Promise<Response> {
    return fetch(url('/api/agent/push'), { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  it('adds an agent, shows it offline until it pushes, opens its detail and deletes it with its resources', async () => {
    const server = journey.server();
    const page = journey.page();
    await journey.browser().context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });

    // The Settings menu has Agents; with no agent yet the page says so.
    await page.goto(url('/settings/agents'));
    await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Agents', exact: true }).waitFor();
    await page.getByText('No agents yet').waitFor();

    // Add agent: the name is checked as the server checks it.
    await page.getByRole('button', { name: 'Add agent' }).click();
    const add = page.getByRole('dialog', { name: 'Add agent' });
    await add.getByRole('button', { name: 'Create' }).click();
    await add.getByText('This field is required').waitFor();
    await add.getByLabel('Name').fill('Edge One');
    await add.getByText(/Lower-case letters, digits, dots and dashes, starting/).waitFor();
    await add.getByLabel('Name').fill('edge-1');
    await add.getByLabel('Description').fill('e2e: the edge cluster');
    await add.getByRole('button', { name: 'Add property' }).click();
    await add.getByLabel('Property 1 key').fill('region');
    await add.getByLabel('Property 1 value').fill('eu-west-1');
    await add.getByRole('button', { name: 'Create' }).click();

    // The one-time dialog: the command line and the Helm values, with the new token in them.
    const created = page.getByRole('dialog', { name: 'Agent edge-1 is ready to start' });
    await created.waitFor();
    const command = (await created.getByLabel('Command line', { exact: true }).textContent()) ?? '';
    expect(command).toMatch(new RegExp(`^watchkeeper serve --upstream ${server.url.replace(/[.]/g, '\\.')} --agent-name edge-1 --token \\S+$`));
    const token = command.split('--token ')[1] ?? '';
    expect(token.length).toBeGreaterThan(20);
    expect(await created.getByLabel('Helm values', { exact: true }).textContent()).toContain(token);
    await created.getByRole('button', { name: 'Copy command line' }).click();
    await page.getByText('Command copied to clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
    await created.getByRole('button', { name: 'Done' }).click();
    await created.waitFor({ state: 'detached' });

    // Adding the same name again rotates the token: the dialog says until when the earlier one still works.
    await page.getByRole('button', { name: 'Add agent' }).click();
    const again = page.getByRole('dialog', { name: 'Add agent' });
    await again.getByLabel('Name').fill('edge-1');
    await again.getByRole('button', { name: 'Create' }).click();
    const rotated = page.getByRole('dialog', { name: 'Agent edge-1 is ready to start' });
    await rotated.getByText(/This replaces the agent's earlier token, which keeps working until .* \(5m\) and is refused after that/).waitFor();
    const newToken = ((await rotated.getByLabel('Command line', { exact: true }).textContent()) ?? '').split('--token ')[1] ?? '';
    expect(newToken).not.toBe(token);
    await rotated.getByRole('button', { name: 'Done' }).click();
    await rotated.waitFor({ state: 'detached' });
    const expiries = await query("SELECT expires_at IS NOT NULL AS expires FROM access_tokens WHERE name = 'agent-edge-1' AND deleted_at IS NULL ORDER BY created_at");
    expect(expiries.rows).toEqual([{ expires: true }, { expires: false }]);

    const stored = await query("SELECT id, description, properties, person_id IS NOT NULL AS has_person FROM agents WHERE name = 'edge-1' AND deleted_at IS NULL");
    expect(stored.rows).toEqual([{ id: expect.any(String), description: 'e2e: the edge cluster', properties: { region: 'eu-west-1' }, has_person: true }]);
    const agentId = String(stored.rows[0]?.id);

    // Listed, offline and never seen.
    const table = page.getByRole('table', { name: 'Agents' });
    const row = table.getByRole('row', { name: /edge-1/ });
    await row.getByText('Offline', { exact: true }).waitFor();
    await row.getByText('never', { exact: true }).waitFor();

    // The agent pushes with its token: a canary, a check and a job run (and a heartbeat's agent facts).
    const rows = await agentRows();
    const pushed = await push(token, {
      agent: { name: 'edge-1', version: '0.9.1-e2e', hostname: 'edge-host', heartbeat_seconds: 30 },
      batch_id: randomUUID(),
      upserts: { canaries: [rows.canary], checks: [rows.check], config_items: [rows.config], job_history: [rows.job] },
      deletes: {},
    });
    expect(pushed.status, await pushed.clone().text()).toBe(200);
    expect(await pushed.json()).toMatchObject({ agent: { id: agentId, name: 'edge-1' }, accepted: { canaries: 1, checks: 1, config_items: 1, job_history: 1 } });
    // A token of another name may not push for this agent.
    expect((await push(token, { agent: { name: 'edge-2' }, batch_id: randomUUID(), upserts: {}, deletes: {} })).status).toBe(403);

    await page.getByRole('button', { name: 'Refresh' }).click();
    await row.getByText('Online', { exact: true }).waitFor();
    await row.getByText('0.9.1-e2e').waitFor();
    await row.getByText('edge-host').waitFor();
    await row.getByText(/^\d+s ago$/).waitFor();
    expect(await row.getByRole('cell').nth(5).textContent()).toBe('1');
    expect(await row.getByRole('cell').nth(6).textContent()).toBe('1');

    // Search narrows the list.
    await page.getByRole('searchbox', { name: 'Search agents' }).fill('nothing-like-it');
    await page.getByText('No agents match this search').waitFor();
    await page.getByRole('searchbox', { name: 'Search agents' }).fill('edge');
    await row.waitFor();

    // The detail is in the URL: properties, counts and the agent's job history.
    await row.click();
    await page.waitForURL((current) => current.searchParams.get('id') === agentId);
    const detail = page.getByRole('dialog', { name: 'Agent edge-1' });
    await detail.getByText('Online', { exact: true }).waitFor();
    await detail.getByText('eu-west-1').waitFor();
    await detail.getByText('e2e: the edge cluster').waitFor();
    const counts = detail.getByRole('region', { name: 'Pushed resources' });
    await counts.getByText('Checks').waitFor();
    expect(await counts.locator('dd').allTextContents()).toEqual(['1', '1', '1', '0', '0']);
    const jobs = detail.getByRole('table', { name: 'Agent job history' });
    const jobRow = jobs.getByRole('row', { name: /CanaryRun/ });
    await jobRow.getByText('edge-web').waitFor();
    await jobRow.click();
    const jobDialog = page.getByRole('dialog', { name: 'Job: CanaryRun' });
    await jobDialog.getByText('edge-host').waitFor();
    await page.keyboard.press('Escape');
    await jobDialog.waitFor({ state: 'detached' });

    // A shared link opens the same detail.
    await page.goto(url(`/settings/agents?id=${agentId}`));
    await page.getByRole('dialog', { name: 'Agent edge-1' }).getByText('eu-west-1').waitFor();

    // The Health page tabs by agent, named after it.
    await page.goto(url('/health?tabBy=agent_id&hidePassing=false'));
    await page.getByRole('tab', { name: /^edge-1/ }).waitFor();

    // Lists show the agent: the health checks' list, and the catalog, filtered by agent ('local' is this instance).
    await page.goto(url('/settings/canaries'));
    const canaryRow = page.getByRole('table').getByRole('row', { name: /edge-web/ });
    await canaryRow.getByRole('link', { name: 'edge-1' }).waitFor();
    await page.goto(url('/catalog?view=list'));
    const items = page.getByRole('table', { name: 'Config items' });
    await items.getByRole('row', { name: /edge-deploy/ }).getByRole('link', { name: 'edge-1' }).waitFor();
    const filters = page.getByRole('search', { name: 'Catalog filters' });
    await filters.getByRole('combobox', { name: 'Agent' }).click();
    await page.getByRole('option', { name: 'local', exact: true }).click();
    await page.waitForURL((current) => current.searchParams.get('agent') === '00000000-0000-0000-0000-000000000000');
    await page.getByRole('status').getByText(/^0 items/).waitFor();
    await filters.getByRole('combobox', { name: 'Agent' }).click();
    await page.getByRole('option', { name: 'edge-1', exact: true }).click();
    await items.getByRole('row', { name: /edge-deploy/ }).waitFor();
    await page.getByRole('status').getByText(/^1 item$/).waitFor();

    // Delete with cleanup: the agent, its token and what it pushed go.
    await page.goto(url(`/settings/agents?id=${agentId}`));
    await page.getByRole('dialog', { name: 'Agent edge-1' }).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete agent' });
    await confirm.getByLabel('Also delete the checks, configs and topologies it pushed').check();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('edge-1 deleted successfully (also deleted: 1 canary, 1 check, 1 config)').waitFor();
    await confirm.waitFor({ state: 'detached' });
    await page.getByText('No agents yet').waitFor();
    expect(new URL(page.url()).searchParams.get('id')).toBeNull();

    expect((await query('SELECT deleted_at IS NOT NULL AS deleted FROM agents WHERE id = $1', [agentId])).rows).toEqual([{ deleted: true }]);
    expect((await query('SELECT deleted_at IS NOT NULL AS deleted FROM checks WHERE id = $1', [rows.checkId])).rows).toEqual([{ deleted: true }]);
    expect((await query('SELECT deleted_at IS NOT NULL AS deleted FROM canaries WHERE id = $1', [rows.canaryId])).rows).toEqual([{ deleted: true }]);
    expect((await query('SELECT deleted_at IS NOT NULL AS deleted FROM config_items WHERE id = $1', [rows.configId])).rows).toEqual([{ deleted: true }]);
    // Its token no longer pushes.
    const refused = await push(token, { agent: { name: 'edge-1' }, batch_id: randomUUID(), upserts: {}, deletes: {} });
    expect(refused.status).toBe(401);
  });
});
