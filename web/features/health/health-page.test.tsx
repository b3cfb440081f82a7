// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInShell, signedIn } from '@web/app/test-utils';
import HealthPage from './health-page';
import { check } from './test-fixtures';

const CHECKS = [
  check({ id: 'a', name: 'api', canary_name: 'web', status: 'unhealthy', labels: { team: 'web' }, uptime: { passed: 1, failed: 1, last_pass: null, last_fail: null } }),
  check({ id: 'b', name: 'db', canary_name: 'data', namespace: 'data', status: 'unhealthy', labels: { team: 'data' } }),
];

function fakeSummary() {
  const bodies: Record<string, unknown>[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    if (url.pathname === '/api/canary/api/summary') {
      const body: unknown = JSON.parse(String(init?.body ?? '{}'));
      if (body && typeof body === 'object') bodies.push(Object.fromEntries(Object.entries(body)));
      const query = body && typeof body === 'object' && 'query' in body ? String(body.query) : '';
      const checks = CHECKS.filter((c) => c.name.includes(query));
      return Response.json({ checks_summary: checks, total: checks.length, from: 'x', to: 'y', source: 'raw', estimate: true });
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
  it('asks the summary for the last hour without passing checks, then lists them grouped by canary', async () => {
    const bodies = fakeSummary();
    renderInShell(<><HealthPage /><Location /></>, { path: '/health', sessionSource: signedIn() });
    const table = await screen.findByRole('table', { name: 'Health checks' });
    await within(table).findByRole('row', { name: /web/ });
    expect(bodies[0]).toEqual({ start: '1h', hidePassing: true, limit: 20000 });
    expect(within(table).getByRole('row', { name: /data/ })).toBeTruthy();
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
