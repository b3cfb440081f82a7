// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInShell, signedIn } from '@web/app/test-utils';
import ConfigsRedirect from '../configs-redirect';
import { CONFIG_ID, fakeCatalog } from '../test-server';
import CatalogPage from './catalog-page';

vi.mock('@web/app/layout/page');

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}
const location = () => screen.getByTestId('location').textContent ?? '';

const GROUPS = [
  {
    type: 'Kubernetes::Deployment',
    keys: { type: 'Kubernetes::Deployment' },
    count: 3,
    health: { healthy: 1, unhealthy: 1, warning: 1, unknown: 0 },
    status: { Running: 1, '0/1 ready': 1, '1/2 ready': 1 },
    changes: 4,
    analysis: { availability: 2 },
    insights: 2,
    created_at: '2024-05-01T10:00:00.000Z',
    updated_at: '2024-05-02T10:00:00.000Z',
  },
  { type: 'Kubernetes::Pod', keys: { type: 'Kubernetes::Pod' }, count: 1, health: { healthy: 1, unhealthy: 0, warning: 0, unknown: 0 }, status: {}, changes: 0, analysis: {}, insights: 0, created_at: null, updated_at: null },
];

const ITEM = {
  id: CONFIG_ID,
  name: 'web',
  type: 'Kubernetes::Deployment',
  status: '0/1 ready',
  health: 'unhealthy',
  tags: { namespace: 'shop', cluster: 'c1', account: 'acme' },
  labels: {},
  changes: 2,
  analysis: { availability: 1 },
  created_at: '2024-05-01T10:00:00Z',
  updated_at: '2024-05-02T10:00:00Z',
  deleted_at: null,
};

function renderCatalog(path: string) {
  return renderInShell(
    <>
      <Routes>
        <Route path="/catalog" element={<CatalogPage />} />
        <Route path="/configs/*" element={<ConfigsRedirect />} />
        <Route path="/configs" element={<ConfigsRedirect />} />
        <Route path="/catalog/:id" element={<p>item page</p>} />
      </Routes>
      <Location />
    </>,
    { path, sessionSource: signedIn() },
  );
}

describe('Catalog page', () => {
  it('summarises by type and opens the items of a type', async () => {
    const calls = fakeCatalog({ '/api/catalog/summary': GROUPS, configs: [ITEM], config_tags: [{ key: 'namespace', value: 'shop' }] });
    renderCatalog('/catalog');
    const summary = await screen.findByRole('table', { name: 'Catalog summary' });
    const row = await within(summary).findByRole('row', { name: /Kubernetes::Deployment/ });
    expect(within(row).getByRole('img', { name: '1 healthy, 1 unhealthy, 1 warning' })).toBeTruthy();
    expect(row.textContent).toContain('2 open');
    expect(screen.getByText('4 items in 2 groups')).toBeTruthy();
    expect(calls.find((call) => call.path === '/api/catalog/summary')?.body).toEqual({ groupBy: ['type'], filter: {}, deleted: false });

    await userEvent.click(within(row).getByRole('link', { name: 'Kubernetes::Deployment' }));
    expect(location()).toBe('/catalog?type=Kubernetes%3A%3ADeployment');
    const items = await screen.findByRole('table', { name: 'Config items' });
    const item = await within(items).findByRole('row', { name: /web/ });
    // Tags in spec §3 order, folded after two.
    expect(within(item).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['account: acme', 'namespace: shop', '+1 more']);
    const list = calls.find((call) => call.path === 'configs');
    expect(list?.url.searchParams.get('type')).toBe('eq.Kubernetes::Deployment');
    expect(screen.getByText('1 item of type Kubernetes::Deployment')).toBeTruthy();
    // One type: no Type column.
    expect(within(items).getAllByRole('columnheader').map((th) => th.textContent)).not.toContain('Type');
    expect(within(items).getAllByRole('columnheader').length).toBeGreaterThan(5);
    expect(within(item).getByRole('link', { name: /web/ }).getAttribute('href')).toBe(`/catalog/${CONFIG_ID}`);
  });

  it('filters by health with include/exclude, keeping it in the URL and asking the server', async () => {
    const calls = fakeCatalog({ configs: [ITEM] });
    renderCatalog('/catalog?type=Kubernetes::Deployment');
    await screen.findByRole('row', { name: /web/ });
    await userEvent.click(screen.getByRole('button', { name: 'Health: All' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Include unhealthy' }));
    await waitFor(() => expect(new URLSearchParams(location().split('?')[1]).get('health')).toBe('unhealthy'));
    await waitFor(() => expect(calls.some((call) => call.path === 'configs' && call.url.searchParams.get('health') === 'in.(unhealthy)')).toBe(true));
    await userEvent.click(screen.getByRole('button', { name: 'Exclude healthy' }));
    await waitFor(() => expect(new URLSearchParams(location().split('?')[1]).get('health')).toBe('unhealthy,!healthy'));
    expect(screen.getByRole('button', { name: 'Health: unhealthy, −healthy' })).toBeTruthy();
  });

  it('sorts on the server by a column click', async () => {
    const calls = fakeCatalog({ configs: [ITEM] });
    renderCatalog('/catalog?view=list');
    await screen.findByRole('row', { name: /web/ });
    await userEvent.click(screen.getByRole('button', { name: 'Updated' }));
    await waitFor(() => expect(location()).toContain('sortBy=updated_at'));
    await waitFor(() => expect(calls.some((call) => call.path === 'configs' && call.url.searchParams.get('order') === 'updated_at.asc.nullslast,id.asc')).toBe(true));
  });

  it('shows deleted items when the preference says so, and the switch overrides it in the URL', async () => {
    sessionStorage.setItem('showDeletedConfigs', 'yes');
    const calls = fakeCatalog({ configs: [ITEM] });
    renderCatalog('/catalog?view=list');
    await screen.findByRole('row', { name: /web/ });
    expect(calls.find((call) => call.path === 'configs')?.url.searchParams.get('or')).toBe('(deleted_at.is.null,deleted_at.not.is.null)');
    const toggle = screen.getByRole('switch', { name: 'Show deleted' });
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    await userEvent.click(toggle);
    await waitFor(() => expect(location()).toContain('showDeleted=no'));
    await waitFor(() => expect(calls.at(-1)?.url.searchParams.has('or')).toBe(false));
  });

  it('says the catalog is empty and how to fill it', async () => {
    fakeCatalog({ '/api/catalog/summary': [] });
    renderCatalog('/catalog');
    expect(await screen.findByText('No config items found')).toBeTruthy();
    expect(screen.getByText(/Items come from scrapers/)).toBeTruthy();
  });

  it('redirects /configs to /catalog with the query string', async () => {
    fakeCatalog({ configs: [ITEM] });
    renderCatalog('/configs?type=Kubernetes::Pod');
    await waitFor(() => expect(location()).toBe('/catalog?type=Kubernetes::Pod'));
    renderCatalog(`/configs/${CONFIG_ID}`);
    expect(await screen.findByText('item page')).toBeTruthy();
  });
});
