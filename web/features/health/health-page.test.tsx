// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInShell, signedIn } from '@web/app/test-utils';
import HealthPage from './health-page';
import { buildPivot, pivotCellPredicate } from '@common/health-pivot';
import { check } from './test-fixtures';

const CHECKS = [
  check({ id: 'a', name: 'api', canary_name: 'web', status: 'unhealthy', labels: { team: 'web' }, uptime: { passed: 1, failed: 1, last_pass: null, last_fail: null } }),
  check({ id: 'b', name: 'db', canary_name: 'data', namespace: 'data', status: 'unhealthy', labels: { team: 'data' } }),
];

interface PageBody {
  query?: string;
  labels?: Array<{ key: string; value: string; state: 1 | -1 }>;
  groupBy?: string;
  group?: string;
  pivotBy?: string;
  pivotLabel?: string;
  pivotCell?: { row: string; column: string };
}

/**
 * The server's list as the page asks for it (POST /api/health/checks): the two checks, narrowed by the
 * search and label exclusions, grouped by canary when asked. Each request's body is recorded.
 */
function fakeSummary() {
  const bodies: Record<string, unknown>[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    if (url.pathname === '/api/health/checks') {
      const body = JSON.parse(String(init?.body ?? '{}')) as PageBody & Record<string, unknown>;
      bodies.push(body);
      const excluded = (body.labels ?? []).filter((label) => label.state === -1);
      const matching = CHECKS.filter((c) => c.name.includes(body.query ?? '') && !excluded.some((label) => c.labels[label.key] === label.value));
      const grouped = body.groupBy !== undefined && body.groupBy !== 'no-group';
      const inCell = body.pivotBy && body.pivotCell ? matching.filter(pivotCellPredicate(body.pivotBy, body.pivotLabel, body.pivotCell.row, body.pivotCell.column)) : undefined;
      const inGroup = inCell ?? (grouped && body.group !== undefined ? matching.filter((c) => c.canary_name === body.group) : matching);
      const groups = [...new Set(matching.map((c) => c.canary_name))].map((key) => {
        const members = matching.filter((c) => c.canary_name === key);
        return { key, count: members.length, status: 'unhealthy', passing: 0, latency: null, last_transition_time: null };
      });
      const namespaces = [...new Set(matching.map((c) => c.namespace))].sort().map((value) => ({ value, count: matching.filter((c) => c.namespace === value).length }));
      return Response.json({
        checks: (grouped && body.group === undefined) || (body.pivotBy && !inCell) ? [] : inGroup,
        ...(body.pivotBy && !inCell ? { pivot: buildPivot(matching, body.pivotBy, body.pivotLabel) } : {}),
        total: inGroup.length,
        page: 0,
        pageSize: 50,
        tabs: { all: matching.length, values: namespaces },
        ...(grouped && body.group === undefined ? { groups: { total: groups.length, items: groups } } : {}),
        labels: [{ key: 'team', values: ['data', 'web'], boolean: false }],
        from: 'x',
        to: 'y',
        source: 'raw',
        estimate: true,
      });
    }
    return Response.json([]);
  });
  vi.stubGlobal('fetch', fetchMock);
  return bodies;
}

function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.search}</output>;
}

const search = () => new URLSearchParams(screen.getByTestId('location').textContent ?? '');

afterEach(() => vi.unstubAllGlobals());

describe('Health page', () => {
  it('asks the server for the first page of the last hour without passing checks, grouped by canary', async () => {
    const bodies = fakeSummary();
    renderInShell(<><HealthPage /><Location /></>, { path: '/health', sessionSource: signedIn() });
    const table = await screen.findByRole('table', { name: 'Health checks' });
    await within(table).findByRole('row', { name: /web/ });
    expect(bodies[0]).toEqual({ start: '1h', hidePassing: true, labels: [], tabBy: 'namespace', groupBy: 'canary_name', sortBy: 'name', sortDesc: false, page: 0, pageSize: 50, recent: 20 });
    expect(within(table).getByRole('row', { name: /data/ })).toBeTruthy();
    // A group opens on a click: its checks are asked with the same filters.
    await userEvent.click(within(table).getByRole('row', { name: /web \(1\)/ }));
    await within(table).findByRole('row', { name: /api/ });
    expect(bodies.at(-1)).toMatchObject({ groupBy: 'canary_name', group: 'web', page: 0 });
    expect(document.title).toBe('Health | Watchkeeper');
    expect(screen.getByRole('tab', { name: /All/ }).getAttribute('aria-selected')).toBe('true');
  });

  it('sends the search 400 ms after the last keystroke and keeps it in the URL', async () => {
    const bodies = fakeSummary();
    renderInShell(<><HealthPage /><Location /></>, { path: '/health?hidePassing=false', sessionSource: signedIn() });
    await screen.findByRole('row', { name: /web/ });
    expect(bodies[0]?.hidePassing).toBe(false);
    await userEvent.type(screen.getByLabelText('Search checks'), 'ap');
    expect(search().get('query')).toBeNull();
    await waitFor(() => expect(search().get('query')).toBe('ap'), { timeout: 2000 });
    await waitFor(() => expect(bodies.at(-1)?.query).toBe('ap'));
    // One request per settled search, not one per keystroke.
    expect(bodies.filter((body) => body.query !== undefined)).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('row', { name: /data/ })).toBeNull());
  });

  it('sorts and pages on the server: a header click asks for the order, the page size selector for a larger page', async () => {
    const bodies = fakeSummary();
    renderInShell(<><HealthPage /><Location /></>, { path: '/health?hidePassing=false&groupBy=no-group', sessionSource: signedIn() });
    await screen.findByRole('row', { name: /api/ });
    await userEvent.click(screen.getByRole('button', { name: 'Uptime' }));
    await waitFor(() => expect(search().get('sortBy')).toBe('uptime'));
    await waitFor(() => expect(bodies.at(-1)).toMatchObject({ sortBy: 'uptime', sortDesc: true, page: 0 }));
    await userEvent.selectOptions(screen.getByLabelText('Rows per page'), '100');
    await waitFor(() => expect(bodies.at(-1)).toMatchObject({ sortBy: 'uptime', pageSize: 100, page: 0 }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /data/ })).toBeNull());
  });

  it('shows the pivot the server builds: one request with pivotBy, no summary of every check', async () => {
    const bodies = fakeSummary();
    renderInShell(<><HealthPage /><Location /></>, { path: '/health?hidePassing=false&pivotBy=canary_name&pivotLabel=team', sessionSource: signedIn() });
    const grid = await screen.findByRole('table', { name: 'Health checks by canary_name and team' });
    // The columns come from the server's answer (jsdom lays out no rows, so the virtualised rows are not drawn).
    await within(grid).findByRole('columnheader', { name: 'web' });
    expect(bodies[0]).toMatchObject({ pivotBy: 'canary_name', pivotLabel: 'team', groupBy: 'no-group', recent: 0 });
    expect(within(grid).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['canary_name', 'data', 'web']);
    expect(bodies.every((body) => body.pivotBy === 'canary_name')).toBe(true);
    const urls = vi.mocked(fetch).mock.calls.map(([input]) => (input instanceof Request ? input.url : String(input)));
    expect(urls.some((url) => url.includes('/api/canary/api/summary'))).toBe(false);
  });

  it('opens a check with checkId in the URL', async () => {
    fakeSummary();
    renderInShell(<><HealthPage /><Location /></>, { path: '/health?groupBy=no-group', sessionSource: signedIn() });
    await userEvent.click(await screen.findByRole('row', { name: /api/ }));
    expect(search().get('checkId')).toBe('a');
  });

  it('counts active filters on the filter menu and writes label filters to the URL', async () => {
    fakeSummary();
    renderInShell(<><HealthPage /><Location /></>, { path: '/health', sessionSource: signedIn() });
    await screen.findByRole('row', { name: /web/ });
    await userEvent.click(screen.getByRole('button', { name: 'Filters (1 active)' }));
    await userEvent.click(await screen.findByRole('button', { name: /^Label team/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Exclude team=web' }));
    expect(search().get('labels')).toBe('team=web:-1');
    expect(screen.getByRole('button', { name: 'Filters (2 active)' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('row', { name: /web/ })).toBeNull());
  });
});
