// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInShell, signedIn } from '@web/app/test-utils';
import InsightsPage from '../detail/insights-page';
import { CONFIG_ID, PARENT_ID, detailRow, fakeCatalog } from '../test-server';
import { ConfigPage } from './config-page';

vi.mock('@web/app/layout/page');

afterEach(() => vi.unstubAllGlobals());

const READER = { config_scrapers: ['read' as const], canaries: ['read' as const] };

function renderItem(path = `/catalog/${CONFIG_ID}`, permissions: Record<string, ('read')[]> = READER) {
  return renderInShell(
    <Routes>
      <Route path="/catalog/:id" element={<ConfigPage tab="spec">{(config) => <p>Spec of {config.name}</p>}</ConfigPage>} />
      <Route path="/catalog/:id/insights" element={<InsightsPage />} />
    </Routes>,
    { path, sessionSource: signedIn({ roles: ['viewer'], permissions }) },
  );
}

describe('ConfigPage', () => {
  it('shows the header: breadcrumb up the parents, health, status, tags in spec order, labels', async () => {
    const calls = fakeCatalog({
      config_detail: [detailRow()],
      'rpc/get_parents_by_location': [
        { id: PARENT_ID, name: 'shop', type: 'Kubernetes::Namespace' },
      ],
    });
    renderItem();
    expect(await screen.findByText('Spec of web')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('web');
    const breadcrumb = screen.getByRole('navigation', { name: 'Breadcrumb' });
    await waitFor(() => expect(breadcrumb.textContent).toBe('Catalog/Kubernetes::Deployment/shop/web'));
    expect(within(breadcrumb).getByRole('link', { name: /shop/ }).getAttribute('href')).toBe(`/catalog/${PARENT_ID}`);
    expect(within(breadcrumb).getByRole('link', { name: 'Kubernetes::Deployment' }).getAttribute('href')).toBe('/catalog?type=Kubernetes%3A%3ADeployment');
    // Spec §4: warning is yellow.
    const health = screen.getByRole('img', { name: 'Warning' });
    expect(health.className).toContain('bg-yellow-400');
    expect(screen.getByText('· 1/2 ready')).toBeTruthy();
    // Spec §3: account, namespace, name first, then alphabetically.
    const tags = within(screen.getByRole('list', { name: 'Tags' })).getAllByRole('listitem').map((item) => item.textContent);
    expect(tags).toEqual(['account: acme', 'namespace: shop', 'name: web', 'cluster: c1', 'zone: a']);
    expect(within(screen.getByRole('list', { name: 'Labels' })).getByText(/web/)).toBeTruthy();
    // The item is read with deleted ones included (a deleted item still has its page).
    const detail = calls.find((call) => call.path === 'config_detail');
    expect(detail?.url.searchParams.get('id')).toBe(`eq.${CONFIG_ID}`);
    expect(detail?.url.searchParams.get('or')).toBe('(deleted_at.is.null,deleted_at.not.is.null)');
    expect(calls.find((call) => call.path === 'rpc/get_parents_by_location')?.body).toEqual({ config_id: CONFIG_ID, include_deleted: true });
  });

  it('has tabs as links with counts, the current one marked; Checks only for who reads canaries', async () => {
    fakeCatalog({ config_detail: [detailRow()] });
    const { unmount } = renderItem();
    const tabs = await screen.findByRole('navigation', { name: 'Config sections' });
    const names = () => within(screen.getByRole('navigation', { name: 'Config sections' })).getAllByRole('link').map((link) => link.textContent);
    expect(names()).toEqual(expect.arrayContaining(['Spec', 'Insights1', 'Relationships3', 'Checks']));
    // No tab for what is not built (Playbooks).
    expect(names().some((name) => name?.startsWith('Playbooks'))).toBe(false);
    expect(within(tabs).getByRole('link', { name: 'Spec' }).getAttribute('aria-current')).toBe('page');
    expect(within(tabs).getByRole('link', { name: /Insights/ }).getAttribute('aria-current')).toBeNull();
    expect(within(tabs).getByRole('link', { name: /Relationships/ }).getAttribute('href')).toBe(`/catalog/${CONFIG_ID}/relationships`);
    unmount();
    renderItem(`/catalog/${CONFIG_ID}`, { config_scrapers: ['read'] });
    await screen.findByRole('navigation', { name: 'Config sections' });
    expect(names()).not.toContain('Checks');
  });

  it("copies the id and says 'Copied {id} to clipboard'", async () => {
    fakeCatalog({ config_detail: [detailRow()] });
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderItem();
    await userEvent.click(await screen.findByRole('button', { name: 'Copy ID' }));
    expect(writeText).toHaveBeenCalledWith(CONFIG_ID);
    expect(await screen.findByText(`Copied ${CONFIG_ID} to clipboard`)).toBeTruthy();
  });

  it('marks a deleted item', async () => {
    fakeCatalog({ config_detail: [detailRow({ deleted_at: new Date(Date.now() - 3 * 3_600_000).toISOString(), delete_reason: 'STALE' })] });
    renderItem();
    expect(await screen.findByText('Deleted 3h ago (stale)')).toBeTruthy();
  });

  it('says when there is no such item, without asking for ids that are not ids', async () => {
    const calls = fakeCatalog({ config_detail: [] });
    renderItem();
    expect(await screen.findByText('Config item not found')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the catalog' }).getAttribute('href')).toBe('/catalog');
    calls.length = 0;
    renderItem('/catalog/not-a-uuid');
    expect((await screen.findAllByText('Config item not found')).length).toBeGreaterThan(0);
    expect(calls.filter((call) => call.path === 'config_detail')).toHaveLength(0);
  });

  it('lists the insights of the item on its Insights tab', async () => {
    const calls = fakeCatalog({
      config_detail: [detailRow()],
      config_analysis: [
        {
          id: 'i1',
          analyzer: 'single-replica',
          analysis_type: 'availability',
          severity: 'low',
          status: 'open',
          message: 'Deployment has 1 replica',
          summary: null,
          first_observed: '2024-05-01T10:00:00Z',
          last_observed: '2024-05-02T10:00:00Z',
        },
      ],
    });
    renderItem(`/catalog/${CONFIG_ID}/insights`);
    const table = await screen.findByRole('table', { name: 'Insights' });
    const row = await within(table).findByRole('row', { name: /single-replica/ });
    expect(row.textContent).toContain('Deployment has 1 replica');
    expect(calls.find((call) => call.path === 'config_analysis')?.url.searchParams.get('config_id')).toBe(`eq.${CONFIG_ID}`);
  });
});
