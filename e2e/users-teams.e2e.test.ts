import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser, launchBrowser, useJourney } from './harness';

async function openRowMenu(page: Page, name: string, item: string) {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

/** Settings journeys of spec §2 /settings/users and /settings/teams, on a server without a mail server. */
describe('users and teams', () => {
  // No SMTP_URL: the invite answer carries the code and the console must show it.
  const journey = useJourney({ env: { SMTP_URL: '' }, signIn: true });
  const url = (path: string) => `${journey.server().url}${path}`;
  const query = (sql: string, values: unknown[] = []) => journey.server().pool.query(sql, values);

  it('invites a user and, with no mail server, shows the link and the code to pass on', async () => {
    const page = journey.page();
    await page.goto(url('/settings/users'));
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Users' });
    await table.getByRole('row', { name: /Ada Admin/ }).getByText('(you)').waitFor();

    await page.getByRole('button', { name: 'Invite user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite user' });
    await dialog.getByLabel('Email').pressSequentially('not-an-email');
    await dialog.getByLabel('First name').click();
    await dialog.getByText('Please enter a valid email address').waitFor();
    await dialog.getByLabel('First name').pressSequentially('Grace');
    await dialog.getByLabel('Last name').pressSequentially('Hopper');
    await dialog.getByLabel('Email').fill('grace@example.com');
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Editor' }).click();
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();

    const result = page.getByRole('dialog', { name: 'User invited' });
    await result.getByText('No mail server is configured, so no email was sent.', { exact: false }).waitFor();
    const link = await result.getByLabel('Invitation link', { exact: true }).inputValue();
    const code = await result.getByLabel('Code', { exact: true }).inputValue();
    expect(link).toMatch(new RegExp(`^${journey.server().url.replace(/\./g, '\\.')}/recovery\\?flow=[0-9a-f-]{36}$`));
    expect(code).toMatch(/^\d{6,}$/);
    // The secret stays out of the address bar.
    expect(page.url()).not.toContain(code);
    await result.getByRole('button', { name: 'Done' }).click();
    await result.waitFor({ state: 'detached' });

    const row = table.getByRole('row', { name: /Grace Hopper/ });
    await row.getByText('Editor', { exact: true }).waitFor();
    await row.getByText('Never').waitFor();
    const stored = await query(
      `SELECT p.name, i.state, array_agg(r.role) AS roles FROM people p JOIN identities i ON i.id = p.id JOIN person_roles r ON r.person_id = p.id
        WHERE p.email = 'grace@example.com' GROUP BY p.name, i.state`,
    );
    expect(stored.rows).toEqual([{ name: 'Grace Hopper', state: 'active', roles: ['editor'] }]);

    // Grace opens the link in her own browser, enters the code, chooses a password and is signed in.
    const grace = await launchBrowser();
    try {
      const invitee = grace.page;
      await invitee.goto(link);
      await invitee.getByRole('heading', { name: 'Recover account' }).waitFor();
      await invitee.getByLabel('Recovery code').fill(code);
      await invitee.getByRole('button', { name: 'Submit' }).click();
      await invitee.waitForURL((u) => u.pathname === '/profile-settings');
      const password = invitee.locator('form[data-group="password"]');
      await password.getByLabel('Password', { exact: true }).fill('compilers translate human intent 1952');
      await password.getByRole('button', { name: 'Save' }).click();
      await invitee.getByText('Your changes have been saved.').waitFor();
      await invitee.getByRole('button', { name: 'User menu' }).click();
      await invitee.getByText('Hi Grace Hopper').waitFor();
      await invitee.keyboard.press('Escape');
    } finally {
      await grace.close();
    }
    const signIn = await fetch(`${journey.server().url}/api/.ory/self-service/login/api`).then(async (res) => {
      const flow: unknown = await res.json();
      const id = flow && typeof flow === 'object' ? String(Reflect.get(flow, 'id')) : '';
      return fetch(`${journey.server().url}/api/.ory/self-service/login?flow=${id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ method: 'password', identifier: 'grace@example.com', password: 'compilers translate human intent 1952' }),
      });
    });
    expect(signIn.status).toBe(200);

    // Inviting the same address again is refused on the Email field.
    await page.getByRole('button', { name: 'Invite user' }).click();
    await dialog.getByLabel('First name').pressSequentially('Grace');
    await dialog.getByLabel('Last name').pressSequentially('Again');
    await dialog.getByLabel('Email').pressSequentially('grace@example.com');
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    await dialog.getByRole('alert').filter({ hasText: 'exists already' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it("changes a user's roles, deactivates and deletes the user", async () => {
    const rita = await createUser(journey.server(), { email: 'rita@example.com', password: 'rita-responder-pass-1', name: 'Rita Responder', roles: ['responder'] });
    const page = journey.page();
    await page.goto(url('/settings/users'));
    await page.getByRole('searchbox', { name: 'Search' }).pressSequentially('rita');
    await page.waitForURL(/[?&]q=rita/);
    const table = page.getByRole('table', { name: 'Users' });
    const row = table.getByRole('row', { name: /Rita Responder/ });
    await row.getByText('Responder', { exact: true }).waitFor();
    await table.getByRole('row', { name: /Ada Admin/ }).waitFor({ state: 'detached' });

    await openRowMenu(page, 'Rita Responder', 'Edit roles');
    const roles = page.getByRole('dialog', { name: 'Edit roles of Rita Responder' });
    await roles.getByRole('checkbox', { name: 'Responder' }).uncheck();
    await roles.getByText('Choose at least one role').waitFor();
    await roles.getByRole('checkbox', { name: 'Editor' }).check();
    await roles.getByRole('button', { name: 'Update' }).click();
    await page.getByText('User updated successfully').first().waitFor();
    await roles.waitFor({ state: 'detached' });
    await row.getByText('Editor', { exact: true }).waitFor();
    expect((await query('SELECT role FROM person_roles WHERE person_id = $1', [rita])).rows).toEqual([{ role: 'editor' }]);

    await openRowMenu(page, 'Rita Responder', 'Deactivate');
    const deactivate = page.getByRole('alertdialog', { name: 'Deactivate user' });
    await deactivate.getByRole('button', { name: 'Deactivate' }).click();
    await deactivate.waitFor({ state: 'detached' });
    await row.getByText('Inactive').waitFor();
    expect((await query('SELECT state FROM identities WHERE id = $1', [rita])).rows).toEqual([{ state: 'inactive' }]);

    await openRowMenu(page, 'Rita Responder', 'Delete');
    const confirm = page.getByRole('alertdialog', { name: 'Delete user' });
    await confirm.getByText('Are you sure you want to delete Rita Responder?', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Rita Responder deleted successfully').waitFor();
    await row.waitFor({ state: 'detached' });
    await page.getByText('No data available').waitFor();
    expect((await query('SELECT deleted_at IS NOT NULL AS deleted FROM people WHERE id = $1', [rita])).rows).toEqual([{ deleted: true }]);
  });

  it('creates a team, adds two members, removes them, and sees the empty text', async () => {
    const server = journey.server();
    await createUser(server, { email: 'bob@example.com', password: 'bob-builder-pass-1', name: 'Bob Builder', roles: ['viewer'] });
    await createUser(server, { email: 'cy@example.com', password: 'cy-operator-pass-1', name: 'Cy Ops', roles: ['viewer'] });
    const page = journey.page();
    await page.goto(url('/settings/teams'));
    await page.getByRole('heading', { name: 'Teams', level: 1 }).waitFor();
    await page.getByText('No resources found').waitFor();

    await page.getByRole('link', { name: 'Add Team' }).click();
    await page.waitForURL(url('/settings/teams/new'));
    expect(await page.getByLabel('Icon').inputValue()).toBe('group');
    await page.getByLabel('Name').pressSequentially('platform');
    const spec = page.getByRole('textbox', { name: 'Spec' });
    await spec.fill('- not an object');
    await page.getByLabel('Icon').click();
    await page.getByText('Must be a YAML or JSON object', { exact: false }).waitFor();
    await spec.fill('oncall: pager\nescalation:\n  after: 5m\n');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Team created successfully').waitFor();
    await page.waitForURL(url('/settings/teams'));
    const teamRow = page.getByRole('table', { name: 'Teams' }).getByRole('row', { name: /platform/ });
    await teamRow.getByRole('cell', { name: '0', exact: true }).waitFor();
    const stored = await query(`SELECT id, icon, spec, source FROM teams WHERE name = 'platform'`);
    expect(stored.rows[0]).toMatchObject({ icon: 'group', spec: { oncall: 'pager', escalation: { after: '5m' } }, source: 'UI' });

    await teamRow.click();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('platform').waitFor();
    // Spec §5: the name cannot change once the team exists.
    expect(await page.getByLabel('Name').isDisabled()).toBe(true);
    await page.getByRole('tab', { name: 'Members' }).click();
    await page.waitForURL(/\?tab=members$/);
    await page.getByText("You haven't added any team members to the team yet.").waitFor();

    await page.getByRole('button', { name: 'Add members' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add members to platform' });
    await dialog.getByText('Start typing to search').waitFor();
    await dialog.getByLabel('Search people').pressSequentially('example.com');
    const people = dialog.getByRole('group', { name: 'People' });
    await people.getByRole('checkbox', { name: /Bob Builder/ }).check();
    await people.getByRole('checkbox', { name: /Cy Ops/ }).check();
    await dialog.getByRole('button', { name: 'Add 2' }).click();
    await page.getByText('Bob Builder, Cy Ops added to the team successfully').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const members = page.getByRole('table', { name: 'Team members' });
    await members.getByRole('row', { name: /Bob Builder/ }).getByText('bob@example.com').waitFor();
    await members.getByRole('row', { name: /Cy Ops/ }).waitFor();
    await page.getByText('2 members').waitFor();

    await page.getByRole('button', { name: 'Remove Bob Builder' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove member' });
    await confirm.getByText('Are you sure you want to remove Bob Builder from platform?').waitFor();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await page.getByText('Bob Builder removed from team successfully').waitFor();
    await members.getByRole('row', { name: /Bob Builder/ }).waitFor({ state: 'detached' });
    await page.getByText('1 member', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Remove Cy Ops' }).click();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await page.getByText('Cy Ops removed from team successfully').waitFor();
    await page.getByText("You haven't added any team members to the team yet.").waitFor();
    const teamId: unknown = stored.rows[0]?.id;
    expect((await query('SELECT count(*)::int AS n FROM team_members WHERE team_id = $1', [teamId])).rows).toEqual([{ n: 0 }]);
  });

  it("adds and removes a team's notification channels, and keeps a linked team's read-only", async () => {
    const created = await query(`INSERT INTO teams (name, spec) VALUES ('sre', '{"oncall": "pager"}') RETURNING id`);
    const teamId = String(created.rows[0]?.id);
    const page = journey.page();
    await page.goto(url(`/settings/teams/${teamId}?tab=notifications`));
    await page.getByRole('tab', { name: 'Notifications', selected: true }).waitFor();
    await page.getByText('Notifications for this team go to these channels; with none, to each member by email.').waitFor();
    await page.getByText('No notification channels: members are notified by email.').waitFor();

    await page.getByRole('button', { name: 'Add channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a notification channel to sre' });
    await dialog.getByRole('radio', { name: /Email addresses/ }).click();
    await dialog.getByRole('textbox', { name: 'Email addresses' }).pressSequentially('ops@example.com, nope');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.getByText('Not a valid email address: nope').waitFor();
    await dialog.getByRole('textbox', { name: 'Email addresses' }).fill('ops@example.com, oncall@example.com');
    await dialog.getByRole('button', { name: 'Add property' }).click();
    await dialog.getByLabel('Property 1 key').fill('subject');
    await dialog.getByLabel('Property 1 value').fill('SRE alert');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Team updated successfully').first().waitFor();
    await dialog.waitFor({ state: 'detached' });
    const channels = page.getByRole('table', { name: 'Notification channels' });
    await channels.getByRole('row', { name: /ops@example\.com, oncall@example\.com/ }).getByText('subject=SRE alert').waitFor();
    const emails = { emails: ['ops@example.com', 'oncall@example.com'], properties: { subject: 'SRE alert' } };
    expect((await query('SELECT spec FROM teams WHERE id = $1', [teamId])).rows).toEqual([{ spec: { oncall: 'pager', notifications: [emails] } }]);

    // A service URL carries its token: the list shows only scheme://host.
    await page.getByRole('button', { name: 'Add channel' }).click();
    await dialog.getByRole('radio', { name: /Service URL/ }).click();
    await dialog.getByRole('textbox', { name: 'Service URL' }).fill('slack://xoxb-secret-token@alerts');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await channels.getByRole('row', { name: /slack:\/\/alerts/ }).waitFor();
    expect(await channels.textContent()).not.toContain('xoxb');

    await page.getByRole('button', { name: 'Remove ops@example.com, oncall@example.com' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove channel' });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await confirm.waitFor({ state: 'detached' });
    await channels.getByRole('row', { name: /ops@example\.com/ }).waitFor({ state: 'detached' });
    expect((await query('SELECT spec FROM teams WHERE id = $1', [teamId])).rows).toEqual([{ spec: { oncall: 'pager', notifications: [{ url: 'slack://xoxb-secret-token@alerts' }] } }]);

    // A team applied from YAML is shown, not changed, here.
    const linked = await query(`INSERT INTO teams (name, spec, source) VALUES ('applied', '{"notifications": [{"emails": ["yaml@example.com"]}]}', 'KubernetesCRD') RETURNING id`);
    await page.goto(url(`/settings/teams/${String(linked.rows[0]?.id)}?tab=notifications`));
    await page.getByRole('table', { name: 'Notification channels' }).getByText('yaml@example.com').waitFor();
    await page.getByText('its notification channels are read-only here', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Add channel' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
  });
});
