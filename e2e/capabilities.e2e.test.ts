import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { choose, createUser, launchBrowser, signIn, useJourney } from './harness';

/**
 * Issue 35 (docs/SECURITY.md): an editor who saves a health check that runs a script on the server is told
 * which capability it needs and why; an admin grants the capability in Settings → Permissions; the editor
 * then saves the same check.
 */
describe('capabilities', () => {
  const journey = useJourney({ signIn: true });
  const url = (path: string) => `${journey.server().url}${path}`;
  const EDDIE = { email: 'eddie@example.com', password: 'eddie-editor-pass-1', name: 'Eddie Editor' };

  async function addExecCheck(page: Page): Promise<void> {
    await page.goto(url('/settings/canaries'));
    await page.getByRole('heading', { name: 'Health Checks', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Add Health Check' }).click();
    const cards = page.getByRole('region', { name: 'Choose the type of check' });
    await cards.getByRole('button', { name: 'Exec', exact: true }).click();
    await page.waitForURL(/\/settings\/canaries\/new\?type=/);
    const card = page.getByRole('group', { name: 'Exec check 1' });
    await page.getByLabel('Name', { exact: true }).fill('disk-usage');
    await card.getByLabel('Check name').fill('df');
    await card.getByLabel('Script', { exact: true }).fill('df -h /');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
  }

  it('tells an editor why an exec check is refused, and saves it once an admin grants exec', async () => {
    const server = journey.server();
    await createUser(server, { ...EDDIE, roles: ['editor'] });
    const eddie = await launchBrowser();
    try {
      await signIn(eddie.page, server, EDDIE.email, EDDIE.password);
      await addExecCheck(eddie.page);
      // The refusal names the field and the capability, and the form stays as typed.
      await eddie.page.getByText(/spec\.exec\[0\]: needs the capability "exec" \(run code on the server/).first().waitFor();
      expect(new URL(eddie.page.url()).pathname).toBe('/settings/canaries/new');
      expect(await eddie.page.getByLabel('Name', { exact: true }).inputValue()).toBe('disk-usage');
      expect((await server.pool.query("SELECT count(*)::int AS n FROM canaries WHERE name = 'disk-usage'")).rows[0]).toEqual({ n: 0 });

      // The admin grants Eddie the capability in Settings → Permissions.
      const page = journey.page();
      await page.goto(url('/settings/permissions'));
      await page.getByRole('heading', { name: 'Permissions', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Add permission' }).click();
      const add = page.getByRole('dialog', { name: 'Add permission' });
      await add.getByRole('combobox', { name: 'Person' }).pressSequentially('Eddie');
      await page.getByRole('option', { name: /Eddie Editor/ }).click();
      await choose(page, add, 'Object', 'exec');
      await choose(page, add, 'Action', '*');
      await add.getByLabel('Description').fill('Eddie runs the disk checks');
      await add.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Permission added').waitFor();

      // Eddie saves the same check.
      await addExecCheck(eddie.page);
      await eddie.page.waitForURL((u) => u.pathname === '/settings/canaries');
      await eddie.page.getByText('Health Check created successfully').first().waitFor();
      const { rows } = await server.pool.query<{ updated_by: string; email: string }>(
        "SELECT c.updated_by, p.email FROM canaries c JOIN people p ON p.id = c.updated_by WHERE c.name = 'disk-usage' AND c.deleted_at IS NULL",
      );
      expect(rows[0]?.email).toBe(EDDIE.email);
    } finally {
      await eddie.close();
    }
  });
});
