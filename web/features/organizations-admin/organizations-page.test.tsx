// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Activity } from 'lucide-react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildNav } from '@web/app/layout/sidebar-nav';
import type { SessionUser } from '@web/app/session';
import { ADMIN_ACCESS, currentLocation, renderPage, stubFetch, VIEWER_ACCESS, type Answer, type Call } from '@web/features/users/testing';
import OrganizationsPage from './organizations-page';
import { routes } from './routes';

vi.mock('@web/app/layout/page');
const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast: { ...toasts, loading: vi.fn(), dismiss: vi.fn() } }));

const base = { external_id: null, backend_url: null, direct: false, members: 0, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };
const alpha = { ...base, id: 'o-alpha', name: 'Alpha', external_id: 'org-alpha', backend_url: 'https://alpha.example.com', direct: true, members: 3 };
const beta = { ...base, id: 'o-beta', name: 'beta', members: 1 };
const ada = { person_id: 'p-ada', name: 'Ada Lovelace', email: 'ada@example.com', role: 'editor', source: 'console', created_at: '2026-01-01T00:00:00Z' };
const claimed = { person_id: 'p-cl', name: 'Claude Claim', email: 'cl@example.com', role: null, source: 'claim', created_at: '2026-01-01T00:00:00Z' };

beforeAll(() => {
  // Radix Select and Switch measure and capture the pointer; jsdom has neither.
  Element.prototype.scrollIntoView = () => undefined;
  Element.prototype.hasPointerCapture = () => false;
  Element.prototype.releasePointerCapture = () => undefined;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});

let respond: (call: Call) => Answer | undefined;
let calls: Call[];

beforeEach(() => {
  respond = (call) => {
    if (call.path === '/api/auth/organizations' && call.method === 'GET') return { body: [beta, alpha] };
    if (call.path === '/api/auth/organizations/o-alpha/members' && call.method === 'GET') return { body: [ada, claimed] };
    return undefined;
  };
  // Whether the person is a platform administrator (issue 35): the page asks; here they are.
  calls = stubFetch((call) => (call.path === '/api/auth/organizations/access' ? { body: { platform_admin: true, organization_id: null } } : respond(call)));
});
afterEach(() => {
  vi.unstubAllGlobals();
  toasts.success.mockClear();
  toasts.error.mockClear();
});

const open = (path = '/settings/organizations', permissions = ADMIN_ACCESS) => renderPage(<OrganizationsPage />, { path, route: '/settings/organizations', permissions });
const names = (table: HTMLElement) => within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell')[0]?.textContent);

describe('Settings → Organizations', () => {
  it('is a settings menu entry in oidc mode only, for platform administrators and the organization’s admins', () => {
    const other = { path: 'settings/jobs', load: () => Promise.resolve({ default: () => null }), nav: { label: 'Jobs', section: 'settings' as const, icon: Activity } };
    const ACME = { id: 'o-acme', name: 'Acme', hasBackendUrl: false, direct: false };
    const platform = { id: 'p', name: 'P', roles: ['viewer'], permissions: VIEWER_ACCESS, platformAdmin: true, hosted: { organization: ACME, organizations: [ACME], role: 'viewer' } };
    const labels = (mode: string | undefined, user: SessionUser | undefined = platform) => buildNav([...routes, other], () => true, () => true, mode, user).settings.map((item) => item.label);
    expect(labels('oidc')).toEqual(['Jobs', 'Organizations']);
    expect(labels('builtin')).toEqual(['Jobs']);
    expect(labels(undefined)).toEqual(['Jobs']);
    // The organization's admin (its membership role) who may read identities there manages its members.
    const orgAdmin = { ...platform, platformAdmin: undefined, roles: ['admin'], permissions: ADMIN_ACCESS, hosted: { ...platform.hosted, role: 'admin' } };
    expect(labels('oidc', orgAdmin)).toEqual(['Jobs', 'Organizations']);
    // Anyone else would get 403 from every organizations route: an editor allowed to read identities by a
    // permission, an admin whose permissions deny it, the console's admin working in no organization.
    expect(labels('oidc', { ...orgAdmin, roles: ['editor'], hosted: { ...platform.hosted, role: 'editor' } })).toEqual(['Jobs']);
    expect(labels('oidc', { ...orgAdmin, permissions: VIEWER_ACCESS })).toEqual(['Jobs']);
    expect(labels('oidc', { ...orgAdmin, hosted: { organization: null, organizations: [ACME], role: null } })).toEqual(['Jobs']);
    expect(buildNav(routes, () => true, () => true, 'oidc', undefined).settings).toEqual([]);
  });

  it('lists organizations sorted by name, searches and sorts with the URL', async () => {
    const user = userEvent.setup();
    open();
    const table = await screen.findByRole('table', { name: 'Organizations' });
    await within(table).findByText('Alpha');
    expect(names(table)).toEqual(['Alphaorg-alpha', 'beta']);
    const row = within(table).getByRole('row', { name: /Alpha/ });
    for (const text of ['3', 'https://alpha.example.com', 'Direct']) expect(within(row).getByText(text)).toBeTruthy();
    expect(within(within(table).getByRole('row', { name: /beta/ })).getByText('This server')).toBeTruthy();

    // Numbers sort largest first on the first click, then smallest first.
    await user.click(screen.getByRole('button', { name: 'Members' }));
    await waitFor(() => expect(currentLocation()).toBe('/settings/organizations?sortBy=members&sortOrder=desc'));
    await user.click(screen.getByRole('button', { name: 'Members' }));
    await waitFor(() => expect(currentLocation()).toBe('/settings/organizations?sortBy=members'));
    expect(names(table)).toEqual(['beta', 'Alphaorg-alpha']);

    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'ALPHA.example');
    await waitFor(() => expect(currentLocation()).toBe('/settings/organizations?sortBy=members&q=ALPHA.example'));
    expect(names(table)).toEqual(['Alphaorg-alpha']);
  });

  it('shows an empty state with the create button, and nothing to a non-admin', async () => {
    respond = () => ({ body: [] });
    open();
    expect(await screen.findByText('No organizations yet')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'New organization' }).length).toBeGreaterThan(0);
  });

  it('shows the unauthorized page without read access on identities', async () => {
    respond = () => undefined;
    calls = stubFetch((call) => (call.path === '/api/auth/organizations/access' ? { body: { platform_admin: false, organization_id: null } } : respond(call)));
    open('/settings/organizations', VIEWER_ACCESS);
    expect(await screen.findByText('You do not have permission to access this page')).toBeTruthy();
    // Only the question whether they are a platform administrator: no organization is read.
    expect(calls.map((call) => call.path)).toEqual(['/api/auth/organizations/access']);
  });

  it('shows an organization admin its own organization and its members, without create, edit or delete', async () => {
    calls = stubFetch((call) => {
      if (call.path === '/api/auth/organizations/access') return { body: { platform_admin: false, organization_id: 'o-beta' } };
      if (call.path === '/api/auth/organizations' && call.method === 'GET') return { body: [beta] };
      return undefined;
    });
    open();
    const table = await screen.findByRole('table', { name: 'Organizations' });
    await within(table).findByRole('button', { name: 'Members of beta' });
    expect(names(table)).toEqual(['beta']);
    expect(screen.queryByRole('button', { name: 'New organization' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit beta' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete beta' })).toBeNull();
  });

  it('creates an organization, marking bad fields before sending and the server’s 409 on its field', async () => {
    const user = userEvent.setup();
    respond = (call) => {
      if (call.method === 'POST') return { status: 409, body: { error: 'conflict', message: 'name: an organization named "Alpha" exists already', details: [{ path: 'body.name', message: 'an organization with this name exists already' }] } };
      return { body: [alpha] };
    };
    open();
    await screen.findByText('Alpha');
    await user.click(screen.getByRole('button', { name: 'New organization' }));
    const dialog = await screen.findByRole('dialog', { name: 'New organization' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Backend URL' }), 'ftp://x');
    await user.click(within(dialog).getByRole('switch', { name: /Direct/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Name is required')).toBeTruthy();
    expect(within(dialog).getByText('Backend URL must be an http or https URL')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Alpha');
    await user.clear(within(dialog).getByRole('textbox', { name: 'Backend URL' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Backend URL' }), 'https://new.example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('an organization with this name exists already')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'Alpha', external_id: null, backend_url: 'https://new.example.com', direct: true });
  });

  it('edits the backend URL of an organization', async () => {
    const user = userEvent.setup();
    respond = (call) => (call.method === 'PATCH' ? { body: { ...alpha, backend_url: 'https://moved.example.com' } } : { body: [alpha] });
    open();
    await user.click(await screen.findByRole('button', { name: 'Edit Alpha' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Alpha' });
    const url = within(dialog).getByRole('textbox', { name: 'Backend URL' });
    await user.clear(url);
    await user.type(url, 'https://moved.example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'PATCH')).toMatchObject({ path: '/api/auth/organizations/o-alpha', body: { name: 'Alpha', external_id: 'org-alpha', backend_url: 'https://moved.example.com', direct: true } });
    expect(toasts.success).toHaveBeenCalledWith('Alpha updated successfully', expect.anything());
  });

  it('deletes after confirmation', async () => {
    const user = userEvent.setup();
    respond = (call) => (call.method === 'DELETE' ? { body: { message: 'success' } } : { body: [alpha] });
    open();
    await user.click(await screen.findByRole('button', { name: 'Delete Alpha' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Alpha?' });
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls.find((call) => call.method === 'DELETE')?.path).toBe('/api/auth/organizations/o-alpha');
    expect(toasts.success).toHaveBeenCalledWith('Alpha deleted successfully', expect.anything());
  });

  it('members sheet: invites by email with a role, changes a role, and says a claim member is the provider’s', async () => {
    const user = userEvent.setup();
    const base = respond;
    respond = (call) => {
      if (call.method === 'POST') return { status: 201, body: { ...ada, person_id: 'p-new', name: 'new', email: 'new@example.com', role: 'viewer' } };
      if (call.method === 'PATCH') return { body: { ...ada, role: 'commander' } };
      return base(call);
    };
    open('/settings/organizations?members=o-alpha');
    const sheet = await screen.findByRole('dialog', { name: 'Members of Alpha' });
    const members = await within(sheet).findByRole('table', { name: 'Members' });
    expect(within(within(members).getByRole('row', { name: /Claude Claim/ })).getByText('From provider')).toBeTruthy();

    const invite = within(sheet).getByRole('form', { name: 'Invite member' });
    await user.type(within(invite).getByRole('textbox', { name: 'Email' }), 'new@example.com');
    await user.click(within(invite).getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Viewer' }));
    await user.click(within(invite).getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ email: 'new@example.com', role: 'viewer' }));
    expect(calls.find((call) => call.method === 'POST')?.path).toBe('/api/auth/organizations/o-alpha/members');

    await user.click(within(members).getByRole('combobox', { name: 'Role of Ada Lovelace' }));
    await user.click(await screen.findByRole('option', { name: 'Commander' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PATCH')).toMatchObject({ path: '/api/auth/organizations/o-alpha/members/p-ada', body: { role: 'commander' } }));

    await user.click(within(members).getByRole('button', { name: 'Remove Claude Claim' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Remove Claude Claim?' });
    expect(within(confirm).getByText(/comes from the sign-in provider's organization claim/)).toBeTruthy();
  });
});
