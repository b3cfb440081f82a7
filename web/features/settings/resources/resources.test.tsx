// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resourceRoutes, routes } from '../routes';
import { findResource, settingsResources, type SettingsResource } from './registry';
import { ResourceRegistryContext } from './registry-context';
import ResourceDetailPage from './resource-detail-page';
import ResourceListPage from './resource-list-page';

// The shell's page frame needs the whole app (session, menus); a plain frame is enough here.
vi.mock('@web/app/layout/page', () => ({
  Page: ({ title, extra, children }: { title: string; extra?: ReactNode; children: ReactNode }) => (
    <div>
      <h1>{title}</h1>
      {extra}
      {children}
    </div>
  ),
}));
vi.mock('@web/app/pages/not-found-page', () => ({ default: () => <p>Page not found</p> }));

const teams: SettingsResource = {
  table: 'teams',
  label: 'Teams',
  icon: Users,
  feature: 'settings.teams',
  columns: [
    { key: 'name', header: 'Name' },
    { key: 'created_at', header: 'Created', kind: 'date' },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true, immutable: true },
    { name: 'icon', label: 'Icon', defaultValue: 'group' },
  ],
};

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
afterEach(() => vi.unstubAllGlobals());

function Where() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname}</output>;
}

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/settings/:table', element: <><ResourceListPage /><Where /></> },
      { path: '/settings/:table/:id', element: <><ResourceDetailPage /><Where /></> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={client}>
      <ResourceRegistryContext.Provider value={[teams]}>
        <RouterProvider router={router} />
      </ResourceRegistryContext.Provider>
    </QueryClientProvider>,
  );
}

describe('registry and routes', () => {
  it('is empty until features register tables, so only the fixed pages have menu entries', () => {
    expect(settingsResources).toEqual([]);
    expect(routes.filter((route) => route.nav).map((route) => route.nav?.label)).toEqual(['Jobs History', 'Event Queue', 'Feature Flags']);
    expect(routes.map((route) => route.path)).toContain('settings/:table/:id');
  });
  it('gives each registered table a Settings menu entry and its feature flag', () => {
    const [route] = resourceRoutes([teams]);
    expect(route).toMatchObject({ path: 'settings/teams', feature: 'settings.teams', nav: { label: 'Teams', section: 'settings', icon: Users } });
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

  it("lists 100 rows newest first, and says 'No resources found' when empty", async () => {
    renderAt('/settings/teams');
    expect(await screen.findByText('No resources found')).toBeTruthy();
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/api/db/teams', search: '?select=*&order=created_at.desc&limit=100' });
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
    expect(patch).toMatchObject({ path: '/api/db/teams', search: '?id=eq.t1', body: { icon: 'shield' } });
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
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({ path: '/api/db/teams', body: { name: 'platform', icon: 'group' } });
  });
});
