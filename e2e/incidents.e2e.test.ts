import { describe, expect, it } from 'vitest';
import { createUser, launchBrowser, signIn, useJourney } from './harness';

/**
 * Incidents (spec §2 /incidents, /incidents/{id}, the Link to Incident dialog): the demo's failing check
 * attached as evidence to a new incident from its drawer, worked by a responder, read by a viewer.
 */
describe('incidents', () => {
  const journey = useJourney({ signIn: true, env: { WATCHKEEPER_DEMO: 'true' } });
  const url = (to: string) => `${journey.server().url}${to}`;
  let incidentPath = '';

  it('attaches a failing check as evidence to a new incident from the check drawer', async () => {
    const page = journey.page();
    // The demo keeps "legacy cache" failing on purpose; wait for its first result.
    let checkId = '';
    for (let attempt = 0; attempt < 60 && !checkId; attempt += 1) {
      const res = await page.request.get(url(`/api/db/checks?select=id,status&name=eq.${encodeURIComponent('legacy cache')}`));
      const rows = (await res.json()) as { id: string; status: string | null }[];
      if (rows[0]?.status === 'unhealthy') checkId = rows[0].id;
      else await page.waitForTimeout(500);
    }
    expect(checkId).not.toBe('');

    await page.goto(url(`/health?checkId=${checkId}`));
    const drawer = page.getByRole('dialog', { name: /legacy cache/ });
    await drawer.getByRole('button', { name: 'Attach as Evidence' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link to Incident' });
    // Spec §5: nothing chosen yet.
    await dialog.getByRole('button', { name: 'Link', exact: true }).click();
    await dialog.getByText('Must select or create an incident').waitFor();
    // A new incident: type and severity appear with the spec §9 defaults.
    expect(await dialog.getByText('Severity').count()).toBe(0);
    await dialog.getByRole('combobox', { name: 'Incident' }).fill('Legacy cache is down');
    await dialog.getByRole('option', { name: /Create incident: “Legacy cache is down”/ }).click();
    expect(await dialog.getByRole('combobox', { name: 'Type' }).textContent()).toBe('Availability');
    expect(await dialog.getByRole('combobox', { name: 'Severity' }).textContent()).toBe('Low');
    await dialog.getByLabel('Description').fill('Port 9 refuses connections');
    await dialog.getByRole('button', { name: 'Link', exact: true }).click();

    await page.waitForURL(/\/incidents\/[0-9a-f-]{36}$/);
    incidentPath = new URL(page.url()).pathname;
    await page.getByText(/^Linked to INC-\d+$/).waitFor();
    await page.getByRole('heading', { level: 1, name: /^INC-\d+ Legacy cache is down$/ }).waitFor();
    // The hypothesis took the incident's title; the evidence shows the check as it was.
    const hypothesis = page.getByRole('listitem', { name: 'Root: Legacy cache is down' });
    const evidence = hypothesis.getByRole('listitem', { name: 'Check evidence' });
    await evidence.getByRole('link', { name: 'legacy cache' }).waitFor();
    await evidence.getByText('Unhealthy', { exact: true }).waitFor();
    await evidence.getByText('Port 9 refuses connections').waitFor();
    await evidence.getByText('failed', { exact: false }).first().waitFor();
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await timeline.getByText('Evidence attached').waitFor();

    // The list has it, found by search.
    await page.goto(url('/incidents'));
    await page.getByRole('searchbox', { name: 'Search incidents' }).fill('legacy');
    await page.waitForURL(/search=legacy/);
    await page.getByRole('table', { name: 'Incidents' }).getByRole('row', { name: /Legacy cache is down/ }).waitFor();
  });

  it('lets a responder comment and mark the hypothesis proven; the timeline lists each step', async () => {
    await createUser(journey.server(), { email: 'responder@example.com', password: 'responder password 1', name: 'Rita Responder', roles: ['responder'] });
    const responder = await launchBrowser();
    try {
      const page = responder.page;
      await signIn(page, journey.server(), 'responder@example.com', 'responder password 1');
      await page.goto(url(incidentPath));
      const hypothesis = page.getByRole('listitem', { name: 'Root: Legacy cache is down' });
      await hypothesis.getByRole('textbox', { name: 'Comment' }).fill('Nothing listens on 9 since the cache was retired');
      await hypothesis.getByRole('button', { name: 'Comment' }).click();
      await hypothesis.getByText('Nothing listens on 9 since the cache was retired').waitFor();
      await hypothesis.getByLabel('Status').selectOption('proven');
      await page.getByRole('list', { name: 'Timeline' }).getByText('Legacy cache is down: possible → proven').waitFor();
      await page.getByRole('group', { name: 'Incident status' }).getByLabel('Status').selectOption('resolved');

      const timeline = page.getByRole('list', { name: 'Timeline' });
      await timeline.getByText('Status: open → resolved').waitFor();
      const events = await timeline.locator('li').evaluateAll((items) => items.map((item) => item.getAttribute('data-event')));
      expect(events).toEqual(['incident.created', 'hypothesis.created', 'evidence.created', 'responder.commented', 'hypothesis.status_updated', 'incident.status_updated']);
      await timeline.getByText('Legacy cache is down: possible → proven').waitFor();
      expect(await timeline.getByText('Rita Responder').count()).toBeGreaterThan(0);
    } finally {
      await responder.close();
    }
  });

  it('shows a viewer the incident without any write control', async () => {
    await createUser(journey.server(), { email: 'viewer@example.com', password: 'viewer password 123', roles: ['viewer'] });
    const viewer = await launchBrowser();
    try {
      const page = viewer.page;
      await signIn(page, journey.server(), 'viewer@example.com', 'viewer password 123');
      await page.goto(url(incidentPath));
      await page.getByRole('heading', { level: 1, name: /Legacy cache is down/ }).waitFor();
      await page.getByRole('region', { name: 'Comments' }).getByText('Nothing listens on 9 since the cache was retired').waitFor();
      expect(await page.getByRole('button', { name: 'Comment' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Add hypothesis' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
      expect(await page.getByRole('group', { name: 'Incident status' }).count()).toBe(0);
      await page.goto(url('/incidents'));
      await page.getByRole('table', { name: 'Incidents' }).getByRole('row', { name: /Legacy cache is down/ }).waitFor();
      expect(await page.getByRole('button', { name: 'New incident' }).count()).toBe(0);
      // Nor is Attach as Evidence offered on a check.
      const checks = (await (await page.request.get(url(`/api/db/checks?select=id&name=eq.${encodeURIComponent('legacy cache')}`))).json()) as { id: string }[];
      await page.goto(url(`/health?checkId=${checks[0]?.id ?? ''}`));
      await page.getByRole('dialog', { name: /legacy cache/ }).getByRole('link', { name: 'Edit' }).waitFor();
      expect(await page.getByRole('button', { name: 'Attach as Evidence' }).count()).toBe(0);
    } finally {
      await viewer.close();
    }
  });

  it('creates an incident from the list and works it: a responder and a team, a factor deleted after confirming', async () => {
    const page = journey.page();
    expect((await page.request.post(url('/api/db/teams'), { data: { name: 'Payments On-call' } })).status()).toBe(201);
    await page.goto(url('/incidents'));
    await page.getByRole('button', { name: 'New incident' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New incident' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Title is required').waitFor();
    await dialog.getByLabel('Title').fill('Checkout latency');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/incidents\/[0-9a-f-]{36}$/);
    await page.getByText('No hypotheses yet', { exact: false }).waitFor();
    await page.getByRole('textbox', { name: 'New hypothesis' }).fill('Database pool exhausted');
    await page.getByRole('button', { name: 'Add hypothesis' }).click();
    const root = page.getByRole('listitem', { name: 'Root: Database pool exhausted' });
    await root.getByRole('textbox', { name: 'New factor' }).fill('Long transactions from reports');
    await root.getByRole('button', { name: 'Add factor' }).click();
    await root.getByRole('listitem', { name: 'Factor: Long transactions from reports' }).waitFor();
    await page.getByRole('combobox', { name: 'Add responder' }).fill('Rita');
    await page.getByRole('option', { name: /Rita Responder/ }).click();
    await page.getByRole('list', { name: 'Responders' }).getByText('Rita Responder').waitFor();
    await page.getByRole('list', { name: 'Timeline' }).getByText('Responder added: Rita Responder').waitFor();
    // A whole team responds too.
    await page.getByRole('combobox', { name: 'Add team' }).click();
    await page.getByRole('option', { name: 'Payments On-call' }).click();
    await page.getByRole('list', { name: 'Responders' }).getByText('Payments On-call').waitFor();
    await page.getByRole('list', { name: 'Timeline' }).getByText('Responder added: Payments On-call').waitFor();
    // Delete after confirming.
    await root.getByRole('button', { name: 'Delete hypothesis Long transactions from reports' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await root.getByRole('listitem', { name: 'Factor: Long transactions from reports' }).waitFor({ state: 'detached' });
  });

  it("attaches a catalog item to an existing incident's hypothesis; the item's pages list the incident", async () => {
    const page = journey.page();
    let configId = '';
    for (let attempt = 0; attempt < 60 && !configId; attempt += 1) {
      const res = await page.request.get(url('/api/db/config_items?select=id&type=eq.Kubernetes::Deployment&deleted_at=is.null&order=name&limit=1'));
      configId = ((await res.json()) as { id: string }[])[0]?.id ?? '';
      if (!configId) await page.waitForTimeout(500);
    }
    expect(configId).not.toBe('');
    await page.goto(url(`/catalog/${configId}`));
    await page.getByRole('button', { name: 'Attach as Evidence' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Link to Incident' });
    await dialog.getByRole('combobox', { name: 'Incident' }).fill('Checkout');
    await dialog.getByRole('option', { name: /INC-\d+ Checkout latency/ }).click();
    // Spec §5: an existing incident needs a hypothesis.
    await dialog.getByRole('button', { name: 'Link', exact: true }).click();
    await dialog.getByText('Must select or create a hypothesis').waitFor();
    await dialog.getByRole('combobox', { name: 'Hypothesis' }).fill('pool');
    await dialog.getByRole('option', { name: /Database pool exhausted/ }).click();
    await dialog.getByRole('button', { name: 'Link', exact: true }).click();
    await page.waitForURL(/\/incidents\/[0-9a-f-]{36}$/);
    await page.getByRole('listitem', { name: 'Root: Database pool exhausted' }).getByRole('listitem', { name: 'Config evidence' }).waitFor();

    await page.goto(url(`/catalog/${configId}`));
    await page.getByRole('region', { name: 'Incidents' }).getByRole('link', { name: /Checkout latency/ }).waitFor();
  });

  it('opens an incident by itself from a rule made in Settings', async () => {
    const page = journey.page();
    await page.goto(url('/settings/incident_rules'));
    await page.getByRole('link', { name: 'Add Incident Rule' }).click();
    await page.getByLabel('Name', { exact: true }).fill('legacy-cache');
    const spec = page.getByRole('textbox', { name: 'Spec' });
    // Nothing to watch: refused in place, nothing saved.
    await spec.fill('template: {severity: high}\n');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('a rule watches checks, components or configs', { exact: false }).first().waitFor();
    await spec.fill(['checks:', '  - name: legacy*', 'failures: 1', 'template:', '  title: "{{name}} refuses connections"', '  severity: critical', ''].join('\n'));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(url('/settings/incident_rules'));
    await page.getByRole('table', { name: 'Incident Rules' }).getByRole('row', { name: /legacy-cache/ }).waitFor();
    // The rules run every 30 s; made due now, as an operator may (the update wakes the scheduler), the
    // background job evaluates the new rule at once.
    const due = await journey.server().pool.query("UPDATE scheduled_jobs SET next_run_at = now() WHERE name = 'Incident rules'");
    expect(due.rowCount).toBe(1);
    await page.goto(url('/incidents?search=refuses'));
    const row = page.getByRole('table', { name: 'Incidents' }).getByRole('row', { name: /legacy cache refuses connections/ });
    for (let attempt = 0; attempt < 60 && (await row.count()) === 0; attempt += 1) {
      await page.waitForTimeout(1000);
      await page.getByRole('button', { name: 'Refresh' }).click();
    }
    await row.getByText('Critical').waitFor();
    await row.click();
    await page.getByRole('listitem', { name: 'Check evidence' }).getByRole('link', { name: 'legacy cache' }).waitFor();
    await page.getByRole('list', { name: 'Timeline' }).getByText('the system', { exact: false }).first().waitFor();
  }, 120_000);
});
