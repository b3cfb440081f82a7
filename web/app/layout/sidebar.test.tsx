// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Activity, Boxes, Flag, Key, Users } from 'lucide-react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppRoute } from '../route-types';
import { fakeServer, renderInShell, signedIn } from '../test-utils';
import { Sidebar } from './sidebar';
import { SIDEBAR_COLLAPSED_KEY } from './use-sidebar-collapsed';

const page = async () => ({ default: () => null });

const routes: AppRoute[] = [
  { path: 'catalog', load: page, feature: 'config', nav: { label: 'Catalog', section: 'main', icon: Boxes, order: 4 } },
  { path: 'health', load: page, feature: 'health', nav: { label: 'Health', section: 'main', icon: Activity, order: 2 } },
  { path: 'settings/tokens', load: page, nav: { label: 'Tokens', section: 'settings', icon: Key } },
  { path: 'settings/agents', load: page, feature: 'agents', nav: { label: 'Agents', section: 'settings', icon: Users } },
  { path: 'settings/jobs', load: page, feature: 'settings.job_history', nav: { label: 'Jobs History', section: 'settings', icon: Activity } },
  { path: 'settings/feature-flags', load: page, feature: 'settings.feature_flags', nav: { label: 'Feature Flags', section: 'settings', icon: Flag } },
];

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
}

function renderSidebar(path = '/settings/tokens') {
  return renderInShell(
    <div>
      <Sidebar routes={routes} />
      <p>Outside</p>
    </div>,
    { path, sessionSource: signedIn() },
  );
}

describe('main sidebar', () => {
  beforeEach(() => {
    localStorage.clear();
    setWidth(1280);
  });
  afterEach(() => setWidth(1280));

  it('starts expanded and keeps the collapsed state across mounts (localStorage sidebarCollapsed)', async () => {
    fakeServer();
    const user = userEvent.setup();
    const first = renderSidebar();
    const aside = screen.getByRole('complementary', { name: 'Main navigation' });
    expect(aside.className).toContain('w-56');
    await user.click(screen.getByRole('button', { name: 'Collapse sidebar' }));
    expect(aside.className).toContain('w-14');
    expect(localStorage.getItem(SIDEBAR_COLLAPSED_KEY)).toBe('true');
    first.unmount();

    renderSidebar();
    expect(screen.getByRole('complementary', { name: 'Main navigation' }).className).toContain('w-14');
    await user.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    expect(localStorage.getItem(SIDEBAR_COLLAPSED_KEY)).toBe('false');
  });

  it('collapses on an outside click only when the window is narrower than 1024 px', async () => {
    fakeServer();
    const user = userEvent.setup();
    renderSidebar();
    const aside = screen.getByRole('complementary', { name: 'Main navigation' });
    await user.click(screen.getByText('Outside'));
    expect(aside.className).toContain('w-56');

    setWidth(900);
    await user.click(await screen.findByRole('link', { name: 'Health' }));
    expect(aside.className).toContain('w-56');
    await user.click(screen.getByText('Outside'));
    expect(aside.className).toContain('w-14');
  });

  it('orders main items and sorts the Settings submenu by label', async () => {
    fakeServer();
    renderSidebar();
    const nav = await screen.findByRole('navigation', { name: 'Areas' });
    const links = (await within(nav).findAllByRole('link')).map((link) => link.textContent);
    expect(links).toEqual(['Health', 'Catalog', 'Agents', 'Feature Flags', 'Jobs History', 'Tokens']);
  });

  it('hides items whose feature is disabled, including settings pages that inherit it', async () => {
    fakeServer({
      properties: [
        { name: 'health.disable', value: 'true' },
        { name: 'agents.disable', value: 'true' },
        { name: 'config.disable', value: 'false' },
      ],
    });
    renderSidebar();
    const nav = await screen.findByRole('navigation', { name: 'Areas' });
    await waitFor(() => expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Catalog', 'Feature Flags', 'Tokens']));
  });

  it('shows a skeleton while the user is loading', async () => {
    fakeServer();
    let resolve: (user: undefined) => void = () => undefined;
    const pending = new Promise<undefined>((done) => {
      resolve = done;
    });
    renderInShell(<Sidebar routes={routes} />, { sessionSource: { load: () => pending } });
    expect(screen.getByRole('status', { name: 'Loading navigation' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Health' })).toBeNull();
    await act(async () => resolve(undefined));
    expect(await screen.findByRole('link', { name: 'Health' })).toBeTruthy();
  });

  it("hides items whose page's resource the person may not read (spec §6)", async () => {
    fakeServer();
    const guarded: AppRoute[] = [
      ...routes,
      { path: 'settings/permissions', load: page, access: { resource: 'permissions', action: 'write' }, nav: { label: 'Permissions', section: 'settings', icon: Key } },
      { path: 'settings/connections', load: page, access: { resource: 'connections', action: 'read' }, nav: { label: 'Connections', section: 'settings', icon: Key } },
    ];
    renderInShell(<Sidebar routes={guarded} />, { path: '/settings/tokens', sessionSource: signedIn({ roles: ['editor'], permissions: { permissions: ['read', 'update'] } }) });
    // The menu checks read access; the page itself checks what its route asks for.
    expect(await screen.findByRole('link', { name: 'Permissions' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Connections' })).toBeNull();
  });

  it('hides the Settings submenu from viewers', async () => {
    fakeServer();
    renderInShell(<Sidebar routes={routes} />, { sessionSource: { load: async () => ({ id: '1', name: 'Val Viewer', roles: ['viewer'], permissions: {} }) } });
    expect(await screen.findByRole('link', { name: 'Health' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Settings' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Tokens' })).toBeNull();
  });
});

describe('settings submenu', () => {
  it('opens when a settings page is shown', async () => {
    fakeServer();
    renderSidebar('/settings/agents');
    const group = await screen.findByRole('list', { name: 'Settings' });
    expect(within(group).getByRole('link', { name: 'Agents' }).getAttribute('aria-current')).toBe('page');
  });
});
