// @vitest-environment jsdom
import { act, render, screen, waitFor } from '@testing-library/react';
import { Activity, Flag } from 'lucide-react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { Providers } from './providers';
import type { AppRoute } from './route-types';
import { api } from '@web/lib/api';
import { db } from '@web/lib/db';
import { onUnauthorized } from '@web/lib/unauthorized';
import { buildRouteObjects, redirectOnUnauthorized } from './router';
import { collectRoutes } from './routes';
import { SECOND_FACTOR_PENDING, type SessionSource } from './session';
import { fakeServer, signedIn, testQueryClient, type FakeServer } from './test-utils';
import { Page } from './layout/page';

function FlagsPage() {
  return (
    <Page title="Feature Flags">
      <p>flags page</p>
    </Page>
  );
}
function HealthPage() {
  return (
    <Page title="Health">
      <p>health page</p>
    </Page>
  );
}

const routes: AppRoute[] = [
  { path: 'settings/feature-flags', load: async () => ({ default: FlagsPage }), feature: 'settings.feature_flags', nav: { label: 'Feature Flags', section: 'settings', icon: Flag } },
  { path: 'health', load: async () => ({ default: HealthPage }), feature: 'health', nav: { label: 'Health', section: 'main', icon: Activity, order: 2 } },
];

function LoginPage() {
  return <p>login page</p>;
}

const loginRoute: AppRoute = { path: 'login', layout: 'public', load: async () => ({ default: LoginPage }) };

function renderApp(path: string, server: FakeServer = {}, list = routes, sessionSource: SessionSource = signedIn()) {
  fakeServer(server);
  const router = createMemoryRouter(buildRouteObjects(list), { initialEntries: [path] });
  render(
    <Providers queryClient={testQueryClient()} sessionSource={sessionSource}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
}

describe('router', () => {
  it('redirects / to the first main area', async () => {
    const router = renderApp('/');
    expect(await screen.findByText('health page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/health');
    await waitFor(() => expect(document.title).toBe('Health | Watchkeeper'));
  });

  it('redirects / to the first settings page when no main area is enabled', async () => {
    const router = renderApp('/', { properties: [{ name: 'health.disable', value: 'true' }] });
    expect(await screen.findByText('flags page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/settings/feature-flags');
    // The sidebar mounted on '/', then followed the redirect: the Settings group is open.
    expect(await screen.findByRole('list', { name: 'Settings' })).toBeTruthy();
  });

  it('shows the error page for unknown routes and for pages of disabled features', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByText('Page not found: /no/such/page')).toBeTruthy();
    expect(document.title).toBe('Page not found | Watchkeeper');
  });

  it('hides a disabled area behind the not-found page', async () => {
    renderApp('/health', { properties: [{ name: 'health.disable', value: 'true' }] });
    expect(await screen.findByText('Page not found: /health')).toBeTruthy();
  });

  it('sends a person who is not signed in to /login with the page as return_to', async () => {
    const fetchMock = fakeServer();
    const router = renderApp('/health?tab=x', {}, [...routes, loginRoute], { load: async () => undefined });
    expect(await screen.findByText('login page')).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(`/login?return_to=${encodeURIComponent('/health?tab=x')}`);
    // Public pages need no feature flags (reading them needs a session).
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('/api/db/properties'))).toBe(false);
  });

  it('sends a person with a pending second factor to /login with aal2', async () => {
    const router = renderApp('/health', {}, [...routes, loginRoute], { load: async () => SECOND_FACTOR_PENDING });
    expect(await screen.findByText('login page')).toBeTruthy();
    expect(router.state.location.search).toBe(`?aal=aal2&return_to=${encodeURIComponent('/health')}`);
  });

  it('shows public pages without the sidebar', async () => {
    renderApp('/login', {}, [...routes, loginRoute], { load: async () => undefined });
    expect(await screen.findByText('login page')).toBeTruthy();
    expect(screen.queryByRole('complementary', { name: 'Main navigation' })).toBeNull();
  });

  it("shows 'bare' pages without the sidebar, to signed-in people only, behind their access guard", async () => {
    const bare: AppRoute = { path: 'view/health', layout: 'bare', access: { resource: 'canaries', action: 'read' }, load: async () => ({ default: () => <p>bare health</p> }) };
    renderApp('/view/health', {}, [...routes, loginRoute, bare], signedIn({ permissions: { canaries: ['read'] } }));
    expect(await screen.findByText('bare health')).toBeTruthy();
    expect(screen.queryByRole('complementary', { name: 'Main navigation' })).toBeNull();
  });

  it("sends a signed-out person from a 'bare' page to /login", async () => {
    const bare: AppRoute = { path: 'view/health', layout: 'bare', load: async () => ({ default: () => <p>bare health</p> }) };
    const router = renderApp('/view/health?hidePassing=false', {}, [...routes, loginRoute, bare], { load: async () => undefined });
    expect(await screen.findByText('login page')).toBeTruthy();
    expect(router.state.location.search).toBe(`?return_to=${encodeURIComponent('/view/health?hidePassing=false')}`);
  });

  it("guards 'bare' pages by access", async () => {
    const bare: AppRoute = { path: 'view/health', layout: 'bare', access: { resource: 'canaries', action: 'read' }, load: async () => ({ default: () => <p>bare health</p> }) };
    renderApp('/view/health', {}, [...routes, loginRoute, bare], signedIn({ roles: ['viewer'], permissions: {} }));
    expect(await screen.findByText('You do not have permission to access this page')).toBeTruthy();
  });

  it('guards pages by access: the Unauthorized page shows without it, and the menu entry is hidden', async () => {
    const guarded: AppRoute[] = [
      ...routes,
      { path: 'settings/permissions', load: async () => ({ default: FlagsPage }), access: { resource: 'rbac', action: 'read' }, nav: { label: 'Permissions', section: 'settings', icon: Flag } },
    ];
    renderApp('/settings/permissions', {}, guarded, signedIn({ roles: ['editor'], permissions: { feature_flags: ['read'] } }));
    expect(await screen.findByText('You do not have permission to access this page')).toBeTruthy();
    expect(screen.queryByText('flags page')).toBeNull();
    expect(await screen.findByRole('link', { name: 'Feature Flags' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Permissions' })).toBeNull();
  });

  it('shows a guarded page to a person with access', async () => {
    const guarded: AppRoute[] = [{ path: 'settings/permissions', load: async () => ({ default: FlagsPage }), access: { resource: 'rbac', action: 'read' } }];
    renderApp('/settings/permissions', {}, guarded, signedIn({ permissions: { rbac: ['read'] } }));
    expect(await screen.findByText('flags page')).toBeTruthy();
  });

  it('answers a 401 from the API with the auth-state checker, except on public pages (spec §8)', async () => {
    const checker: AppRoute = { path: 'auth-state-checker', layout: 'public', load: async () => ({ default: () => <p>checking</p> }) };
    const list = [...routes, loginRoute, checker];
    const router = renderApp('/health?x=1', {}, list);
    const stop = redirectOnUnauthorized(router, list);
    expect(await screen.findByText('health page')).toBeTruthy();
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ error: 'unauthorized', message: 'sign in first' }), { status: 401 }));
    await expect(api.get('/api/anything', (data) => data)).rejects.toMatchObject({ status: 401 });
    expect(await screen.findByText('checking')).toBeTruthy();
    expect(router.state.location.search).toBe(`?return_to=${encodeURIComponent('/health?x=1')}`);

    await act(() => router.navigate('/login'));
    const navigate = vi.spyOn(router, 'navigate');
    await db.from('properties').select('name');
    await api.get('/api/anything', (data) => data).catch(() => undefined);
    expect(navigate).not.toHaveBeenCalled();
    stop();
  });

  it('reports a 401 from /api/db as well', async () => {
    const spy = vi.fn();
    const stop = onUnauthorized(spy);
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ message: 'sign in first' }), { status: 401 }));
    await db.from('properties').select('name');
    expect(spy).toHaveBeenCalledTimes(1);
    stop();
    vi.unstubAllGlobals();
  });

  it('collects routes from feature modules, skipping malformed ones', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const collected = collectRoutes({
      '../features/b/routes.ts': { default: [routes[1]] },
      '../features/a/routes.ts': { routes: [routes[0], { path: 42 }] },
      '../features/c/routes.ts': { nothing: true },
    });
    expect(collected.map((route) => route.path)).toEqual(['settings/feature-flags', 'health']);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});
