// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { Activity, Boxes } from 'lucide-react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppRoute } from '../route-types';
import { renderInShell, signedIn } from '../test-utils';
import { Sidebar } from './sidebar';
import { viewIcon, viewNavItems } from './sidebar-views';

const page = async () => ({ default: () => null });
const routes: AppRoute[] = [
  { path: 'catalog', load: page, feature: 'config', nav: { label: 'Catalog', section: 'main', icon: Boxes, order: 4 } },
  { path: 'health', load: page, feature: 'health', nav: { label: 'Health', section: 'main', icon: Activity, order: 2 } },
];

const VIEWS = [
  { id: 'b', name: 'backups', title: null, icon: 'archive', ordinal: 2 },
  { id: 'a', name: 'pods', title: 'Pods', icon: 'no-such-icon', ordinal: null },
  { id: 'c', name: 'deployments', title: 'Deployments', icon: 'layers', ordinal: 1 },
  { id: 'd', name: 'alpha', title: 'Alpha', icon: null, ordinal: null },
];

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** A fetch fake answering the flags and views_summary (sidebar=eq.true). */
function fakeViews(properties: Array<{ name: string; value: string }> = []) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    if (url.pathname === '/api/db/properties') return json(properties);
    if (url.pathname === '/api/db/views_summary') return json(url.searchParams.get('sidebar') === 'eq.true' ? VIEWS : []);
    return json({ error: 'not_found', message: 'none' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const viewsRequests = (fetchMock: ReturnType<typeof fakeViews>) =>
  fetchMock.mock.calls.filter(([input]) => new URL(input instanceof Request ? input.url : String(input), 'http://localhost').pathname === '/api/db/views_summary');

afterEach(() => vi.unstubAllGlobals());

describe('sidebar views (spec §2)', () => {
  it('orders views by ordinal, unnumbered last, then by title or name, linking /views/{id}', () => {
    expect(viewNavItems(VIEWS).map((item) => [item.label, item.to])).toEqual([
      ['Deployments', '/views/c'],
      ['backups', '/views/b'],
      ['Alpha', '/views/d'],
      ['Pods', '/views/a'],
    ]);
  });

  it("takes a lucide or Mission Control icon name, else the table mark", () => {
    expect(viewIcon('Layers')).toBe(viewIcon('layers'));
    expect(viewIcon('lucide:archive')).toBe(viewIcon('archive'));
    expect(viewIcon('no-such-icon')).toBe(viewIcon(null));
    expect(viewIcon('__proto__')).toBe(viewIcon(null));
  });

  it('lists them after the fixed items for a person who may read views', async () => {
    const fetchMock = fakeViews();
    renderInShell(<Sidebar routes={routes} />, { path: '/health', sessionSource: signedIn({ permissions: { views: ['read'] } }) });
    const nav = await screen.findByRole('navigation', { name: 'Areas' });
    await waitFor(() => expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Health', 'Catalog', 'Deployments', 'backups', 'Alpha', 'Pods']));
    expect(within(nav).getByRole('link', { name: 'Deployments' }).getAttribute('href')).toBe('/views/c');
    expect(viewsRequests(fetchMock)).toHaveLength(1);
  });

  it("leaves them out when the 'views' feature is disabled", async () => {
    const fetchMock = fakeViews([{ name: 'views.disable', value: 'true' }]);
    renderInShell(<Sidebar routes={routes} />, { path: '/health', sessionSource: signedIn({ permissions: { views: ['read'] } }) });
    const nav = await screen.findByRole('navigation', { name: 'Areas' });
    await within(nav).findByRole('link', { name: 'Health' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Health', 'Catalog']);
    expect(viewsRequests(fetchMock)).toHaveLength(0);
  });

  it('leaves them out for a person who may not read views', async () => {
    const fetchMock = fakeViews();
    renderInShell(<Sidebar routes={routes} />, { path: '/health', sessionSource: signedIn({ permissions: { canaries: ['read'] } }) });
    const nav = await screen.findByRole('navigation', { name: 'Areas' });
    await within(nav).findByRole('link', { name: 'Health' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(within(nav).queryByRole('list', { name: 'Views' })).toBeNull();
    expect(viewsRequests(fetchMock)).toHaveLength(0);
  });
});
