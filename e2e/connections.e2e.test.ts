import { describe, expect, it } from 'vitest';
import { createUser, launchBrowser, signIn, useJourney } from './harness';

/**
 * Settings → Connections, Secrets and Config Maps (spec §2 /settings/connections, §3 Connection types,
 * §6 admin only), against a real PostgreSQL on 127.0.0.1:5432 that trusts local connections.
 */
describe('connections', () => {
  const journey = useJourney({ signIn: true });
  const url = (path: string) => `${journey.server().url}${path}`;
  const query = (sql: string, values: unknown[] = []) => journey.server().pool.query(sql, values);
  const PASSWORD = 'not-shown-anywhere-7731';

  it('adds a Postgres connection from the type grid, shows it without its password, tests it and deletes it', async () => {
    const page = journey.page();
    await page.goto(url('/catalog'));
    const sidebar = page.getByRole('complementary', { name: 'Main navigation' });
    await sidebar.getByRole('button', { name: 'Settings' }).click();
    await sidebar.getByRole('link', { name: 'Connections' }).click();
    await page.waitForURL(url('/settings/connections'));
    await page.getByRole('heading', { name: 'Connections', level: 1 }).waitFor();
    await page.getByText('No connections yet').waitFor();

    await page.getByRole('link', { name: 'Add connection' }).click();
    await page.waitForURL(url('/settings/connections/new'));
    expect(await page.getByRole('link', { name: 'JMeter' }).count()).toBe(0);
    await page.getByRole('region', { name: 'Databases' }).getByRole('link', { name: 'Postgres' }).click();
    await page.waitForURL(url('/settings/connections/new?type=postgres'));
    expect(await page.getByLabel('Namespace', { exact: true }).inputValue()).toBe('default');

    // A required field left empty: its message, and nothing saved.
    await page.getByLabel('Name', { exact: true }).fill('orders-db');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('URL is required').waitFor();
    await page.getByText('Username is required').waitFor();
    expect((await query('SELECT count(*)::int AS n FROM connections')).rows).toEqual([{ n: 0 }]);

    await page.getByLabel('URL', { exact: true }).fill('postgres://127.0.0.1:5432/postgres');
    await page.getByLabel('Username', { exact: true }).fill('postgres');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Connection created successfully').waitFor();
    await page.waitForURL(url('/settings/connections'));
    const row = page.getByRole('table', { name: 'Connections' }).getByRole('row', { name: /orders-db/ });
    await row.getByText('postgres://127.0.0.1:5432/postgres').waitFor();
    await row.getByText('Ada Admin').waitFor();
    expect(await page.content()).not.toContain(PASSWORD);
    const stored = await query(`SELECT password, created_by IS NOT NULL AS has_creator FROM connections WHERE name = 'orders-db'`);
    expect(stored.rows[0]?.password).toMatch(/^wk:/);
    expect(stored.rows[0]?.has_creator).toBe(true);

    await row.click();
    await page.waitForURL(/\/settings\/connections\/[0-9a-f-]{36}$/);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('orders-db').waitFor();
    await page.getByRole('group', { name: 'Password' }).getByText('Set', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Change Password' }).waitFor();
    expect(await page.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    expect(await page.content()).not.toContain(PASSWORD);

    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await page.getByRole('region', { name: 'Test connection' }).getByText(/Connection OK: PostgreSQL \d+/).waitFor({ timeout: 15_000 });

    // An update that leaves the password alone keeps it.
    await page.getByLabel('Username', { exact: true }).fill('postgres');
    await page.getByLabel('Insecure TLS', { exact: true }).check();
    await page.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Connection updated successfully').waitFor();
    await page.waitForURL(url('/settings/connections'));
    const after = await query(`SELECT password, insecure_tls FROM connections WHERE name = 'orders-db'`);
    expect(after.rows[0]).toEqual({ password: stored.rows[0]?.password, insecure_tls: true });

    await row.click();
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Connection' });
    await confirm.getByText('Are you sure you want to delete orders-db?').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('orders-db deleted successfully').waitFor();
    await page.waitForURL(url('/settings/connections'));
    await page.getByText('No connections yet').waitFor();
  });

  it('pre-fills each type form with its defaults and marks its required fields', async () => {
    const page = journey.page();
    await page.goto(url('/settings/connections/new'));
    await page.getByLabel('Filter connection types', { exact: true }).fill('mail');
    await page.getByRole('link', { name: 'Email' }).click();
    await page.waitForURL(url('/settings/connections/new?type=email'));
    expect(await page.getByLabel('Port', { exact: true }).inputValue()).toBe('587');
    expect(await page.getByLabel('Encryption method', { exact: true }).inputValue()).toBe('Auto');
    expect(await page.getByLabel('SMTP Auth', { exact: true }).inputValue()).toBe('Unknown');
    for (const label of ['Name', 'Namespace', 'Host', 'Port', 'From Address', 'From Name']) {
      expect(await page.getByLabel(label, { exact: true }).evaluate((input) => (input as HTMLInputElement).required)).toBe(true);
    }
    expect(await page.getByLabel('Subject', { exact: true }).evaluate((input) => (input as HTMLInputElement).required)).toBe(false);

    await page.goto(url('/settings/connections/new?type=git'));
    expect(await page.getByLabel('Ref', { exact: true }).inputValue()).toBe('main');
    await page.goto(url('/settings/connections/new?type=generic_webhook'));
    expect(await page.getByLabel('Request Method', { exact: true }).inputValue()).toBe('POST');
    expect(await page.getByLabel('Message Key', { exact: true }).inputValue()).toBe('message');
  });

  it('keeps a secret whose value is never shown, listed by its key', async () => {
    const page = journey.page();
    const value = 'hunter2-secret-value-9918';
    await page.goto(url('/settings/secrets'));
    await page.getByRole('heading', { name: 'Secrets', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Add Secret' }).click();
    await page.getByLabel('Name', { exact: true }).fill('pg-creds');
    await page.getByLabel('Key 1', { exact: true }).fill('password');
    await page.getByLabel('Value 1', { exact: true }).fill(value);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Secret created successfully').waitFor();
    await page.waitForURL(url('/settings/secrets'));
    const row = page.getByRole('table', { name: 'Secrets' }).getByRole('row', { name: /pg-creds/ });
    await row.getByRole('cell', { name: 'password', exact: true }).waitFor();
    expect(await page.content()).not.toContain(value);

    const before = (await query(`SELECT data FROM secrets WHERE name = 'pg-creds'`)).rows[0]?.data as Record<string, string>;
    expect(before.password).toMatch(/^wk:/);

    await row.click();
    expect(await page.getByLabel('Key 1', { exact: true }).inputValue()).toBe('password');
    expect(await page.getByLabel('Value 1', { exact: true }).inputValue()).toBe('');
    expect(await page.content()).not.toContain(value);
    // A stored key left blank keeps its value; a new key is added beside it.
    await page.getByRole('button', { name: 'Add key' }).click();
    await page.getByLabel('Key 2', { exact: true }).fill('user');
    await page.getByLabel('Value 2', { exact: true }).fill('reader');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Secret updated successfully').waitFor();
    await row.getByRole('cell', { name: 'password, user', exact: true }).waitFor();
    const after = (await query(`SELECT data FROM secrets WHERE name = 'pg-creds'`)).rows[0]?.data as Record<string, string>;
    expect(after.password).toBe(before.password);
    expect(after.user).toMatch(/^wk:/);
  });

  it('hides Connections from an editor, who gets the Unauthorized page', async () => {
    const server = journey.server();
    await createUser(server, { email: 'eddie@example.com', password: 'eddie-editor-pass-1', name: 'Eddie Editor', roles: ['editor'] });
    const browser = await launchBrowser();
    try {
      const page = browser.page;
      await signIn(page, server, 'eddie@example.com', 'eddie-editor-pass-1');
      await page.goto(url('/settings/jobs'));
      const sidebar = page.getByRole('complementary', { name: 'Main navigation' });
      await sidebar.getByRole('link', { name: 'Jobs History' }).waitFor();
      expect(await sidebar.getByRole('link', { name: 'Connections' }).count()).toBe(0);
      expect(await sidebar.getByRole('link', { name: 'Secrets' }).count()).toBe(0);
      await page.goto(url('/settings/connections'));
      await page.getByText('You do not have permission to access this page').waitFor();
    } finally {
      await browser.close();
    }
  });
});
