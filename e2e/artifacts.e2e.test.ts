import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useJourney } from './harness';

const specRow = z.object({ spec: z.record(z.string(), z.unknown()) });
const idRow = z.object({ id: z.string() });

/**
 * Exec artifacts (HEALTH.md exec): a person writes an exec check with artifacts in the canary editor, runs
 * it with Run Now from the check's detail, sees the run's files in its History and downloads them, with the
 * mouse and with the keyboard.
 */
describe('exec artifacts', () => {
  const journey = useJourney({ signIn: true });
  const url = (path: string) => `${journey.server().url}${path}`;
  const query = (sql: string, values: unknown[] = []) => journey.server().pool.query(sql, values);

  it('creates an exec canary with artifacts in the editor, runs it, sees its artifacts in History and downloads them', async () => {
    const page = journey.page();
    await page.goto(url('/settings/canaries'));
    await page.getByRole('link', { name: 'Add Health Check' }).click();
    await page.getByRole('region', { name: 'Choose the type of check' }).getByRole('button', { name: 'Exec', exact: true }).click();
    await page.waitForURL(/\/settings\/canaries\/new\?type=/);
    await page.getByLabel('Name', { exact: true }).fill('nightly-report');
    const card = page.getByRole('group', { name: 'Exec check 1' });
    await card.getByLabel('Check name').fill('report');
    await card.getByLabel('Script', { exact: true }).fill('mkdir -p out && echo "rows: 42" > out/report.txt && echo "report written"');

    // The form has no artifacts field: they are written in Code, as in a canary-checker file.
    await page.getByRole('tab', { name: 'Code' }).click();
    const editor = page.locator('.cm-content');
    await editor.waitFor();
    await expect.poll(() => editor.textContent()).toContain('report written');
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('      artifacts:\n        - path: out/*.txt\n        - path: /dev/stdout\n');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL((current) => current.pathname === '/settings/canaries');
    await page.getByText('Health Check created successfully').first().waitFor();
    const saved = specRow.parse((await query("SELECT spec FROM canaries WHERE name = 'nightly-report' AND deleted_at IS NULL")).rows[0]);
    expect(saved.spec.exec).toEqual([expect.objectContaining({ name: 'report', artifacts: [{ path: 'out/*.txt' }, { path: '/dev/stdout' }] })]);
    const checkId = idRow.parse((await query("SELECT c.id FROM checks c JOIN canaries ca ON ca.id = c.canary_id WHERE ca.name = 'nightly-report'")).rows[0]).id;

    // Run Now from the check's detail: the run's files show in its History row.
    await page.goto(url(`/health?checkId=${checkId}`));
    const drawer = page.getByRole('dialog', { name: /report/ });
    await drawer.getByRole('button', { name: 'Run Now' }).click();
    await drawer.getByRole('status', { name: 'Run result' }).getByText('Passed', { exact: true }).waitFor();
    const history = drawer.getByRole('table', { name: 'Check history' });
    await history.getByRole('columnheader', { name: 'Artifacts' }).waitFor();
    const newest = history.getByRole('row').nth(1);
    const files = newest.getByRole('list', { name: 'Artifacts' });
    await files.getByRole('link', { name: 'report.txt' }).waitFor();
    expect(await files.getByRole('listitem').allTextContents()).toEqual(['report.txt9 B', 'stdout14 B']);

    // Downloaded with a click …
    const [clicked] = await Promise.all([page.waitForEvent('download'), files.getByRole('link', { name: 'report.txt' }).click()]);
    expect(clicked.suggestedFilename()).toBe('report.txt');
    expect(await fs.readFile(await clicked.path(), 'utf8')).toBe('rows: 42\n');

    // … and with the keyboard: Tab reaches the next link, Enter saves it.
    await files.getByRole('link', { name: 'report.txt' }).focus();
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('stdout');
    const [typed] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(typed.suggestedFilename()).toBe('stdout');
    expect(await fs.readFile(await typed.path(), 'utf8')).toBe('report written');
  });

  it('shows no Artifacts column for a check whose runs have none', async () => {
    const page = journey.page();
    const res = await page.request.post(url('/api/canary/canaries'), { data: { name: 'plain', namespace: 'default', spec: { exec: [{ name: 'plain check', script: 'echo plain' }] } } });
    expect(res.status(), await res.text()).toBe(201);
    const checkId = idRow.parse((await query("SELECT c.id FROM checks c JOIN canaries ca ON ca.id = c.canary_id WHERE ca.name = 'plain'")).rows[0]).id;
    await page.goto(url(`/health?checkId=${checkId}`));
    const drawer = page.getByRole('dialog', { name: /plain check/ });
    // The History page's artifacts are asked for once its results are in.
    const asked = page.waitForResponse((response) => response.url().includes('/api/db/artifacts') && response.ok());
    await drawer.getByRole('button', { name: 'Run Now' }).click();
    await drawer.getByRole('status', { name: 'Run result' }).getByText('Passed', { exact: true }).waitFor();
    const history = drawer.getByRole('table', { name: 'Check history' });
    await history.getByRole('row', { name: /Passed/ }).first().waitFor();
    expect(await (await asked).json()).toEqual([]);
    expect(await history.getByRole('columnheader', { name: 'Artifacts' }).count()).toBe(0);
  });
});
