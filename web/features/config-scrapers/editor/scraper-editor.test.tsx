// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccessMap } from '@common/rbac';
import { StaticSession } from '@web/app/session';
import { REQUIRED } from '@web/lib/validation';
import { TooltipProvider } from '@web/ui/primitives/tooltip';
import NewScraperPage from '../pages/new-scraper-page';
import ScraperPage from '../pages/scraper-page';
import ScrapersListPage from '../pages/scrapers-list-page';

vi.mock('@web/app/layout/page');
// The pages of this build, as far as links between catalog pages go.
vi.mock('@web/app/routes', () => ({
  appRoutes: ['catalog', 'catalog/:id', 'catalog/changes', 'catalog/insights', 'catalog/scrapers', 'catalog/scrapers/:id'].map((path) => ({ path, load: async () => ({ default: () => null }) })),
}));
// CodeMirror needs a real layout engine; the Code tab's text goes through a plain text area here.
vi.mock('@web/features/canaries/editor/code-editor', () => ({
  default: ({ value, onChange, readOnly, label }: { value: string; onChange: (value: string) => void; readOnly: boolean; label: string }) => (
    <textarea aria-label={label} value={value} readOnly={readOnly} onChange={(event) => onChange(event.target.value)} />
  ),
}));
const toastSuccess = vi.hoisted(() => vi.fn());
const toastError = vi.hoisted(() => vi.fn());
const toastLoading = vi.hoisted(() => vi.fn(() => 'loading-1'));
vi.mock('sonner', () => ({ toast: { success: toastSuccess, error: toastError, loading: toastLoading, dismiss: vi.fn() } }));

const ADMIN: AccessMap = { config_scrapers: ['read', 'create', 'update', 'delete'], database: ['read'] };
const VIEWER: AccessMap = { config_scrapers: ['read'], database: ['read'] };
const SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    schedule: { type: 'string' },
    full: { type: 'boolean' },
    retention: { type: 'object' },
    file: { type: 'array', description: 'File', items: { type: 'object', properties: { paths: { type: 'array', items: { type: 'string' } } }, required: ['paths'] } },
    sql: { type: 'array', description: 'SQL' },
    exec: { type: 'array', description: 'Exec' },
  },
  additionalProperties: true,
};
const ROW = {
  id: 's1',
  name: 'apps',
  namespace: 'ops',
  description: 'from the console',
  labels: { team: 'web' },
  spec: { schedule: '@every 30m', file: [{ paths: ['/srv/apps/*.yaml'] }] },
  schedule: '@every 30m',
  source: 'UI',
  last_run_at: null,
  next_run_at: '2030-01-01T00:00:00Z',
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
  last_job_status: 'SUCCESS',
  last_job_time: '2024-01-02T00:00:00Z',
  last_job_error_count: 0,
  item_count: 1,
};
const RUN = { id: 'j1', name: 'Scraper', agent_id: null, agent: null, resource_type: 'config_scraper', resource_id: 's1', resource_name: 'apps', status: 'SUCCESS', success_count: 2, error_count: 0, details: { summary: { created: 2, updated: 0, unchanged: 0, deleted: 0, changes: 0, analysis: 1 } }, hostname: null, duration_millis: 40, time_start: '2024-01-02T00:00:00Z', time_end: null, created_at: '2024-01-02T00:00:00Z' };
const ITEM = { id: 'i1', name: 'web', type: 'Kubernetes::Deployment', health: 'healthy', status: 'Running', changes: 1, analysis: { security: 2 }, updated_at: null, last_scraped_time: '2024-01-02T00:00:00Z' };

interface Call {
  method: string;
  path: string;
  search: string;
  body: unknown;
}
let calls: Call[] = [];
let rows: unknown[] = [];
let saveAnswer: { status: number; body: unknown } = { status: 201, body: { id: 's9', action: 'created', warnings: [] } };

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

// The editor's modules load lazily and a journey types a lot: slow on a busy 2-core machine.
vi.setConfig({ testTimeout: 20_000 });

beforeAll(() => {
  configure({ asyncUtilTimeout: 5000 });
  Element.prototype.scrollIntoView = () => undefined;
  Element.prototype.hasPointerCapture = () => false;
  Element.prototype.releasePointerCapture = () => undefined;
});
beforeEach(() => {
  calls = [];
  rows = [ROW];
  saveAnswer = { status: 201, body: { id: 's9', action: 'created', warnings: [] } };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const call = { method: init?.method ?? 'GET', path: url.pathname, search: decodeURIComponent(url.search), body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      const id = url.searchParams.get('id');
      if (url.pathname === '/api/db/properties') return json([]);
      if (url.pathname === '/api/catalog/scrapers/schema') return json(SCHEMA);
      if (url.pathname === '/api/catalog/scrapers/validate') return json({ errors: [], warnings: ['spec.file[0]: a warning of the server'], schedule: '@hourly', entries: [] });
      if (url.pathname.startsWith('/api/catalog/scrapers')) return json(saveAnswer.body, call.method === 'DELETE' ? 200 : saveAnswer.status);
      if (url.pathname.startsWith('/api/config/run/')) return json({ created: 2, updated: 1, unchanged: 0, deleted: 0, changes: 3, analysis: 1, errors: [], status: 'SUCCESS' });
      if (url.pathname === '/api/db/config_scrapers_summary') return json(id ? rows.filter((row) => id === `eq.${String(Reflect.get(Object(row), 'id'))}`) : rows);
      if (url.pathname === '/api/db/job_histories') return json([RUN], 200, { 'content-range': '0-0/1' });
      if (url.pathname === '/api/db/configs') return json(url.searchParams.get('limit') === '1' ? [{ id: 'i1' }] : [ITEM], 200, { 'content-range': '0-0/1' });
      return json({ error: 'not_found', message: 'no' }, 404);
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  toastSuccess.mockClear();
  toastError.mockClear();
  toastLoading.mockClear();
});

function Where() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname + location.search}</output>;
}
const where = () => screen.getByRole('status', { name: 'location' }).textContent;

function renderAt(path: string, permissions: AccessMap = ADMIN) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const page = (element: React.ReactNode) => (
    <>
      {element}
      <Where />
    </>
  );
  const router = createMemoryRouter(
    [
      { path: '/catalog/scrapers', element: page(<ScrapersListPage />) },
      { path: '/catalog/scrapers/new', element: page(<NewScraperPage />) },
      { path: '/catalog/scrapers/:id', element: page(<ScraperPage />) },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={client}>
      <StaticSession value={{ status: 'ready', user: { id: 'me', name: 'Me', roles: [], permissions }, signOut: undefined }}>
        <TooltipProvider>
          <RouterProvider router={router} />
        </TooltipProvider>
      </StaticSession>
    </QueryClientProvider>,
  );
}

async function pickFile(user: ReturnType<typeof userEvent.setup>) {
  renderAt('/catalog/scrapers/new');
  await user.click(await screen.findByRole('button', { name: 'File' }));
  return screen.findByRole('group', { name: 'File source 1' });
}

describe('the list', () => {
  it('shows each scraper with its types, schedule, source, last run and items, and Add for those who may create', async () => {
    rows = [
      { ...ROW, item_count: 12 },
      { ...ROW, id: 's2', name: 'from-file', source: 'ConfigFile', schedule: null, spec: { sql: [{}], exec: [{}] }, last_job_status: 'FAILED', last_job_error_count: 3, item_count: 0 },
      { ...ROW, id: 's3', name: 'idle', last_job_status: null, last_job_time: null, last_job_error_count: null, item_count: 0 },
    ];
    renderAt('/catalog/scrapers');
    const table = await screen.findByRole('table', { name: 'Scrapers' });
    await within(table).findByText('from-file');
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Name', 'Namespace', 'Types', 'Schedule', 'Source', 'Last Run', 'Items', 'Created']);
    const [first, second, third] = within(table).getAllByRole('row').slice(1);
    expect(first?.textContent).toContain('@every 30m');
    expect(first?.textContent).toContain('SUCCESS');
    expect(first?.textContent).toContain('12');
    expect(second?.textContent).toContain('sql, exec');
    expect(second?.textContent).toContain('on demand');
    expect(second?.textContent).toContain('FAILED');
    expect(second?.textContent).toContain('3 errors');
    expect(third?.textContent).toContain('never');
    expect(within(table).getByText('Linked: ConfigFile')).toBeTruthy();
    // One request for the whole list: no request per row for its last run or its item count.
    const reads = calls.filter((call) => call.path.startsWith('/api/db/') && call.path !== '/api/db/properties');
    expect(reads.map((call) => call.path)).toEqual(['/api/db/config_scrapers_summary']);
    expect(reads[0]?.search).toContain('last_job_status,last_job_time,last_job_error_count,item_count');
    expect(screen.getByRole('link', { name: 'Add scraper' }).getAttribute('href')).toBe('/catalog/scrapers/new');
  });

  it('offers no Add to readers, and says when there are none', async () => {
    rows = [];
    renderAt('/catalog/scrapers', VIEWER);
    expect(await screen.findByText('No scrapers found')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Add scraper' })).toBeNull();
  });
});

describe('a new scraper', () => {
  it('offers the scraper types of the schema, then the form of the picked one with the scraper schedules', async () => {
    const user = userEvent.setup();
    renderAt('/catalog/scrapers/new');
    const picker = await screen.findByRole('region', { name: 'Choose the type of scraper' });
    expect(within(picker).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['File', 'SQL', 'Exec']);
    await user.click(within(picker).getByRole('button', { name: 'File' }));
    expect(where()).toBe('/catalog/scrapers/new?type=file');
    const entry = await screen.findByRole('group', { name: 'File source 1' });
    expect(within(entry).getByRole<HTMLTextAreaElement>('textbox', { name: 'Paths' }).required).toBe(true);
    const schedule = screen.getByRole('combobox', { name: 'Schedule' });
    expect(schedule.textContent).toBe('@hourly');
    await user.click(schedule);
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['@every 15m', '@every 30m', '@hourly', '@every 2h', '@every 4h', '@daily', 'Custom']);
  });

  it("says 'This field is required', then saves through /api/catalog/scrapers and opens the scraper", async () => {
    const user = userEvent.setup();
    const entry = await pickFile(user);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText(REQUIRED)).toHaveLength(2);
    expect(calls.some((call) => call.method === 'POST' && call.path === '/api/catalog/scrapers')).toBe(false);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'apps');
    await user.type(within(entry).getByRole('textbox', { name: 'Paths' }), '/srv/apps/*.yaml{enter}/srv/more');
    await user.type(within(entry).getByRole('textbox', { name: 'Item type' }), 'App');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(where()).toBe('/catalog/scrapers/s9'));
    expect(calls.find((call) => call.method === 'POST' && call.path === '/api/catalog/scrapers')?.body).toEqual({
      name: 'apps',
      namespace: 'default',
      labels: {},
      spec: { schedule: '@hourly', file: [{ paths: ['/srv/apps/*.yaml', '/srv/more'], type: 'App' }] },
    });
    expect(toastSuccess).toHaveBeenCalledWith('Catalog Scraper created successfully', expect.anything());
  });

  it("puts a refusal's problems on their fields and lists the others", async () => {
    const user = userEvent.setup();
    saveAnswer = {
      status: 400,
      body: { error: 'invalid_request', message: '2 problems', details: [{ path: 'spec.file[0].paths', message: 'name at least one file' }, { path: 'spec.retention', message: 'is odd' }] },
    };
    const entry = await pickFile(user);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'apps');
    await user.type(within(entry).getByRole('textbox', { name: 'Paths' }), 'x');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await within(entry).findByText('name at least one file')).toBeTruthy();
    expect(screen.getByText('spec.retention: is odd')).toBeTruthy();
    expect(screen.getByText('Not saved: the server found problems, shown on the fields and listed above.')).toBeTruthy();
    expect(toastError).not.toHaveBeenCalled();
  });

  it('keeps Form and Code in step and shows what the server says of the spec', async () => {
    const user = userEvent.setup();
    const entry = await pickFile(user);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'apps');
    await user.type(within(entry).getByRole('textbox', { name: 'Paths' }), '/srv/a.yaml');
    expect(await screen.findByText('spec.file[0]: a warning of the server')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Code' }));
    expect(where()).toBe('/catalog/scrapers/new?type=file&mode=code');
    const code = await screen.findByRole<HTMLTextAreaElement>('textbox', { name: 'ScrapeConfig YAML' });
    await waitFor(() => expect(code.value).toContain('kind: ScrapeConfig'));
    expect(code.value).toContain('  file:\n    - paths:\n        - /srv/a.yaml\n');
    await user.type(code, '  exec:{enter}    - script: echo hi{enter}');
    await user.click(screen.getByRole('tab', { name: 'Form' }));
    const exec = await screen.findByRole('group', { name: 'Exec source 1' });
    expect(within(exec).getByRole<HTMLTextAreaElement>('textbox', { name: 'Script' }).value).toBe('echo hi');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(where()).toBe('/catalog/scrapers/s9'));
    expect(calls.find((call) => call.method === 'POST' && call.path === '/api/catalog/scrapers')?.body).toMatchObject({
      spec: { schedule: '@hourly', file: [{ paths: ['/srv/a.yaml'] }], exec: [{ script: 'echo hi' }] },
    });
  });
});

describe('a scraper', () => {
  it('shows its details, items and runs; Run Now toasts what the run did', async () => {
    const user = userEvent.setup();
    renderAt('/catalog/scrapers/s1');
    const details = await screen.findByLabelText('Scraper details');
    expect(details.textContent).toContain('ops');
    expect(details.textContent).toContain('@every 30m');
    expect(details.textContent).toContain('SUCCESS');
    expect(calls.filter((call) => call.path === '/api/db/config_scrapers_summary').map((call) => call.search)).toEqual([expect.stringContaining('id=eq.s1')]);
    const items = await screen.findByRole('table', { name: 'Items' });
    expect((await within(items).findByRole('link', { name: /web/ })).getAttribute('href')).toBe('/catalog/i1');
    expect(calls.find((call) => call.path === '/api/db/configs' && call.search.includes('order'))?.search).toContain('scraper_id=eq.s1');
    await user.click(screen.getByRole('button', { name: 'Run Now' }));
    await waitFor(() => expect(toastSuccess).toHaveBeenCalledWith('apps: 2 created, 1 updated, 0 unchanged, 0 deleted; 3 changes, 1 insight', expect.anything()));
    expect(calls.find((call) => call.method === 'POST' && call.path === '/api/config/run/s1')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Job History' }));
    const runs = await screen.findByRole('table', { name: 'Runs' });
    expect(within(runs).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Status', 'Started', 'Duration', 'Created', 'Updated', 'Unchanged', 'Deleted', 'Changes', 'Insights', 'Errors']);
    expect(where()).toBe('/catalog/scrapers/s1?tab=job-history');
  });

  it('edits in the Spec tab (name locked, description kept) and updates with PUT', async () => {
    const user = userEvent.setup();
    saveAnswer = { status: 200, body: { id: 's1', action: 'updated', warnings: [] } };
    renderAt('/catalog/scrapers/s1');
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    expect(where()).toBe('/catalog/scrapers/s1?tab=spec');
    const entry = await screen.findByRole('group', { name: 'File source 1' });
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Name' }).disabled).toBe(true);
    const paths = within(entry).getByRole('textbox', { name: 'Paths' });
    await user.clear(paths);
    await user.type(paths, '/srv/other');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(where()).toBe('/catalog/scrapers/s1'));
    expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
      path: '/api/catalog/scrapers/s1',
      body: { name: 'apps', namespace: 'ops', labels: { team: 'web' }, description: 'from the console', spec: { schedule: '@every 30m', file: [{ paths: ['/srv/other'] }] } },
    });
  });

  it('deletes after confirmation and returns to the list', async () => {
    const user = userEvent.setup();
    renderAt('/catalog/scrapers/s1');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Catalog Scraper' });
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(where()).toBe('/catalog/scrapers'));
    expect(calls.find((call) => call.method === 'DELETE')?.path).toBe('/api/catalog/scrapers/s1');
    expect(toastSuccess).toHaveBeenCalledWith('apps deleted successfully', expect.anything());
  });

  it('shows one applied from a file as linked: no Edit, no Delete, its spec read-only', async () => {
    const user = userEvent.setup();
    rows = [{ ...ROW, source: 'ConfigFile' }];
    renderAt('/catalog/scrapers/s1');
    expect((await screen.findByRole('note')).textContent).toBe('This scraper comes from ConfigFile and is read-only here: change it where it is defined.');
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    await user.click(screen.getByRole('tab', { name: 'Spec' }));
    const entry = await screen.findByRole('group', { name: 'File source 1' });
    expect(within(entry).getByRole<HTMLTextAreaElement>('textbox', { name: 'Paths' }).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Update' })).toBeNull();
  });

  it('offers readers neither Run Now nor Edit', async () => {
    renderAt('/catalog/scrapers/s1', VIEWER);
    await screen.findByRole('table', { name: 'Items' });
    expect(screen.queryByRole('button', { name: 'Run Now' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });
});
