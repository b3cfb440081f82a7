// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccessMap } from '@common/rbac';
import { currentLocation, renderPage, stubFetch, type Call } from '@web/features/users/testing';
import ConnectionDetailPage from './connection-detail-page';
import ConnectionsPage from './connections-page';
import NewConnectionPage from './new-connection-page';

vi.mock('@web/app/layout/page');
const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast: { ...toasts, loading: vi.fn(), dismiss: vi.fn() } }));

const ADMIN: AccessMap = { connections: ['read', 'create', 'update', 'delete'] };
const stored = {
  id: 'c1',
  name: 'orders-db',
  namespace: 'default',
  type: 'postgres',
  url: 'postgres://app:******@db:5432/orders',
  username: 'app',
  password: '******',
  certificate: null,
  insecure_tls: false,
  properties: {},
  source: 'UI',
  created_by: 'p1',
  created_by_person: { id: 'p1', name: 'Ada Admin' },
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-02T00:00:00Z',
};

let respond: (call: Call) => { status?: number; body?: unknown; headers?: Record<string, string> } | undefined;
let calls: Call[];
beforeEach(() => {
  respond = (call) => {
    if (call.path === '/api/db/connections') return { body: call.search.includes('id=eq.') ? stored : [stored], headers: { 'content-range': '0-0/1' } };
    if (call.path === '/api/db/secrets' || call.path === '/api/db/config_maps') return { body: [] };
    return undefined;
  };
  calls = stubFetch((call) => respond(call));
});
afterEach(() => {
  vi.unstubAllGlobals();
  toasts.success.mockClear();
  toasts.error.mockClear();
});

describe('connections list', () => {
  it('reads one page with the creator embedded, and shows the URL as answered', async () => {
    renderPage(<ConnectionsPage />, { path: '/settings/connections', route: '/settings/connections', permissions: ADMIN });
    const table = await screen.findByRole('table', { name: 'Connections' });
    const row = await within(table).findByRole('row', { name: /orders-db/ });
    for (const text of ['Postgres', 'default', 'postgres://app:******@db:5432/orders', 'Ada Admin']) expect(within(row).getByText(text)).toBeTruthy();
    const list = calls.find((call) => call.path === '/api/db/connections');
    expect(list?.search).toContain('created_by_person:people!connections_created_by_fkey(id,name)');
    expect(list?.search).toContain('order=name.asc.nullslast,id.asc&offset=0');
    expect(list?.headers.get('prefer')).toContain('count=exact');
  });

  it('says there are none yet, with an Add button', async () => {
    respond = () => ({ body: [], headers: { 'content-range': '*/0' } });
    renderPage(<ConnectionsPage />, { path: '/settings/connections', route: '/settings/connections', permissions: ADMIN });
    await screen.findByText('No connections yet');
    expect(screen.getByRole('link', { name: 'Add connection' }).getAttribute('href')).toBe('/settings/connections/new');
  });

  it('toasts a failed load with its message', async () => {
    respond = () => ({ status: 500, body: { message: 'relation is gone' } });
    renderPage(<ConnectionsPage />, { path: '/settings/connections', route: '/settings/connections', permissions: ADMIN });
    await waitFor(() => expect(toasts.error).toHaveBeenCalledWith('relation is gone', expect.anything()));
  });

  it('filters by type in the URL', async () => {
    const user = userEvent.setup();
    renderPage(<ConnectionsPage />, { path: '/settings/connections', route: '/settings/connections', permissions: ADMIN });
    await screen.findByText('orders-db');
    await user.selectOptions(screen.getByLabelText('Type'), 'email');
    await waitFor(() => expect(currentLocation()).toBe('/settings/connections?type=email'));
    await waitFor(() => expect(calls.at(-1)?.search).toContain('type=eq.email'));
  });

  it('is unauthorized without the connections object', async () => {
    renderPage(<ConnectionsPage />, { path: '/settings/connections', route: '/settings/connections', permissions: { database: ['read'] } });
    await screen.findByText('You do not have permission to access this page');
    expect(calls.some((call) => call.path === '/api/db/connections')).toBe(false);
  });
});

describe('new connection', () => {
  it('picks a type, pre-fills defaults, marks required fields and refuses a form missing them', async () => {
    const user = userEvent.setup();
    renderPage(<NewConnectionPage />, { path: '/settings/connections/new', route: '/settings/connections/new', permissions: ADMIN });
    expect(screen.queryByRole('link', { name: /JMeter/ })).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Email' }));
    await waitFor(() => expect(currentLocation()).toBe('/settings/connections/new?type=email'));
    expect((screen.getByLabelText('Port') as HTMLInputElement).value).toBe('587');
    expect((screen.getByLabelText('Namespace') as HTMLInputElement).value).toBe('default');
    expect((screen.getByLabelText('Encryption method') as HTMLSelectElement).value).toBe('Auto');
    expect(screen.getByLabelText('Host').closest('div')?.parentElement?.textContent).toContain('*');
    await user.type(screen.getByLabelText('Name'), 'mail');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Host is required')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('saves a reference to a secret key as its text and shows server problems at their fields', async () => {
    const user = userEvent.setup();
    respond = (call) => (call.method === 'POST' ? { status: 400, body: { error: 'invalid_request', message: 'bad', details: [{ path: 'url', message: 'URL must be a postgres:// URL' }] } } : { body: [] });
    renderPage(<NewConnectionPage />, { path: '/settings/connections/new?type=postgres', route: '/settings/connections/new', permissions: ADMIN });
    await user.type(screen.getByLabelText('Name'), 'pg');
    await user.type(screen.getByLabelText('URL'), 'mysql://x');
    await user.type(screen.getByLabelText('Username'), 'postgres');
    await user.click(within(screen.getByRole('radiogroup', { name: 'Password from' })).getByText('Secret'));
    await user.type(screen.getByLabelText('Password secret name'), 'pg-creds');
    await user.type(screen.getByLabelText('Password secret key'), 'password');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('URL must be a postgres:// URL');
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.path).toBe('/api/connections');
    expect(post?.body).toEqual({ name: 'pg', namespace: 'default', type: 'postgres', url: 'mysql://x', username: 'postgres', password: 'secret://pg-creds/password', insecure_tls: false });
    expect(toasts.error).not.toHaveBeenCalled();
  });
});

describe('connection detail', () => {
  const open = () => renderPage(<ConnectionDetailPage />, { path: '/settings/connections/c1', route: '/settings/connections/:id', permissions: ADMIN });

  it('shows a stored password as set, keeps it on update, and fixes name and namespace', async () => {
    const user = userEvent.setup();
    open();
    await screen.findByText('Set');
    expect((screen.getByLabelText('Name') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('Namespace') as HTMLInputElement).disabled).toBe(true);
    expect(document.body.innerHTML).not.toContain('value="******"');
    await user.clear(screen.getByLabelText('Username'));
    await user.type(screen.getByLabelText('Username'), 'reader');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'PATCH')).toBe(true));
    const patch = calls.find((call) => call.method === 'PATCH');
    expect(patch?.path).toBe('/api/connections/c1');
    expect(patch?.body).toEqual({ username: 'reader' });
  });

  it('tests the saved connection and shows each kind of answer', async () => {
    const user = userEvent.setup();
    let answer: unknown = { ok: true, tested: true, message: 'PostgreSQL 16.4', duration_ms: 12 };
    const base = respond;
    respond = (call) => (call.path === '/api/connection/test/c1' ? { body: answer } : base(call));
    open();
    await screen.findByText('Set');
    await user.click(screen.getByRole('button', { name: 'Test' }));
    await screen.findByText(/Connection OK: PostgreSQL 16.4/);
    expect(toasts.success).toHaveBeenCalledWith('Connection OK: PostgreSQL 16.4', expect.anything());
    answer = { ok: false, tested: false, message: 'needs the AWS API' };
    await user.click(screen.getByRole('button', { name: 'Test' }));
    await screen.findByText('Cannot test this connection here: needs the AWS API');
    answer = { ok: false, tested: true, message: 'password authentication failed', duration_ms: 30 };
    await user.click(screen.getByRole('button', { name: 'Test' }));
    await screen.findByText(/Connection failed: password authentication failed/);
  });

  it('is read-only for a linked row', async () => {
    const base = respond;
    respond = (call) => (call.path === '/api/db/connections' ? { body: { ...stored, source: 'KubernetesCRD' } } : base(call));
    open();
    await screen.findByText(/comes from KubernetesCRD and is read-only here/);
    expect(screen.queryByRole('button', { name: 'Update' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Change Password' })).toBeNull();
  });

  it('deletes after a confirmation naming the connection', async () => {
    const user = userEvent.setup();
    open();
    await screen.findByText('Set');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Connection' });
    expect(within(confirm).getByText('Are you sure you want to delete orders-db?')).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/connections/c1')).toBe(true));
    expect(toasts.success).toHaveBeenCalledWith('orders-db deleted successfully', expect.anything());
  });
});
