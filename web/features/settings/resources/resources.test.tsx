// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Users } from 'lucide-react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccessMap } from '@common/rbac';
import { StaticSession } from '@web/app/session';
import { canariesResource } from '@web/features/canaries/resource';
import { applicationsResource } from '@web/features/applications/resource';
import { configMapsResource, secretsResource } from '@web/features/connections/secrets/resource';
import { incidentRulesResource } from '@web/features/incident-rules/resource';
import { logBackendsResource } from '@web/features/log-backends/resource';
import { topologiesResource } from '@web/features/topologies/resource';
import { teamsResource } from '@web/features/teams/resource';
import { resourceRoutes, routes } from '../routes';
import { settingsResources } from '@web/app/settings-resources';
import { CODE_OBJECT_MESSAGE } from './form-values';
import { findResource, ResourceRegistryContext } from './registry-context';
import type { ResourceTabProps, SettingsResource } from './types';
import ResourceDetailPage from './resource-detail-page';
import ResourceListPage from './resource-list-page';

// The shell's page frame needs the whole app (session, menus); a plain frame is enough here.
vi.mock('@web/app/layout/page');
vi.mock('@web/app/pages/not-found-page', () => ({ default: () => <p>Page not found</p> }));
const toastSuccess = vi.hoisted(() => vi.fn());
vi.mock('sonner', () => ({ toast: { success: toastSuccess, error: vi.fn(), loading: vi.fn(), dismiss: vi.fn() } }));

function ExtraTab({ id, row, access, linked }: ResourceTabProps) {
  return <p>{`extra tab of ${id} (${String(row.name)}), ${access.create ? 'may create' : 'read only'}, ${linked ?? 'UI'}`}</p>;
}

const teams: SettingsResource = {
  table: 'teams',
  listTable: 'teams_summary',
  label: 'Teams',
  singular: 'Team',
  icon: Users,
  feature: 'settings.teams',
  access: { read: 'database', write: 'identities' },
  columns: [
    { key: 'name', header: 'Name' },
    { key: 'source', header: 'Source', kind: 'source' },
    { key: 'created_at', header: 'Created', kind: 'date' },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true, immutable: true },
    { name: 'icon', label: 'Icon', defaultValue: 'group' },
    { name: 'spec', label: 'Spec', kind: 'code' },
  ],
  tabs: [{ id: 'extra', label: 'Extra', load: async () => ({ default: ExtraTab }) }],
};

const ADMIN: AccessMap = { database: ['read', 'create', 'update', 'delete'], identities: ['read', 'create', 'update', 'delete'] };
const VIEWER: AccessMap = { database: ['read'] };

interface Call {
  method: string;
  path: string;
  search: string;
  body: unknown;
}
let calls: Call[] = [];
let answer: (call: Call) => unknown = () => [];

beforeEach(() => {
  calls = [];
  answer = () => [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      const call = { method: init?.method ?? 'GET', path: url.pathname, search: decodeURIComponent(url.search), body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      const data = answer(call);
      return new Response(data === undefined ? null : JSON.stringify(data), { status: data === undefined ? 204 : 200, headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  toastSuccess.mockClear();
});

function Where() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname + location.search}</output>;
}

function renderAt(path: string, permissions: AccessMap = ADMIN, table = ':table') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: `/settings/${table}`, element: <><ResourceListPage /><Where /></> },
      { path: `/settings/${table}/:id`, element: <><ResourceDetailPage /><Where /></> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={client}>
      <StaticSession value={{ status: 'ready', user: { id: 'me', name: 'Me', roles: [], permissions }, signOut: undefined }}>
        <ResourceRegistryContext.Provider value={[teams]}>
          <RouterProvider router={router} />
        </ResourceRegistryContext.Provider>
      </StaticSession>
    </QueryClientProvider>,
  );
  return router;
}

describe('registry and routes', () => {
  it('registers teams, health checks, topologies, incident rules, log backends, secrets, config maps and applications, so the fixed pages and each have menu entries', () => {
    expect(settingsResources).toEqual([teamsResource, canariesResource, topologiesResource, incidentRulesResource, logBackendsResource, secretsResource, configMapsResource, applicationsResource]);
    expect(routes.filter((route) => route.nav).map((route) => route.nav?.label)).toEqual(['Jobs History', 'Event Queue', 'Feature Flags', 'Teams', 'Health Checks', 'Topologies', 'Incident Rules', 'Log Backends', 'Secrets', 'Config Maps', 'Applications']);
    expect(routes.map((route) => route.path)).toContain('settings/:table/:id');
  });
  it('gives each registered table a Settings menu entry, its feature flag and its read guard', () => {
    const [list, detail] = resourceRoutes([teams]);
    const access = { resource: 'database', action: 'read' };
    expect(list).toMatchObject({ path: 'settings/teams', feature: 'settings.teams', nav: { label: 'Teams', section: 'settings', icon: Users }, access });
    expect(detail).toMatchObject({ path: 'settings/teams/:id', feature: 'settings.teams', access });
    expect(detail?.nav).toBeUndefined();
    expect(findResource('teams', [teams])).toBe(teams);
    expect(findResource('people', [teams])).toBeUndefined();
  });
});

describe('generic resource pages', () => {
  it('renders the not-found page for a table not in the registry', async () => {
    renderAt('/settings/people');
    expect(await screen.findByText('Page not found')).toBeTruthy();
    renderAt('/settings/people/1');
    expect(screen.getAllByText('Page not found')).toHaveLength(2);
    expect(calls).toEqual([]);
  });

  it("serves a registered table's own static routes (its menu entry and guard) as well", async () => {
    const user = userEvent.setup();
    answer = () => [{ id: 't1', name: 'ops', icon: 'group', source: 'UI', spec: {} }];
    renderAt('/settings/teams', ADMIN, 'teams');
    await user.click(await screen.findByText('ops'));
    expect(await screen.findByRole('navigation', { name: 'Breadcrumb' })).toBeTruthy();
    expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/settings/teams/t1');
  });

  it("lists 100 rows newest first, and says 'No resources found' when empty", async () => {
    renderAt('/settings/teams');
    expect(await screen.findByText('No resources found')).toBeTruthy();
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/api/db/teams_summary', search: '?select=*&order=created_at.desc&limit=100' });
    expect(screen.getByRole('link', { name: 'Add Team' }).getAttribute('href')).toBe('/settings/teams/new');
  });

  it('opens a row, edits it, keeps the name read-only and returns to the list after saving', async () => {
    const user = userEvent.setup();
    answer = (call) => (call.method === 'PATCH' ? undefined : [{ id: 't1', name: 'ops', icon: 'group', created_at: '2024-01-01T00:00:00Z' }]);
    renderAt('/settings/teams');
    await user.click(await screen.findByText('ops'));
    expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/settings/teams/t1');
    const breadcrumb = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    await waitFor(() => expect(breadcrumb.textContent).toBe('Teams/ops'));
    const name = screen.getByLabelText<HTMLInputElement>('Name');
    expect(name.disabled).toBe(true);
    expect(name.value).toBe('ops');
    const icon = screen.getByLabelText('Icon');
    await user.clear(icon);
    await user.type(icon, 'shield');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/settings/teams'));
    const patch = calls.find((call) => call.method === 'PATCH');
    expect(patch).toMatchObject({ path: '/api/db/teams', search: '?id=eq.t1', body: { icon: 'shield', spec: {} } });
  });

  it("creates a row and says 'This field is required' for an empty required field", async () => {
    const user = userEvent.setup();
    answer = (call) => (call.method === 'POST' ? undefined : []);
    renderAt('/settings/teams/new');
    const name = await screen.findByLabelText('Name');
    expect(screen.getByLabelText<HTMLInputElement>('Icon').value).toBe('group');
    await user.click(name);
    await user.tab();
    expect((await screen.findByRole('alert')).textContent).toBe('This field is required');
    await user.type(name, 'platform');
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/settings/teams'));
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({ path: '/api/db/teams', body: { name: 'platform', icon: 'group', spec: {} } });
  });

  it('checks a YAML spec on blur and writes it as an object', async () => {
    const user = userEvent.setup();
    answer = (call) => (call.method === 'POST' ? undefined : []);
    renderAt('/settings/teams/new');
    await user.type(await screen.findByLabelText('Name'), 'platform');
    const spec = screen.getByLabelText('Spec');
    await user.type(spec, '- just a list');
    await user.tab();
    expect((await screen.findByRole('alert')).textContent).toBe(CODE_OBJECT_MESSAGE);
    await user.clear(spec);
    await user.type(spec, 'a: [[1');
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Invalid YAML: /);
    await user.clear(spec);
    await user.type(spec, 'oncall: pager{enter}escalation:{enter}  after: 5m');
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'POST')).toBeTruthy());
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'platform', icon: 'group', spec: { oncall: 'pager', escalation: { after: '5m' } } });
  });

  it('shows the spec as YAML and opens extra tabs from the URL and the tab bar', async () => {
    const user = userEvent.setup();
    answer = () => [{ id: 't1', name: 'ops', icon: 'group', source: 'UI', spec: { oncall: 'pager' } }];
    renderAt('/settings/teams/t1');
    expect(await screen.findByRole('tab', { name: 'Spec', selected: true })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Spec' }).value).toBe('oncall: pager\n'));
    await user.click(screen.getByRole('tab', { name: 'Extra' }));
    expect(await screen.findByText('extra tab of t1 (ops), may create, UI')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/settings/teams/t1?tab=extra');
    await user.click(screen.getByRole('tab', { name: 'Spec' }));
    expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/settings/teams/t1');
  });

  it('deletes a row after confirmation and names it in the toast', async () => {
    const user = userEvent.setup();
    answer = (call) => (call.method === 'DELETE' ? undefined : [{ id: 't1', name: 'ops', icon: 'group', source: 'UI', spec: {} }]);
    renderAt('/settings/teams/t1');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Team' });
    expect(confirm.textContent).toContain('Are you sure you want to delete ops?');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/settings/teams'));
    expect(calls.find((call) => call.method === 'DELETE')).toMatchObject({ path: '/api/db/teams', search: '?id=eq.t1' });
    expect(toastSuccess).toHaveBeenCalledWith('ops deleted successfully', expect.anything());
  });

  it('shows a linked row read-only, without Update or Delete, even to an admin', async () => {
    answer = () => [{ id: 't2', name: 'crd-team', icon: 'group', source: 'KubernetesCRD', spec: {} }];
    renderAt('/settings/teams/t2');
    expect(await screen.findByRole('note')).toBeTruthy();
    expect(screen.getByRole('note').textContent).toBe('This team comes from KubernetesCRD and is read-only here: change it where it is defined.');
    expect(screen.getByLabelText<HTMLInputElement>('Icon').disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Update' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Extra' }));
    expect(await screen.findByText('extra tab of t2 (crd-team), may create, KubernetesCRD')).toBeTruthy();
  });

  it('gates writing on the write object and reading on the read object', async () => {
    answer = () => [{ id: 't1', name: 'ops', icon: 'group', source: 'UI', spec: {} }];
    renderAt('/settings/teams', VIEWER);
    expect(await screen.findByText('ops')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Add Team' })).toBeNull();
    renderAt('/settings/teams/t1', VIEWER);
    await waitFor(() => expect(screen.getAllByLabelText<HTMLInputElement>('Icon')[0]?.disabled).toBe(true));
    expect(screen.queryByRole('button', { name: 'Update' })).toBeNull();
    renderAt('/settings/teams/new', VIEWER);
    expect(await screen.findByText('You do not have permission to access this page')).toBeTruthy();
    renderAt('/settings/teams', {});
    expect(await screen.findAllByText('You do not have permission to access this page')).toHaveLength(2);
  });
});
