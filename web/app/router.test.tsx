// @vitest-environment jsdom
import { render, screen, waitFor } from '@testing-library/react';
import { Activity, Flag } from 'lucide-react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { Providers } from './providers';
import type { AppRoute } from './route-types';
import { buildRouteObjects } from './router';
import { collectRoutes } from './routes';
import { fakeServer, testQueryClient, type FakeServer } from './test-utils';
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

function renderApp(path: string, server: FakeServer = {}, list = routes) {
  fakeServer(server);
  const router = createMemoryRouter(buildRouteObjects(list), { initialEntries: [path] });
  render(
    <Providers queryClient={testQueryClient()} sessionSource={undefined}>
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
