import { describe, expect, it } from 'vitest';
import type { Role } from '../common/rbac';
import { ADMIN, choose, createUser, useJourney } from './harness';

describe('permissions and tokens', () => {
  const journey = useJourney({ signIn: true });
  const url = (path: string) => `${journey.server().url}${path}`;
  const query = (sql: string, values: unknown[] = []) => journey.server().pool.query(sql, values);
  const PAT = { email: 'pat@example.com', password: 'pat-e2e-password-1', name: 'Pat Person', roles: ['viewer'] as Role[] };
  let patId = '';

  it('adds a deny for a person, edits it and deletes it', async () => {
    const server = journey.server();
    patId = await createUser(server, PAT);
    const page = journey.page();
    await page.goto(url('/settings/permissions'));
    await page.getByRole('heading', { name: 'Permissions', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Add permission' }).click();
    const add = page.getByRole('dialog', { name: 'Add permission' });
    // Spec §5: the subject is required, said once the field was touched.
    await add.getByRole('combobox', { name: 'Person' }).click();
    await page.keyboard.press('Tab');
    await add.getByText('This field is required').first().waitFor();
    await add.getByRole('combobox', { name: 'Person' }).pressSequentially('Pat');
    await page.getByRole('option', { name: /Pat Person/ }).click();
    await add.getByText('pat@example.com').waitFor();
    await choose(page, add, 'Object', 'canaries');
    await add.getByLabel('Deny').check();
    await add.getByLabel('Description').fill('e2e: no health checks for Pat');
    await add.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Permission added').waitFor();
    await add.waitFor({ state: 'detached' });

    const table = page.getByRole('table', { name: 'Permissions' });
    const row = table.getByRole('row', { name: /Pat Person/ });
    await row.getByText('Deny', { exact: true }).waitFor();
    await row.getByText('canaries', { exact: true }).waitFor();
    const stored = await query(`SELECT id, person_id, subject, object, action, deny, source, created_by IS NOT NULL AS has_creator FROM permissions WHERE deleted_at IS NULL AND person_id = $1`, [patId]);
    expect(stored.rows).toEqual([{ id: expect.any(String), person_id: patId, subject: patId, object: 'canaries', action: 'read', deny: true, source: 'UI', has_creator: true }]);
    const permissionId = String(stored.rows[0]?.id);

    await row.click();
    const edit = page.getByRole('dialog', { name: 'Edit permission' });
    await edit.getByText('Pat Person').waitFor();
    await choose(page, edit, 'Action', 'create,read,update,delete');
    await edit.getByLabel('Description').fill('e2e: Pat may not touch health checks');
    await edit.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Permission updated').waitFor();
    await table.getByText('e2e: Pat may not touch health checks').waitFor();
    expect((await query('SELECT action, description, updated_by IS NOT NULL AS has_updater FROM permissions WHERE id = $1', [permissionId])).rows).toEqual([
      { action: 'create,read,update,delete', description: 'e2e: Pat may not touch health checks', has_updater: true },
    ]);

    await row.click();
    await page.getByRole('dialog', { name: 'Edit permission' }).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete permission' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Permission deleted').waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await query('SELECT deleted_at IS NOT NULL AS deleted FROM permissions WHERE id = $1', [permissionId])).rows).toEqual([{ deleted: true }]);
  });

  it('shows a permission from a Kubernetes CRD as read-only', async () => {
    await query(
      `INSERT INTO permissions (name, namespace, subject, subject_type, object, action, source, description)
       VALUES ('viewers-read-rbac', 'default', 'viewer', 'group', 'rbac', 'read', 'KubernetesCRD', 'e2e: from a CRD')`,
    );
    const page = journey.page();
    await page.goto(url('/settings/permissions'));
    const row = page.getByRole('table', { name: 'Permissions' }).getByRole('row', { name: /e2e: from a CRD/ });
    await row.getByText('KubernetesCRD').waitFor();
    await row.click();
    const view = page.getByRole('dialog', { name: 'Permission' });
    await view.getByText(/comes from KubernetesCRD \(default\/viewers-read-rbac\), so it is read-only here/).waitFor();
    expect(await view.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await view.getByRole('button', { name: 'Update' }).count()).toBe(0);
    expect(await view.getByLabel('Description').isDisabled()).toBe(true);
    await view.getByRole('button', { name: 'Close' }).first().click();
    await view.waitFor({ state: 'detached' });
  });

  it('explains an access decision', async () => {
    const { rows } = await query(
      `INSERT INTO permissions (subject, subject_type, object, action, deny, description) VALUES ($1, 'person', 'canaries', 'read', true, 'e2e: check') RETURNING id`,
      [patId],
    );
    const page = journey.page();
    await page.goto(url('/settings/permissions'));
    await page.getByRole('button', { name: 'Check access' }).click();
    const check = page.getByRole('dialog', { name: 'Check access' });
    // It starts with the signed-in person: an admin may read canaries through the role.
    await check.getByRole('button', { name: 'Check', exact: true }).click();
    const decision = check.getByRole('status', { name: 'Access decision' });
    await decision.getByText('allowed: the role admin may read canaries').waitFor();

    await check.getByRole('button', { name: 'Change' }).click();
    await check.getByRole('combobox', { name: 'Person' }).pressSequentially('pat@');
    await page.getByRole('option', { name: /Pat Person/ }).click();
    await check.getByRole('button', { name: 'Check', exact: true }).click();
    await decision.getByText('Denied', { exact: true }).waitFor();
    await decision.getByText(`denied: permission ${String(rows[0]?.id)} denies read on canaries`).waitFor();
    await decision.getByRole('button', { name: 'Open the permission' }).click();
    await page.getByRole('dialog', { name: 'Edit permission' }).getByText('Pat Person').waitFor();
  });

  it('creates a Read token, uses it, and deletes it', async () => {
    const server = journey.server();
    const page = journey.page();
    await journey.browser().context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.goto(url('/settings/tokens'));
    await page.getByRole('heading', { name: 'Tokens', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Create new token' }).click();
    const form = page.getByRole('dialog', { name: 'Create new token' });
    expect(await form.getByRole('button', { name: 'Create Token' }).isDisabled()).toBe(true);
    await form.getByRole('radio', { name: /^Admin/ }).click();
    await form.getByRole('radio', { name: /^Read/ }).click();
    await form.getByLabel('Name').fill('e2e-read');
    await form.getByRole('button', { name: 'Create Token' }).click();
    await page.getByText('Token created successfully', { exact: true }).waitFor();

    const created = page.getByRole('dialog', { name: 'Token Created Successfully' });
    await created.getByText(/cannot be seen again/).waitFor();
    const shown = created.getByTestId('created-token');
    expect(await shown.textContent()).not.toMatch(/[A-Za-z0-9]{8}/);
    await created.getByRole('button', { name: 'Reveal token' }).click();
    const token = (await shown.textContent())?.trim() ?? '';
    expect(token.length).toBeGreaterThan(20);
    await created.getByRole('button', { name: 'Copy token' }).click();
    await page.getByText('Token copied to clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    const bearer = { authorization: `Bearer ${token}` };
    const whoami = await fetch(url('/api/auth/whoami'), { headers: bearer });
    expect(whoami.status).toBe(200);
    expect(await whoami.json()).toMatchObject({ user: { email: ADMIN.email }, token: { scopes: expect.arrayContaining([{ object: 'canaries', action: 'read' }]) } });
    expect((await fetch(url('/api/db/job_history?limit=1'), { headers: bearer })).status).toBe(200);
    // Read has no create: the token narrows even an admin.
    const write = await fetch(url('/api/db/properties'), { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'e2e.token', value: 'x' }) });
    expect(write.status).toBe(403);

    await created.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('table', { name: 'API tokens' }).getByRole('row', { name: /e2e-read/ });
    await row.getByText('mcp: all · canaries: read · catalog: read · application: read · playbooks: read · notification: read').waitFor();
    await row.getByText(ADMIN.name).waitFor();
    await row.getByText('never').first().waitFor();

    await row.getByRole('button', { name: 'Delete e2e-read' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete token' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('e2e-read deleted successfully').waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await fetch(url('/api/auth/whoami'), { headers: bearer })).status).toBe(401);
  });
});
