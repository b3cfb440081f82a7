import { describe, expect, it } from 'vitest';
import { useJourney } from './harness';

const yamlWithFilter = (filter: string) => `apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata:
  name: e2e-check-failures
  namespace: default
spec:
  events:
    - check.failed
  filter: "${filter}"
  to:
    email: oncall@example.com
`;

/**
 * Notifications (spec §2 /notifications, /notifications/silences and /notifications/silences/add): a rule
 * written in the editor, refused with the server's problem at spec.filter, fixed, listed and disabled; a
 * silence for a failing check, previewed against its real send history, listed and deleted.
 */
describe('notifications', () => {
  const journey = useJourney({ signIn: true });
  const url = (path: string) => `${journey.server().url}${path}`;
  const query = (sql: string, values: unknown[] = []) => journey.server().pool.query(sql, values);

  it('creates a rule in the editor: a bad filter is named at spec.filter, the fixed rule is listed and can be disabled', async () => {
    const page = journey.page();
    await page.goto(url('/health'));
    await page.getByRole('complementary', { name: 'Main navigation' }).getByRole('link', { name: 'Notifications' }).click();
    await page.waitForURL(url('/notifications'));
    await page.getByText('No notification rules yet').waitFor();
    // The top bar's bell leads here too.
    expect(await page.getByRole('banner').getByRole('link', { name: 'Notifications' }).getAttribute('href')).toBe('/notifications');

    await page.getByRole('button', { name: 'New rule' }).click();
    await page.waitForURL((current) => current.searchParams.get('edit') === 'new');
    const dialog = page.getByRole('dialog', { name: 'New notification rule' });
    const editor = dialog.locator('.cm-content');
    await editor.waitFor();
    await expect.poll(() => editor.textContent()).toContain('check.failed');

    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(yamlWithFilter('check.type =='));
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByRole('region', { name: 'Problems' }).getByText(/spec\.filter: /).waitFor();
    expect((await query("SELECT count(*)::int AS n FROM notifications WHERE name = 'e2e-check-failures'")).rows).toEqual([{ n: 0 }]);

    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(yamlWithFilter("check.type == 'exec'"));
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Notification created successfully').first().waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('table', { name: 'Notification rules' }).getByRole('row', { name: /e2e-check-failures/ });
    await row.getByText('oncall@example.com').waitFor();
    await row.getByText('check.failed').waitFor();
    const saved = await query("SELECT filter, disabled, source FROM notifications WHERE name = 'e2e-check-failures' AND deleted_at IS NULL");
    expect(saved.rows).toEqual([{ filter: "check.type == 'exec'", disabled: false, source: 'UI' }]);

    await row.getByRole('switch', { name: 'Enable e2e-check-failures' }).click();
    await page.getByText('Notification updated successfully').first().waitFor();
    await expect.poll(async () => (await query("SELECT disabled FROM notifications WHERE name = 'e2e-check-failures' AND deleted_at IS NULL")).rows[0]?.disabled).toBe(true);
    await row.getByText('Disabled').waitFor();
  });

  it('adds a silence for a failing check with a preview of what it would have held back, lists it and deletes it after confirming', async () => {
    const page = journey.page();
    const post = async (path: string, data: object) => {
      const res = await page.request.post(url(path), { data });
      expect(res.status(), await res.text()).toBe(201);
      return res;
    };
    await post('/api/canary/canaries', { name: 'e2e-silence', namespace: 'default', spec: { exec: [{ name: 'always failing', script: 'exit 1' }] } });
    await post('/api/notifications', { name: 'e2e-failing-checks', namespace: 'default', spec: { events: ['check.failed'], to: { email: 'sre@example.com' } } });
    const check = await query("SELECT c.id FROM checks c JOIN canaries ca ON ca.id = c.canary_id WHERE ca.name = 'e2e-silence'");
    const checkId = String(check.rows[0]?.id);
    expect((await page.request.post(url(`/api/canary/run/check/${checkId}`), { data: {} })).status()).toBe(200);
    // The failed check reaches the rule: a send-history row about the check.
    await expect
      .poll(async () => (await query('SELECT count(*)::int AS n FROM notification_send_history WHERE resource_id = $1', [checkId])).rows[0]?.n, { timeout: 30_000, interval: 500 })
      .toBeGreaterThan(0);

    await page.goto(url('/notifications'));
    await page.getByRole('navigation', { name: 'Notifications sections' }).getByRole('link', { name: 'Silences' }).click();
    await page.waitForURL(url('/notifications/silences'));
    await page.getByText('No silences').waitFor();
    await page.getByRole('link', { name: 'Add silence' }).click();
    await page.waitForURL(url('/notifications/silences/add'));

    await page.getByRole('combobox', { name: 'Resource', exact: true }).fill('always fail');
    await page.getByRole('option', { name: /always failing/ }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText(/It would have silenced \d+ notifications? in the last 7 days\./).waitFor({ timeout: 15_000 });
    await preview.getByRole('table', { name: 'Send history' }).getByRole('link', { name: 'e2e-failing-checks' }).first().waitFor();
    await page.getByLabel('Description').fill('e2e: maintenance of the failing check');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(url('/notifications/silences'));
    await page.getByText('Silence created successfully').first().waitFor();
    const row = page.getByRole('table', { name: 'Silences' }).getByRole('row', { name: /maintenance of the failing check/ });
    await row.getByRole('link', { name: 'always failing' }).waitFor();
    await row.getByText('Active').waitFor();
    const stored = await query('SELECT check_id, until, deleted_at FROM notification_silences');
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]).toMatchObject({ check_id: checkId, deleted_at: null });

    await row.getByRole('button', { name: 'Delete e2e: maintenance of the failing check' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Silence' });
    await confirm.getByText('Are you sure you want to delete e2e: maintenance of the failing check?').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Silence deleted successfully').first().waitFor();
    await page.getByText('No silences').waitFor();
    const deleted = await query('SELECT deleted_at IS NOT NULL AS deleted FROM notification_silences');
    expect(deleted.rows).toEqual([{ deleted: true }]);
  });
  it("shows a rule's and a check's send history, filtered in the URL, from the rule page, the check drawer and the resource page", async () => {
    const page = journey.page();
    const rule = await query("SELECT id FROM notifications WHERE name = 'e2e-failing-checks' AND deleted_at IS NULL");
    const ruleId = String(rule.rows[0]?.id);
    const check = await query("SELECT c.id FROM checks c JOIN canaries ca ON ca.id = c.canary_id WHERE ca.name = 'e2e-silence'");
    const checkId = String(check.rows[0]?.id);

    await page.goto(url('/notifications'));
    await page.getByRole('table', { name: 'Notification rules' }).getByRole('link', { name: 'e2e-failing-checks' }).click();
    await page.waitForURL((current) => current.pathname === '/notifications/rules' && current.searchParams.get('id') === ruleId);
    const history = page.getByRole('table', { name: 'Send history' });
    await history.getByRole('link', { name: 'always failing' }).first().waitFor();
    // A resource search that matches nothing, then one that matches: both kept in the URL.
    await page.getByLabel('Search resources').fill('no such resource');
    await page.waitForURL((current) => current.searchParams.get('q') === 'no such resource');
    await page.getByText('No data available').waitFor();
    await page.getByLabel('Search resources').fill('always');
    await page.waitForURL((current) => current.searchParams.get('q') === 'always');
    await history.getByRole('link', { name: 'always failing' }).first().waitFor();
    // A row opens its rendered message.
    await history.getByRole('row').nth(1).click();
    await page.getByRole('region', { name: 'Send details' }).getByText('Title').waitFor();

    await page.goto(url(`/health?checkId=${checkId}`));
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByRole('table', { name: 'Send history' }).getByRole('link', { name: 'e2e-failing-checks' }).first().waitFor();
    await page.getByRole('link', { name: 'All notifications of this resource' }).click();
    await page.waitForURL(url(`/notifications/resource/${checkId}`));
    await page.getByRole('heading', { name: 'Notifications of always failing', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Send history' }).getByRole('link', { name: 'e2e-failing-checks' }).first().waitFor();
  });
});
