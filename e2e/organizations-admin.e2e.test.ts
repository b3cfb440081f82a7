import { describe, expect, it } from 'vitest';
import { throughProviderPages, useOidcJourney } from './provider-pages';

/**
 * Hosted mode, Settings → Organizations (issue 25, docs/HOSTED.md item 6): the console's administrator,
 * signed in through a real OpenID Connect issuer, creates an organization, invites a member, gives it a
 * backend URL, and deletes it after confirming.
 */

const { journey, oidc } = useOidcJourney();

describe('Settings → Organizations in hosted mode', () => {
  it('an administrator creates an organization, invites a member, sets its backend and deletes it', async () => {
    // The first person of a fresh console is its administrator; their one organization is chosen for them.
    oidc.issuer.accounts.set('root', { email: 'root@example.com', email_verified: true, given_name: 'Rita', family_name: 'Root', organizations: [{ id: 'org_home', name: 'Home' }] });
    const page = journey.page();
    const { url: base, pool } = journey.server();
    await page.goto(`${base}/health`);
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('link', { name: /^Sign in with / }).click();
    await throughProviderPages(page, oidc.issuer.url, 'root');
    await page.waitForURL((url) => url.pathname === '/health');
    // The first account is the console's platform administrator (migration 0040); roles are per
    // organization (issue 35), and a membership from the claim names none (a viewer): Home's admins make
    // them its admin, as any organization would.
    const platform = await pool.query("SELECT 1 FROM platform_admins a JOIN people p ON p.id = a.person_id WHERE p.email = 'root@example.com'");
    expect(platform.rowCount).toBe(1);
    await pool.query(
      "UPDATE organization_members SET role = 'admin' WHERE person_id = (SELECT id FROM people WHERE email = 'root@example.com') AND organization_id = (SELECT id FROM organizations WHERE external_id = 'org_home')",
    );
    await page.reload();

    // The menu entry exists in this mode (the unit tests show it absent in the built-in one).
    const sidebar = page.getByRole('complementary', { name: 'Main navigation' });
    await sidebar.getByRole('button', { name: 'Settings' }).click();
    await sidebar.getByRole('link', { name: 'Organizations' }).click();
    await page.waitForURL(`${base}/settings/organizations`);
    const table = page.getByRole('table', { name: 'Organizations' });
    await table.getByRole('row', { name: /Home/ }).waitFor();

    await page.getByRole('button', { name: 'New organization' }).click();
    const create = page.getByRole('dialog', { name: 'New organization' });
    await create.getByRole('textbox', { name: /^Name/ }).fill('Team Blue');
    await create.getByRole('textbox', { name: 'Backend URL' }).fill('ftp://blue');
    await create.getByRole('button', { name: 'Create' }).click();
    await create.getByText('Backend URL must be an http or https URL').waitFor();
    await create.getByRole('textbox', { name: 'Backend URL' }).fill('');
    await create.getByRole('button', { name: 'Create' }).click();
    await create.waitFor({ state: 'detached' });
    const row = table.getByRole('row', { name: /Team Blue/ });
    await row.getByText('This server').waitFor();

    await row.getByRole('button', { name: 'Members of Team Blue' }).click();
    const sheet = page.getByRole('dialog', { name: 'Members of Team Blue' });
    await sheet.getByText('No members yet').waitFor();
    const invite = sheet.getByRole('form', { name: 'Invite member' });
    await invite.getByRole('textbox', { name: 'Email' }).fill('bob@example.com');
    await invite.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Editor' }).click();
    await invite.getByRole('button', { name: 'Invite' }).click();
    await sheet.getByRole('table', { name: 'Members' }).getByRole('row', { name: /bob@example\.com/ }).waitFor();
    await sheet.getByRole('button', { name: 'Close' }).click();
    await row.getByRole('cell', { name: '1', exact: true }).waitFor();

    await row.getByRole('button', { name: 'Edit Team Blue' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Team Blue' });
    await edit.getByRole('textbox', { name: 'Backend URL' }).fill('https://blue.example.com');
    await edit.getByRole('switch', { name: /Direct/ }).click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await row.getByText('https://blue.example.com').waitFor();
    await row.getByText('Direct', { exact: true }).waitFor();
    const saved = await pool.query<{ id: string; backend_url: string; direct: boolean; role: string; email: string; source: string }>(
      `SELECT o.id, o.backend_url, o.direct, m.role, m.source, p.email FROM organizations o
         JOIN organization_members m ON m.organization_id = o.id JOIN people p ON p.id = m.person_id
        WHERE o.name = 'Team Blue' AND o.deleted_at IS NULL`,
    );
    expect(saved.rows).toEqual([{ id: expect.any(String), backend_url: 'https://blue.example.com', direct: true, role: 'editor', source: 'console', email: 'bob@example.com' }]);

    await row.getByRole('button', { name: 'Delete Team Blue' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Team Blue?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await row.waitFor();
    await row.getByRole('button', { name: 'Delete Team Blue' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    // While the confirmation is open the page behind it is hidden from the accessibility tree, so the row's
    // locator finds nothing before the delete has landed: wait for the answer first.
    await page.getByText('Team Blue deleted successfully').waitFor();
    await confirm.waitFor({ state: 'detached' });
    await row.waitFor({ state: 'detached' });
    const deleted = await pool.query<{ deleted: boolean }>('SELECT deleted_at IS NOT NULL AS deleted FROM organizations WHERE id = $1', [saved.rows[0]?.id]);
    expect(deleted.rows).toEqual([{ deleted: true }]);
  });
});
