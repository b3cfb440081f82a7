// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_ACCESS, currentLocation, renderPage, stubFetch, VIEWER_ACCESS, type Call } from './testing';
import UsersPage from './users-page';

vi.mock('@web/app/layout/page');
const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast: { ...toasts, loading: vi.fn(), dismiss: vi.fn() } }));

const ada = {
  id: 'p-ada',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  avatar: null,
  last_login: null,
  created_at: '2024-01-01T00:00:00Z',
  state: 'active',
  roles: ['admin', 'editor'],
  teams: [{ id: 't1', name: 'platform' }],
};
const me = { ...ada, id: 'me', name: 'Me Myself', email: 'me@example.com', roles: ['admin'], teams: [], last_login: new Date().toISOString() };

let respond: (call: Call) => { status?: number; body?: unknown; headers?: Record<string, string> } | undefined;
let calls: Call[];

beforeEach(() => {
  respond = (call) => (call.path === '/api/db/people_roles' ? { body: [ada, me], headers: { 'content-range': '0-1/2' } } : undefined);
  calls = stubFetch((call) => respond(call));
});
afterEach(() => {
  vi.unstubAllGlobals();
  toasts.success.mockClear();
  toasts.error.mockClear();
});

const open = (path = '/settings/users', permissions = ADMIN_ACCESS) => renderPage(<UsersPage />, { path, route: '/settings/users', permissions });
const location = currentLocation;
const lastList = () => calls.filter((call) => call.path === '/api/db/people_roles').at(-1);

async function openMenuItem(user: ReturnType<typeof userEvent.setup>, person: string, item: string) {
  await user.click(await screen.findByRole('button', { name: `Actions for ${person}` }));
  await user.click(await screen.findByRole('menuitem', { name: item }));
}

describe('users list', () => {
  it('reads one page of people_roles with the exact count, sorted by name', async () => {
    open();
    const table = await screen.findByRole('table', { name: 'Users' });
    await within(table).findByText('Ada Lovelace');
    expect(lastList()?.search).toBe(
      '?select=id,name,email,avatar,last_login,created_at,state,roles,teams&order=name.asc.nullslast,id.asc&offset=0&limit=50',
    );
    expect(lastList()?.headers.get('prefer')).toContain('count=exact');
    const row = within(table).getByRole('row', { name: /Ada Lovelace/ });
    for (const text of ['ada@example.com', 'Admin', 'Editor', 'platform', 'Active', 'Never']) expect(within(row).getByText(text)).toBeTruthy();
    const self = within(table).getByRole('row', { name: /Me Myself/ });
    expect(within(self).getByText('(you)')).toBeTruthy();
    expect(within(self).getByText(/^\d+s ago$/)).toBeTruthy();
  });

  it('searches name and email after typing pauses, keeping the search in the URL', async () => {
    const user = userEvent.setup();
    open();
    await screen.findByText('Ada Lovelace');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'a,b "c"');
    await waitFor(() => expect(location()).toBe('/settings/users?q=a%2Cb+%22c%22'));
    // The search is one quoted value: its comma and quotes stay text ('+' is the URL's space).
    await waitFor(() => expect(lastList()?.search).toContain('or=(name.ilike."*a,b+\\"c\\"*",email.ilike."*a,b+\\"c\\"*")'));
  });

  it('sorts on the server by the clicked column', async () => {
    const user = userEvent.setup();
    open('/settings/users?pageIndex=2');
    await screen.findByText('Ada Lovelace');
    await user.click(screen.getByRole('button', { name: /Email/ }));
    await waitFor(() => expect(location()).toBe('/settings/users?sortBy=email'));
    await waitFor(() => expect(lastList()?.search).toContain('order=email.asc.nullslast,id.asc&offset=0'));
  });

  it('shows no invite button and no row actions to a reader', async () => {
    open('/settings/users', { ...VIEWER_ACCESS, identities: ['read'] });
    await screen.findByText('Ada Lovelace');
    expect(screen.queryByRole('button', { name: 'Invite user' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Actions for/ })).toBeNull();
  });

  it('shows the unauthorized page without read access on identities', async () => {
    open('/settings/users', VIEWER_ACCESS);
    expect(await screen.findByText('You do not have permission to access this page')).toBeTruthy();
    expect(calls).toEqual([]);
  });
});

describe('row actions', () => {
  it('edits roles, needing at least one', async () => {
    const user = userEvent.setup();
    respond = (call) =>
      call.path === '/api/people/update' ? { body: { message: 'success' } } : { body: [ada, me], headers: { 'content-range': '0-1/2' } };
    open();
    await openMenuItem(user, 'Ada Lovelace', 'Edit roles');
    const dialog = await screen.findByRole('dialog', { name: 'Edit roles of Ada Lovelace' });
    expect(within(dialog).getByRole<HTMLInputElement>('checkbox', { name: 'Admin' }).checked).toBe(true);
    await user.click(within(dialog).getByRole('checkbox', { name: 'Admin' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Editor' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Choose at least one role');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(calls.some((call) => call.path === '/api/people/update')).toBe(false);
    await user.click(within(dialog).getByRole('checkbox', { name: 'Responder' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Viewer' }));
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Roles go in spec §6 order, whatever the clicking order.
    expect(calls.find((call) => call.path === '/api/people/update')).toMatchObject({ method: 'POST', body: { id: 'p-ada', roles: ['viewer', 'responder'] } });
    expect(toasts.success).toHaveBeenCalledWith('User updated successfully', expect.anything());
  });

  it('deactivates after confirmation', async () => {
    const user = userEvent.setup();
    respond = (call) =>
      call.path === '/api/people/update' ? { body: { message: 'success' } } : { body: [ada, me], headers: { 'content-range': '0-1/2' } };
    open();
    await openMenuItem(user, 'Ada Lovelace', 'Deactivate');
    const confirm = await screen.findByRole('alertdialog', { name: 'Deactivate user' });
    await user.click(within(confirm).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls.find((call) => call.path === '/api/people/update')?.body).toEqual({ id: 'p-ada', state: 'inactive' });
    expect(toasts.success).toHaveBeenCalledWith('User updated successfully', expect.anything());
  });

  it('deletes after confirmation, and shows the server message when it refuses', async () => {
    const user = userEvent.setup();
    let refuse = true;
    respond = (call) => {
      if (call.method === 'DELETE') return refuse ? { status: 409, body: { error: 'conflict', message: 'this would leave no active admin: make someone else an admin first' } } : { body: { message: 'success' } };
      return { body: [ada, me], headers: { 'content-range': '0-1/2' } };
    };
    open();
    await openMenuItem(user, 'Ada Lovelace', 'Delete');
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete user' });
    expect(confirm.textContent).toContain('Are you sure you want to delete Ada Lovelace?');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toasts.error).toHaveBeenCalledWith('this would leave no active admin: make someone else an admin first', expect.anything()));
    expect(screen.getByRole('alertdialog', { name: 'Delete user' })).toBeTruthy();
    refuse = false;
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual(['/api/people/p-ada', '/api/people/p-ada']);
    expect(toasts.success).toHaveBeenCalledWith('Ada Lovelace deleted successfully', expect.anything());
  });

  it('does not offer deactivating or deleting your own account', async () => {
    const user = userEvent.setup();
    open();
    await user.click(await screen.findByRole('button', { name: 'Actions for Me Myself' }));
    expect((await screen.findByRole('menuitem', { name: 'Delete' })).getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('menuitem', { name: 'Deactivate' }).getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('menuitem', { name: 'Edit roles' }).getAttribute('aria-disabled')).toBeNull();
  });
});

describe('hosted mode: roles of the organization worked in', () => {
  beforeAll(() => {
    // Radix RadioGroup measures its items; jsdom has no ResizeObserver.
    globalThis.ResizeObserver ??= class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  });
  const ACME = { id: 'o-acme', name: 'Acme', hasBackendUrl: false, direct: false };
  const hosted = (role: string) => ({ hosted: { organization: ACME, organizations: [ACME], role } });
  const member = { ...ada, roles: ['responder'] };
  const agent = { ...ada, id: 'p-agent', name: 'Agent Smith', email: null, roles: [] };
  const list = () => ({ body: [member, agent, me], headers: { 'content-range': '0-2/3' } });
  const openHosted = (role: string, extra: Record<string, unknown> = {}, permissions = ADMIN_ACCESS) =>
    renderPage(<UsersPage />, { path: '/settings/users', route: '/settings/users', permissions, user: { ...hosted(role), ...extra } });

  it('shows each person’s role in the organization, and edits one role there', async () => {
    const user = userEvent.setup();
    respond = (call) => (call.path === '/api/people/update' ? { body: { message: 'success' } } : list());
    openHosted('admin');
    const table = await screen.findByRole('table', { name: 'Users' });
    await within(table).findByText('Ada Lovelace');
    expect(within(table).getByRole('columnheader', { name: 'Role in Acme' })).toBeTruthy();
    expect(within(within(table).getByRole('row', { name: /Ada Lovelace/ })).getByText('Responder')).toBeTruthy();
    // An account made in the organization that is not a member holds no role there: nothing to edit.
    expect(within(within(table).getByRole('row', { name: /Agent Smith/ })).getByText('Not a member')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Actions for Agent Smith' })).toBeNull();
    // Accounts are every organization's their person belongs to: the organization's admin neither
    // deactivates nor deletes one, and invites into the organization (its members sheet), not an account.
    expect(screen.queryByRole('button', { name: 'Invite user' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Invite to Acme' }).getAttribute('href')).toBe('/settings/organizations?members=o-acme');
    await user.click(screen.getByRole('button', { name: 'Actions for Ada Lovelace' }));
    await screen.findByRole('menuitem', { name: 'Edit role' });
    expect(screen.queryByRole('menuitem', { name: 'Deactivate' })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Delete' })).toBeNull();
    await user.keyboard('{Escape}');

    await openMenuItem(user, 'Ada Lovelace', 'Edit role');
    const dialog = await screen.findByRole('dialog', { name: 'Edit role of Ada Lovelace in Acme' });
    expect(within(dialog).getByRole<HTMLButtonElement>('radio', { name: 'Responder' }).getAttribute('aria-checked')).toBe('true');
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    await user.click(within(dialog).getByRole('radio', { name: 'Editor' }));
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.path === '/api/people/update')).toMatchObject({ method: 'POST', body: { id: 'p-ada', roles: ['editor'] } });
  });

  it('offers nothing to change to someone who is not the organization’s admin, though their permissions allow identities', async () => {
    respond = list;
    openHosted('editor');
    await screen.findByText('Ada Lovelace');
    expect(screen.queryByRole('button', { name: /Actions for/ })).toBeNull();
    expect(screen.queryByRole('link', { name: /Invite to/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Invite user' })).toBeNull();
  });

  it('offers a platform administrator the role and the account, whatever their role in the organization', async () => {
    const user = userEvent.setup();
    respond = list;
    openHosted('viewer', { platformAdmin: true }, { identities: ['read'] });
    await user.click(await screen.findByRole('button', { name: 'Actions for Ada Lovelace' }));
    expect(await screen.findByRole('menuitem', { name: 'Edit role' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Deactivate' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Delete' })).toBeTruthy();
  });
});
