// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccessMap } from '@common/rbac';
import { StaticSession } from '@web/app/session';
import { TooltipProvider } from '@web/ui/primitives/tooltip';
import InsightsPage from '../insights/insights-page';
import ChangesPage from './changes-page';
import ConfigChangesPage from './config-changes-page';

vi.mock('@web/app/layout/page');
vi.mock('@web/app/routes', () => ({
  appRoutes: ['catalog', 'catalog/:id', 'catalog/:id/changes', 'catalog/changes', 'catalog/insights', 'catalog/scrapers'].map((path) => ({ path, load: async () => ({ default: () => null }) })),
}));

const READER: AccessMap = { config_scrapers: ['read'], database: ['read'] };
const ID = '6f1c2b7e-0000-4000-8000-000000000001';
const CONFIG = { id: ID, name: 'web', type: 'Kubernetes::Deployment', config_class: 'Deployment', health: 'healthy', status: 'Running', tags: {}, deleted_at: null };
const CHANGES = {
  summary: { diff: 2, Pulled: 1 },
  total: 3,
  page: 1,
  page_size: 50,
  changes: [
    { id: 'ch1', config_id: ID, config_type: 'Kubernetes::Deployment', change_type: 'diff', severity: 'info', source: 'ops/apps', summary: 'spec.replicas', count: 1, first_observed: '2024-01-01T00:00:00Z', created_at: '2024-01-01T00:00:00Z', created_by: null, external_created_by: null, details: null, config: CONFIG },
    { id: 'ch2', config_id: ID, config_type: 'Kubernetes::Deployment', change_type: 'Pulled', severity: 'low', source: 'kubelet', summary: 'pulled nginx', count: 4, first_observed: '2024-01-01T00:00:00Z', created_at: '2024-01-02T00:00:00Z', created_by: null, external_created_by: 'kubelet', details: null, config: CONFIG },
  ],
};
const DIFF = '--- before\n+++ after\n@@ -1,2 +1,2 @@\n kind: Deployment\n-replicas: 1\n+replicas: 2\n';
const DETAIL = {
  id: ID, name: 'web', type: 'Kubernetes::Deployment', config_class: 'Deployment', namespace: 'default', description: null, status: 'Running', health: 'healthy', ready: true, source: null,
  labels: {}, tags: {}, external_id: ['x'], config: {}, parent_id: null, scraper: null, summary: { relationships: 0, analysis: 0, changes: 3, checks: 0 },
  created_at: '2024-01-01T00:00:00Z', updated_at: '2024-01-01T00:00:00Z', last_scraped_time: null, deleted_at: null, delete_reason: null,
};
const INSIGHT = {
  id: 'a1', config_id: ID, analyzer: 'privileged', analysis_type: 'security', severity: 'high', status: 'open', message: 'Container web is privileged.', summary: 'web: privileged',
  source: 'ops/apps', first_observed: '2024-01-01T00:00:00Z', last_observed: '2024-01-02T00:00:00Z', config_name: 'web', config_type: 'Kubernetes::Deployment', config_health: 'healthy', config_deleted_at: null,
};

interface Call {
  method: string;
  path: string;
  search: string;
  body: unknown;
}
let calls: Call[] = [];

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

// Journeys that type and pick a lot: slow on a busy 2-core machine.
vi.setConfig({ testTimeout: 20_000 });

beforeAll(() => {
  configure({ asyncUtilTimeout: 5000 });
  Element.prototype.scrollIntoView = () => undefined;
  Element.prototype.hasPointerCapture = () => false;
  Element.prototype.releasePointerCapture = () => undefined;
});
beforeEach(() => {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const call = { method: init?.method ?? 'GET', path: url.pathname, search: decodeURIComponent(url.search), body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      if (url.pathname === '/api/catalog/changes') return json(CHANGES);
      if (url.pathname === '/api/db/config_changes') return json({ id: 'ch1', diff: DIFF, patches: { replicas: 2 }, details: null });
      if (url.pathname === '/api/db/change_types') return json([{ change_type: 'Pulled' }, { change_type: 'diff' }]);
      if (url.pathname === '/api/db/config_types') return json([{ type: 'Kubernetes::Deployment' }]);
      if (url.pathname === '/api/db/config_tags') return json([{ key: 'env', value: 'prod' }]);
      if (url.pathname === '/api/db/config_detail') return json(DETAIL);
      if (url.pathname === '/api/db/config_analysis_analyzers') return json([{ analyzer: 'privileged', analysis_type: 'security' }]);
      if (url.pathname === '/api/db/config_analysis_items') return json(url.searchParams.get('id') ? { ...INSIGHT, analysis: { containers: ['web'] } } : [INSIGHT], 200, { 'content-range': '0-0/1' });
      if (url.pathname === '/api/db/properties') return json([]);
      return json({ error: 'not_found', message: 'no' }, 404);
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function Where() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname + location.search}</output>;
}
// hidden: an open dialog hides the rest of the page from the accessibility tree.
const where = () => screen.getByRole('status', { name: 'location', hidden: true }).textContent;
const changeRequests = () => calls.filter((call) => call.path === '/api/catalog/changes').map((call) => call.body);

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/catalog/changes', element: <><ChangesPage /><Where /></> },
      { path: '/catalog/insights', element: <><InsightsPage /><Where /></> },
      { path: '/catalog/:id/changes', element: <><ConfigChangesPage /><Where /></> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={client}>
      <StaticSession value={{ status: 'ready', user: { id: 'me', name: 'Me', roles: [], permissions: READER }, signOut: undefined }}>
        <TooltipProvider>
          <RouterProvider router={router} />
        </TooltipProvider>
      </StaticSession>
    </QueryClientProvider>,
  );
}

describe('the change feed', () => {
  it('shows a page of changes with counts by type, each linking to its config', async () => {
    renderAt('/catalog/changes');
    const table = await screen.findByRole('table', { name: 'Changes' });
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Open', 'Change', 'Config', 'Severity', 'Source', 'Count', 'Created by', 'First seen', 'Last seen']);
    expect(within(table).getAllByRole('link', { name: /web/ })[0]?.getAttribute('href')).toBe(`/catalog/${ID}`);
    expect(within(screen.getByRole('list', { name: 'Changes by type' })).getAllByRole('button').map((chip) => chip.textContent)).toEqual(['diff2', 'Pulled1']);
    expect(screen.getByText('3')).toBeTruthy();
    expect(changeRequests()[0]).toMatchObject({ sort_by: '-created_at', page: 1, page_size: 50, from: expect.any(String), to: expect.any(String) });
  });

  it('opens a row to its coloured diff and patches, read then, and keeps the open row in the URL', async () => {
    const user = userEvent.setup();
    renderAt('/catalog/changes');
    const table = await screen.findByRole('table', { name: 'Changes' });
    expect(calls.some((call) => call.path === '/api/db/config_changes')).toBe(false);
    const [first] = within(table).getAllByRole('row').slice(1);
    if (!first) throw new Error('no rows');
    await user.click(first);
    const diff = await screen.findByLabelText('Diff', { selector: 'pre' });
    expect(diff.querySelector('[data-diff="add"]')?.textContent).toBe('+replicas: 2');
    expect(diff.querySelector('[data-diff="remove"]')?.textContent).toBe('-replicas: 1');
    expect(screen.getByRole('region', { name: 'Patches' }).textContent).toContain('"replicas": 2');
    expect(calls.find((call) => call.path === '/api/db/config_changes')?.search).toBe('?select=id,diff,patches,details&id=eq.ch1');
    expect(where()).toBe('/catalog/changes?change=ch1');
    expect(first.getAttribute('aria-expanded')).toBe('true');
    await user.click(first);
    expect(where()).toBe('/catalog/changes');
  });

  it('filters by a chip and by the filter bar, sorts on the server, and keeps it all in the URL', async () => {
    const user = userEvent.setup();
    renderAt('/catalog/changes');
    await screen.findByRole('table', { name: 'Changes' });
    await user.click(screen.getByRole('button', { name: 'Pulled1' }));
    expect(where()).toBe('/catalog/changes?changeType=Pulled');
    await waitFor(() => expect(changeRequests().at(-1)).toMatchObject({ type: 'Pulled' }));
    await user.selectOptions(screen.getByLabelText('Severity'), 'low');
    expect(where()).toBe('/catalog/changes?changeType=Pulled&severity=low');
    await user.type(screen.getByLabelText('Tag'), 'env=prod{enter}');
    expect(where()).toBe('/catalog/changes?changeType=Pulled&severity=low&tags=env%3Dprod');
    await waitFor(() => expect(changeRequests().at(-1)).toMatchObject({ type: 'Pulled', severity: 'low', tags: { env: 'prod' } }));
    await user.click(screen.getByRole('button', { name: 'Count' }));
    // A number sorts largest first on its first click.
    await waitFor(() => expect(changeRequests().at(-1)).toMatchObject({ sort_by: '-count' }));
    await user.click(screen.getByRole('button', { name: 'Remove tag env=prod' }));
    expect(where()).not.toContain('tags=');
  });

  it("scopes the feed to one config under its header, with how far to follow its relationships", async () => {
    const user = userEvent.setup();
    renderAt(`/catalog/${ID}/changes`);
    await screen.findByRole('table', { name: 'Changes' });
    expect(screen.getByRole('navigation', { name: 'Config sections' })).toBeTruthy();
    expect(changeRequests()[0]).toMatchObject({ id: ID, recursive: 'none' });
    expect(screen.queryByLabelText('Config type')).toBeNull();
    await user.selectOptions(screen.getByLabelText('Related'), 'down');
    await user.selectOptions(await screen.findByLabelText('Depth'), '2');
    expect(where()).toBe(`/catalog/${ID}/changes?recursive=down&depth=2`);
    await waitFor(() => expect(changeRequests().at(-1)).toMatchObject({ id: ID, recursive: 'down', depth: 2 }));
  });
});

describe('insights', () => {
  it('lists the open insights linked to their configs, and opens one with its analysis', async () => {
    const user = userEvent.setup();
    renderAt('/catalog/insights');
    const table = await screen.findByRole('table', { name: 'Insights' });
    expect(calls.find((call) => call.path === '/api/db/config_analysis_items')?.search).toContain('status=eq.open');
    expect((await within(table).findByRole('link', { name: /web/ })).getAttribute('href')).toBe(`/catalog/${ID}`);
    await user.click(within(table).getByText('privileged'));
    expect(where()).toBe('/catalog/insights?insight=a1');
    const dialog = await screen.findByRole('dialog', { name: 'Insight: privileged' });
    expect(await within(dialog).findByText('Container web is privileged.')).toBeTruthy();
    expect(within(dialog).getByRole('region', { name: 'Analysis' }).textContent).toContain('"containers"');
    await user.selectOptions(screen.getByLabelText('Status'), 'all');
    expect(where()).toBe('/catalog/insights?insight=a1&status=all');
  });
});
