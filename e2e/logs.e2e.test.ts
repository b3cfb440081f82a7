import { mkdtempSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useJourney } from './harness';

/**
 * Logs (spec §2 /logs, Settings → Log Backends): a backend added from the empty page, its lines searched,
 * a line attached to a new incident; a component's logs reached from its topology page.
 */
describe('logs', () => {
  // Backends read only under WATCHKEEPER_LOG_ROOTS (docs/LOGS.md): this journey's folder, made before the server starts.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wk-e2e-logs-'));
  const journey = useJourney({ signIn: true, env: { WATCHKEEPER_LOG_ROOTS: dir } });
  const url = (to: string) => `${journey.server().url}${to}`;
  const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

  beforeAll(async () => {
    await fs.writeFile(
      path.join(dir, 'app.log'),
      [`${ago(300)} INFO checkout served in 12 ms`, `${ago(200)} ERROR payment gateway refused the connection`, `${ago(100)} INFO checkout served in 9 ms`, ''].join('\n'),
    );
    await fs.writeFile(path.join(dir, 'payments.log'), `${ago(60)} ERROR payments: card processor timed out\n`);
  });

  afterAll(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('adds a backend from the empty page, searches its lines and attaches one to a new incident', async () => {
    const page = journey.page();
    await page.goto(url('/logs'));
    await page.getByText('No log backends yet').waitFor();
    await page.getByRole('link', { name: 'Add a log backend' }).click();
    await page.waitForURL(url('/settings/logging_backends/new'));
    const spec = page.getByRole('textbox', { name: 'Spec' });
    await spec.fill(`files:\n  - paths: ["${dir}/app.log"]\n`);
    // Spec §5: the name is required.
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('This field is required').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('shop-app');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(url('/settings/logging_backends'));
    await page.getByRole('table', { name: 'Log Backends' }).getByRole('row', { name: /shop-app/ }).waitFor();

    await page.getByRole('navigation').getByRole('link', { name: 'Logs' }).click();
    await page.waitForURL(url('/logs'));
    const table = page.getByRole('table', { name: 'Log lines' });
    // Newest first.
    await table.getByText('checkout served in 9 ms', { exact: false }).waitFor();
    const messages = await table.locator('tbody tr td:nth-child(4)').allTextContents();
    expect(messages).toEqual([expect.stringContaining('served in 9 ms'), expect.stringContaining('payment gateway refused'), expect.stringContaining('served in 12 ms')]);
    await page.getByRole('status').getByText('3 lines from 1 file').waitFor();

    await page.getByRole('searchbox', { name: 'Search log lines' }).fill('PAYMENT');
    await page.waitForURL(/query=PAYMENT/);
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    await table.getByRole('checkbox', { name: /payment gateway refused/ }).check();
    await page.getByRole('button', { name: 'Attach 1 line as Evidence' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link to Incident' });
    await dialog.getByRole('combobox', { name: 'Incident' }).fill('Payments failing');
    await dialog.getByRole('option', { name: /Create incident: “Payments failing”/ }).click();
    await dialog.getByRole('button', { name: 'Link', exact: true }).click();
    await page.waitForURL(/\/incidents\/[0-9a-f-]{36}$/);
    const excerpt = page.getByRole('listitem', { name: 'Log evidence' });
    await excerpt.getByText('payment gateway refused the connection', { exact: false }).waitFor();
    await excerpt.getByText('Log excerpt from shop-app · search "PAYMENT"').waitFor();
  });

  it("reaches a component's logs from its topology page, and the component lists the incident they went to", async () => {
    const page = journey.page();
    const created = await page.request.post(url('/api/canary/topologies'), {
      data: { name: 'shop', spec: { type: 'System', components: [{ name: 'payments', type: 'Service', labels: { team: 'shop' } }] } },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await page.request.post(url(`/api/canary/run/topology/${id}`))).ok()).toBe(true);
    const backend = await page.request.post(url('/api/logs/backends'), {
      data: { name: 'services', spec: { files: [{ paths: [`${dir}/{{name}}.log`] }], components: [{ type: 'Service', labels: { team: 'shop' } }] } },
    });
    expect(backend.status()).toBe(201);
    let componentId = '';
    for (let attempt = 0; attempt < 40 && !componentId; attempt += 1) {
      const res = await page.request.get(url('/api/db/components?select=id&name=eq.payments'));
      componentId = ((await res.json()) as { id: string }[])[0]?.id ?? '';
      if (!componentId) await page.waitForTimeout(250);
    }
    expect(componentId).not.toBe('');

    await page.goto(url(`/topology/${componentId}`));
    await page.getByRole('link', { name: 'Logs (services)' }).click();
    await page.waitForURL(/\/logs\?source=component/);
    const table = page.getByRole('table', { name: 'Log lines' });
    await table.getByText('card processor timed out', { exact: false }).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(1);
    await table.getByRole('checkbox', { name: /card processor/ }).check();
    await page.getByRole('button', { name: 'Attach 1 line as Evidence' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link to Incident' });
    await dialog.getByRole('combobox', { name: 'Incident' }).fill('Card processor slow');
    await dialog.getByRole('option', { name: /Create incident: “Card processor slow”/ }).click();
    await dialog.getByRole('button', { name: 'Link', exact: true }).click();
    await page.waitForURL(/\/incidents\/[0-9a-f-]{36}$/);

    await page.goto(url(`/topology/${componentId}`));
    await page.getByRole('region', { name: 'Incidents' }).getByRole('link', { name: /Card processor slow/ }).waitFor();
  });
});
