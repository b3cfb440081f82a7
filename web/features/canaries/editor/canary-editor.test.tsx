// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccessMap } from '@common/rbac';
import { StaticSession } from '@web/app/session';
import { ResourceRegistryContext } from '@web/features/settings/resources/registry-context';
import ResourceDetailPage from '@web/features/settings/resources/resource-detail-page';
import ResourceListPage from '@web/features/settings/resources/resource-list-page';
import { REQUIRED } from '@web/lib/validation';
import { TooltipProvider } from '@web/ui/primitives/tooltip';
import { CANARY_JOB_HISTORY_EMPTY, canariesResource } from '../resource';

vi.mock('@web/app/layout/page');
// CodeMirror needs a real layout engine; the Code tab's text goes through a plain text area here.
vi.mock('./code-editor', () => ({
  default: ({ value, onChange, readOnly, label }: { value: string; onChange: (value: string) => void; readOnly: boolean; label: string }) => (
    <textarea aria-label={label} value={value} readOnly={readOnly} onChange={(event) => onChange(event.target.value)} />
  ),
}));
const toastSuccess = vi.hoisted(() => vi.fn());
const toastError = vi.hoisted(() => vi.fn());
vi.mock('sonner', () => ({ toast: { success: toastSuccess, error: toastError, loading: vi.fn(), dismiss: vi.fn() } }));

const ADMIN: AccessMap = { canaries: ['read', 'create', 'update', 'delete'], database: ['read'] };
const VIEWER: AccessMap = { canaries: ['read'], database: ['read'] };
const ABOUT = {
  name: 'watchkeeper',
  check_types: [
    { type: 'http', label: 'HTTP', icon: 'globe', push: false },
    { type: 'tcp', label: 'TCP', icon: 'network', push: false },
    { type: 'exec', label: 'Exec', icon: 'terminal', push: false },
  ],
};
const ROW = { id: 'c1', name: 'web', namespace: 'ops', labels: { team: 'web' }, spec: { tcp: [{ name: 'db', endpoint: 'db:5432' }], schedule: '@every 1m' }, schedule: '@every 1m', source: 'UI', created_at: '2024-01-01T00:00:00Z' };

interface Call {
  method: string;
  path: string;
  search: string;
  body: unknown;
}
let calls: Call[] = [];
let rows: unknown[] = [];
let saveAnswer: { status: number; body: unknown } = { status: 201, body: { id: 'new', action: 'created', warnings: [], checks: 1 } };

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

beforeAll(() => {
  // Tabs and the editor are lazy modules: their first import can take a while on a busy machine.
  configure({ asyncUtilTimeout: 5000 });
  Element.prototype.scrollIntoView = () => undefined;
  Element.prototype.hasPointerCapture = () => false;
  Element.prototype.releasePointerCapture = () => undefined;
});
beforeEach(() => {
  calls = [];
  rows = [ROW];
  saveAnswer = { status: 201, body: { id: 'new', action: 'created', warnings: [], checks: 1 } };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const call = { method: init?.method ?? 'GET', path: url.pathname, search: decodeURIComponent(url.search), body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      if (url.pathname === '/api/canary/about') return json(ABOUT);
      if (url.pathname === '/api/canary/schema') return json({ type: 'object', properties: {} });
      if (url.pathname === '/api/canary/canaries/validate') return json({ errors: [], warnings: ['spec.tcp[0].foo is not supported for tcp checks; it is ignored'], checks: [], schedule: null });
      if (url.pathname.startsWith('/api/canary/canaries')) return json(saveAnswer.body, call.method === 'DELETE' ? 200 : saveAnswer.status);
      if (url.pathname === '/api/db/job_histories') return new Response('[]', { status: 200, headers: { 'content-type': 'application/json', 'content-range': '*/0' } });
      if (url.pathname === '/api/db/canaries') return json(url.searchParams.get('id') ? rows.filter((row) => url.searchParams.get('id') === `eq.${String(Reflect.get(Object(row), 'id'))}`) : rows);
      return json({ error: 'not_found', message: 'no' }, 404);
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  toastSuccess.mockClear();
  toastError.mockClear();
});

function Where() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname + location.search}</output>;
}
const where = () => screen.getByRole('status', { name: 'location' }).textContent;

function renderAt(path: string, permissions: AccessMap = ADMIN) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/settings/canaries', element: <><ResourceListPage /><Where /></> },
      { path: '/settings/canaries/:id', element: <><ResourceDetailPage /><Where /></> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={client}>
      <StaticSession value={{ status: 'ready', user: { id: 'me', name: 'Me', roles: [], permissions }, signOut: undefined }}>
        <TooltipProvider>
          <ResourceRegistryContext.Provider value={[canariesResource]}>
            <RouterProvider router={router} />
          </ResourceRegistryContext.Provider>
        </TooltipProvider>
      </StaticSession>
    </QueryClientProvider>,
  );
}

async function pickHttp(user: ReturnType<typeof userEvent.setup>) {
  renderAt('/settings/canaries/new');
  await user.click(await screen.findByRole('button', { name: 'HTTP' }));
  return screen.findByRole('group', { name: 'HTTP check 1' });
}

describe('the list', () => {
  it('shows 100 canaries newest first with their schedule, checks and source, and Add for those who may create', async () => {
    rows = [{ ...ROW, spec: { http: [{}, {}], docker: [{}] } }, { ...ROW, id: 'c2', name: 'from-file', source: 'ConfigFile' }];
    renderAt('/settings/canaries');
    const table = await screen.findByRole('table', { name: 'Health Checks' });
    await within(table).findByText('from-file');
    expect(calls.find((call) => call.path === '/api/db/canaries')?.search).toBe('?select=*&order=created_at.desc&limit=100');
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Name', 'Namespace', 'Schedule', 'Checks', 'Source', 'Agent', 'Last Run', 'Created']);
    const [first] = within(table).getAllByRole('row').slice(1);
    expect(first?.textContent).toContain('3');
    expect(within(table).getByText('Linked: ConfigFile')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add Health Check' }).getAttribute('href')).toBe('/settings/canaries/new');
  });

  it("says 'No resources found' when empty and offers no Add to readers", async () => {
    rows = [];
    renderAt('/settings/canaries', VIEWER);
    expect(await screen.findByText('No resources found')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Add Health Check' })).toBeNull();
  });
});

describe('a new health check', () => {
  it('offers only the check types the server runs, then the form of the picked one', async () => {
    const user = userEvent.setup();
    renderAt('/settings/canaries/new');
    const picker = await screen.findByRole('region', { name: 'Choose the type of check' });
    expect(within(picker).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['HTTP', 'TCP', 'Exec']);
    await user.click(within(picker).getByRole('button', { name: 'HTTP' }));
    expect(where()).toBe('/settings/canaries/new?type=http');
    const check = await screen.findByRole('group', { name: 'HTTP check 1' });
    expect(within(check).getByRole<HTMLInputElement>('textbox', { name: 'URL' }).required).toBe(true);
    expect(within(check).getByRole('combobox', { name: 'Method' }).textContent).toBe('GET');
    expect(within(check).queryByRole('textbox', { name: 'Body' })).toBeNull();
    await user.click(within(check).getByRole('combobox', { name: 'Method' }));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['GET', 'POST', 'PUT', 'DELETE']);
    await user.click(screen.getByRole('option', { name: 'POST' }));
    expect(within(check).getByRole('textbox', { name: 'Body' })).toBeTruthy();
    expect(within(within(check).getByRole('group', { name: 'Response codes' })).getAllByRole('checkbox').map((box) => box.parentElement?.textContent)).toEqual([
      '200', '201', '202', '204', '301', '302', '401', '404', '500', '502', '503',
    ]);
  });

  it("says 'This field is required' once a required field is touched", async () => {
    const user = userEvent.setup();
    const check = await pickHttp(user);
    const url = within(check).getByRole('textbox', { name: 'URL' });
    expect(screen.queryByText(REQUIRED)).toBeNull();
    await user.click(url);
    await user.tab();
    expect(within(check).getByText(REQUIRED)).toBeTruthy();
    await user.type(url, 'http://localhost/health');
    expect(within(check).queryByText(REQUIRED)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText(REQUIRED)).toHaveLength(2);
    expect(calls.some((call) => call.method === 'POST' && call.path === '/api/canary/canaries')).toBe(false);
  });

  it('offers the resource schedule options and a custom value', async () => {
    const user = userEvent.setup();
    await pickHttp(user);
    const schedule = screen.getByRole('combobox', { name: 'Schedule' });
    expect(schedule.textContent).toBe('@every 5m');
    await user.click(schedule);
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['@every 30s', '@every 1m', '@every 5m', '@every 30m', '@hourly', '@every 6h', '@daily', '@weekly', 'Custom']);
    await user.click(screen.getByRole('option', { name: 'Custom' }));
    const custom = screen.getByRole('textbox', { name: 'Custom schedule' });
    await user.clear(custom);
    await user.type(custom, '*/10 * * * *');
    expect(screen.getByRole('combobox', { name: 'Schedule' }).textContent).toBe('Custom');
  });

  it('saves through /api/canary/canaries and returns to the list', async () => {
    const user = userEvent.setup();
    const check = await pickHttp(user);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'console');
    await user.click(screen.getByRole('button', { name: 'Add label' }));
    await user.type(screen.getByRole('textbox', { name: 'Label 1 key' }), 'team');
    await user.type(screen.getByRole('textbox', { name: 'Label 1 value' }), 'ops');
    await user.type(within(check).getByRole('textbox', { name: 'Check name' }), 'health');
    await user.type(within(check).getByRole('textbox', { name: 'URL' }), 'http://localhost/health');
    await user.click(within(check).getByRole('checkbox', { name: '200' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(where()).toBe('/settings/canaries'));
    expect(calls.find((call) => call.method === 'POST' && call.path === '/api/canary/canaries')?.body).toEqual({
      name: 'console',
      namespace: 'default',
      labels: { team: 'ops' },
      spec: { schedule: '@every 5m', http: [{ name: 'health', url: 'http://localhost/health', method: 'GET', responseCodes: [200] }] },
    });
    expect(toastSuccess).toHaveBeenCalledWith('Health Check created successfully', expect.anything());
  });

  it("puts a refusal's problems on their fields and lists the others", async () => {
    const user = userEvent.setup();
    saveAnswer = {
      status: 400,
      body: { error: 'invalid_request', message: '2 problems', details: [{ path: 'spec.http[0].url', message: 'must be an http or https URL' }, { path: 'spec.env.TOKEN', message: 'must be {value: "…"}' }] },
    };
    const check = await pickHttp(user);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'console');
    await user.type(within(check).getByRole('textbox', { name: 'Check name' }), 'health');
    await user.type(within(check).getByRole('textbox', { name: 'URL' }), 'ftp://nowhere');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await within(check).findByText('must be an http or https URL')).toBeTruthy();
    expect(screen.getByText('spec.env.TOKEN: must be {value: "…"}')).toBeTruthy();
    expect(screen.getByText('Not saved: the server found problems, shown on the fields and listed above.')).toBeTruthy();
    expect(where()).toBe('/settings/canaries/new?type=http');
    expect(toastError).not.toHaveBeenCalled();
  });

  it('keeps Form and Code in step', async () => {
    const user = userEvent.setup();
    renderAt('/settings/canaries/new?type=tcp');
    const check = await screen.findByRole('group', { name: 'TCP check 1' });
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'db');
    await user.type(within(check).getByRole('textbox', { name: 'Check name' }), 'port');
    await user.type(within(check).getByRole('textbox', { name: 'Endpoint' }), 'db:5432');
    await user.click(screen.getByRole('tab', { name: 'Code' }));
    expect(where()).toBe('/settings/canaries/new?type=tcp&mode=code');
    const code = await screen.findByRole<HTMLTextAreaElement>('textbox', { name: 'Canary YAML' });
    await waitFor(() => expect(code.value).toContain('  tcp:\n    - name: port\n      endpoint: db:5432\n'));
    await user.type(code, '    - name: replica{enter}      endpoint: replica:5432{enter}');
    expect(await screen.findByText('spec.tcp[0].foo is not supported for tcp checks; it is ignored')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Form' }));
    const second = await screen.findByRole('group', { name: 'TCP check 2' });
    expect(within(second).getByRole<HTMLInputElement>('textbox', { name: 'Endpoint' }).value).toBe('replica:5432');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(where()).toBe('/settings/canaries'));
    expect(calls.find((call) => call.method === 'POST' && call.path === '/api/canary/canaries')?.body).toMatchObject({
      spec: { tcp: [{ name: 'port', endpoint: 'db:5432' }, { name: 'replica', endpoint: 'replica:5432' }] },
    });
  });

  it('keeps the form hidden while the YAML cannot be read, and the text as typed', async () => {
    const user = userEvent.setup();
    renderAt('/settings/canaries/new?type=tcp&mode=code');
    const code = await screen.findByRole<HTMLTextAreaElement>('textbox', { name: 'Canary YAML' });
    await user.type(code, '  tcp: [[{{');
    await user.click(screen.getByRole('tab', { name: 'Form' }));
    expect((await screen.findByRole('note')).textContent).toContain('The YAML in Code has problems, so the form cannot show it. Fix them in Code first.');
    expect(screen.queryByRole('group', { name: 'TCP check 1' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Open Code' }));
    expect((await screen.findByRole<HTMLTextAreaElement>('textbox', { name: 'Canary YAML' })).value).toMatch(/ {2}tcp: \[\{$/);
  });

  it('does not save YAML with problems and says why', async () => {
    const user = userEvent.setup();
    renderAt('/settings/canaries/new?type=yaml&mode=code');
    const code = await screen.findByRole<HTMLTextAreaElement>('textbox', { name: 'Canary YAML' });
    expect(code.value).toContain('name: ""');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Fix the problems marked in the YAML before saving.')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Problems' }).textContent).toContain('metadata.name: is required');
    expect(calls.some((call) => call.method === 'POST' && call.path === '/api/canary/canaries')).toBe(false);
  });
});

describe('a saved health check', () => {
  it('keeps its name and namespace, updates with PUT and returns to the list', async () => {
    const user = userEvent.setup();
    saveAnswer = { status: 200, body: { id: 'c1', action: 'updated', warnings: [], checks: 1 } };
    renderAt('/settings/canaries/c1');
    const check = await screen.findByRole('group', { name: 'TCP check 1' });
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Name' }).disabled).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Namespace' }).disabled).toBe(true);
    const endpoint = within(check).getByRole('textbox', { name: 'Endpoint' });
    await user.clear(endpoint);
    await user.type(endpoint, 'db:6432');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(where()).toBe('/settings/canaries'));
    expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
      path: '/api/canary/canaries/c1',
      body: { name: 'web', namespace: 'ops', labels: { team: 'web' }, spec: { schedule: '@every 1m', tcp: [{ name: 'db', endpoint: 'db:6432' }] } },
    });
    expect(toastSuccess).toHaveBeenCalledWith('Health Check updated successfully', expect.anything());
  });

  it('deletes after confirmation', async () => {
    const user = userEvent.setup();
    renderAt('/settings/canaries/c1');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Health Check' });
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(where()).toBe('/settings/canaries'));
    expect(calls.find((call) => call.method === 'DELETE')?.path).toBe('/api/canary/canaries/c1');
    expect(toastSuccess).toHaveBeenCalledWith('Health Check deleted successfully', expect.anything());
  });

  it('shows one applied from a file read-only, saying why', async () => {
    const user = userEvent.setup();
    rows = [{ ...ROW, source: 'ConfigFile' }];
    renderAt('/settings/canaries/c1');
    expect((await screen.findByRole('note')).textContent).toBe('This health check comes from ConfigFile and is read-only here: change it where it is defined.');
    const check = await screen.findByRole('group', { name: 'TCP check 1' });
    expect(within(check).getByRole<HTMLInputElement>('textbox', { name: 'Endpoint' }).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Update' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add check' })).toBeNull();
    await user.click(screen.getByRole('tab', { name: 'Code' }));
    expect((await screen.findByRole<HTMLTextAreaElement>('textbox', { name: 'Canary YAML' })).readOnly).toBe(true);
  });

  it('has a Job History tab that says honestly why it is empty', async () => {
    const user = userEvent.setup();
    renderAt('/settings/canaries/c1');
    await user.click(await screen.findByRole('tab', { name: 'Job History' }));
    expect(await screen.findByText(CANARY_JOB_HISTORY_EMPTY)).toBeTruthy();
    expect(calls.find((call) => call.path === '/api/db/job_histories')?.search).toContain('resource_type=eq.canary&resource_id=eq.c1');
    expect(where()).toBe('/settings/canaries/c1?tab=job-history');
  });
});
