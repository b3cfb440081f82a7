import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { canaryKind } from '../server/features/health/canary-kind';
import { applyDocuments } from '../server/platform/resources';
import { createLogger } from '../server/platform/logger';
import { useJourney } from './harness';

const aboutSchema = z.object({ check_types: z.array(z.object({ type: z.string(), label: z.string() })) });
const specRow = z.object({ spec: z.record(z.string(), z.unknown()), source: z.string() });

/**
 * Spec §2 /settings/canaries: a health check made in the console (type card, form, save), changed in
 * Code, refused while a required field is empty, deleted after confirmation; one applied from a file is
 * read-only. The first check points at the console itself: its /health over http when this build runs
 * http checks, else its port over tcp.
 */
describe('health checks in Settings', () => {
  const journey = useJourney({ signIn: true });
  const url = (path: string) => `${journey.server().url}${path}`;
  const query = (sql: string, values: unknown[] = []) => journey.server().pool.query(sql, values);
  const port = () => new URL(journey.server().url).port;

  it('creates a health check from a type card, changes it in Code, refuses an empty required field, and deletes it', async () => {
    const page = journey.page();
    const about = aboutSchema.parse(await (await page.request.get(url('/api/canary/about'))).json());
    const http = about.check_types.find((type) => type.type === 'http');
    const first = http ?? about.check_types.find((type) => type.type === 'tcp');
    if (!first) throw new Error('this build runs neither http nor tcp checks');

    await page.goto(url('/settings/canaries'));
    await page.getByRole('heading', { name: 'Health Checks', level: 1 }).waitFor();
    await page.getByText('No resources found').waitFor();
    await page.getByRole('link', { name: 'Add Health Check' }).click();
    const cards = page.getByRole('region', { name: 'Choose the type of check' });
    await cards.getByRole('button', { name: first.label, exact: true }).waitFor();
    expect(await cards.getByRole('listitem').allTextContents()).toEqual(about.check_types.map((type) => type.label));
    await cards.getByRole('button', { name: first.label, exact: true }).click();
    await page.waitForURL(/\/settings\/canaries\/new\?type=/);

    const card = page.getByRole('group', { name: `${first.label} check 1` });
    await page.getByLabel('Name', { exact: true }).fill('console');
    await card.getByLabel('Check name').fill('self');
    const target = http ? url('/health') : `127.0.0.1:${port()}`;
    await card.getByLabel(http ? 'URL' : 'Endpoint', { exact: true }).fill(target);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/settings/canaries');
    await page.getByText('Health Check created successfully').first().waitFor();
    const table = page.getByRole('table', { name: 'Health Checks' });
    const row = table.getByRole('row', { name: /console/ });
    await row.getByRole('cell', { name: '@every 5m' }).waitFor();
    await row.getByRole('cell', { name: '1', exact: true }).waitFor();
    const created = specRow.parse((await query("SELECT spec, source FROM canaries WHERE name = 'console' AND deleted_at IS NULL")).rows[0]);
    expect(created.source).toBe('UI');
    expect(created.spec).toEqual(
      http ? { schedule: '@every 5m', http: [{ name: 'self', url: target, method: 'GET' }] } : { schedule: '@every 5m', tcp: [{ name: 'self', endpoint: target }] },
    );

    // Open it: name and namespace are locked; Code shows the whole Canary and takes a new check.
    await row.click();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('console').waitFor();
    expect(await page.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    await page.getByRole('tab', { name: 'Code' }).click();
    const editor = page.locator('.cm-content');
    await editor.waitFor();
    await expect.poll(() => editor.textContent()).toContain('kind: Canary');
    await editor.click();
    await page.keyboard.press('Control+End');
    const [added, addedLabel] = http ? ['tcp', 'TCP'] : ['exec', 'Exec'];
    await page.keyboard.insertText(`  ${added}:\n    - name: second\n`);
    const problems = page.getByRole('region', { name: 'Problems' });
    const missing = http ? `spec.tcp[0].endpoint: is required` : `spec.exec[0].script: is required`;
    await problems.getByText(missing).first().waitFor();
    await page.keyboard.insertText(http ? `      endpoint: 127.0.0.1:${port()}\n` : '      script: exit 0\n');
    await problems.getByText(missing).first().waitFor({ state: 'detached' });

    // The form shows the new check; emptying its required field is refused until it is filled again.
    await page.getByRole('tab', { name: 'Form' }).click();
    const second = page.getByRole('group', { name: `${addedLabel} check 1` });
    const required = second.getByLabel(http ? 'Endpoint' : 'Script', { exact: true });
    await expect.poll(() => required.inputValue()).toBe(http ? `127.0.0.1:${port()}` : 'exit 0');
    await required.fill('');
    await required.blur();
    await second.getByText('This field is required').waitFor();
    await page.getByRole('button', { name: 'Update', exact: true }).click();
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).not.toBe('/settings/canaries');
    await required.fill(http ? `127.0.0.1:${port()}` : 'exit 0');
    await page.getByRole('button', { name: 'Update', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/settings/canaries');
    await page.getByText('Health Check updated successfully').first().waitFor();
    await row.getByRole('cell', { name: '2', exact: true }).waitFor();
    const updated = specRow.parse((await query("SELECT spec, source FROM canaries WHERE name = 'console' AND deleted_at IS NULL")).rows[0]);
    expect(updated.spec[added]).toEqual([http ? { name: 'second', endpoint: `127.0.0.1:${port()}` } : { name: 'second', script: 'exit 0' }]);

    // Delete, after confirmation.
    await row.click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Health Check' });
    await confirm.getByText('Are you sure you want to delete console?').waitFor();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/settings/canaries');
    await page.getByText('Health Check deleted successfully').first().waitFor();
    await page.getByText('No resources found').waitFor();
    expect((await query("SELECT count(*)::int AS n FROM canaries WHERE name = 'console' AND deleted_at IS NULL")).rows[0]).toEqual({ n: 0 });
  });

  it('shows a health check applied from a file read-only, with the reason', async () => {
    const text = ['apiVersion: canaries.flanksource.com/v1', 'kind: Canary', 'metadata:', '  name: from-file', '  namespace: ops', 'spec:', '  schedule: "@hourly"', '  exec:', '    - name: uptime', '      script: uptime', ''].join('\n');
    const [applied] = await applyDocuments(journey.server().pool, [canaryKind], [{ file: 'canary.yaml', text }], 'ConfigFile', createLogger('silent'));
    expect(applied?.ok).toBe(true);

    const page = journey.page();
    await page.goto(url('/settings/canaries'));
    const row = page.getByRole('table', { name: 'Health Checks' }).getByRole('row', { name: /from-file/ });
    await row.getByText('Linked: ConfigFile').waitFor();
    await row.click();
    await page.getByRole('note').getByText('This health check comes from ConfigFile and is read-only here: change it where it is defined.').waitFor();
    const check = page.getByRole('group', { name: 'Exec check 1' });
    expect(await check.getByLabel('Script', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Update', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    await page.getByRole('tab', { name: 'Code' }).click();
    const editor = page.locator('.cm-content');
    await expect.poll(() => editor.getAttribute('contenteditable')).toBe('false');

    // The server agrees: a console write to it is refused.
    const id = z.object({ id: z.string() }).parse((await query("SELECT id FROM canaries WHERE name = 'from-file'")).rows[0]).id;
    const put = await page.request.put(url(`/api/canary/canaries/${id}`), { data: { name: 'from-file', namespace: 'ops', labels: {}, spec: { exec: [{ name: 'uptime', script: 'true' }] } } });
    expect(put.status()).toBe(409);
  });
});
