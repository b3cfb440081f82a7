// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router';
import { SessionGate } from '@web/app/layout/app-layout';
import { Providers } from '@web/app/providers';
import type { SessionOrganization, SessionUser } from '@web/app/session';
import { onUnauthorized } from '@web/lib/unauthorized';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ Toaster: () => null, toast: { ...toasts, loading: vi.fn(), dismiss: vi.fn() } }));

const ACME: SessionOrganization = { id: '11111111-1111-4111-8111-111111111111', name: 'Acme', hasBackendUrl: false, direct: false };
const GLOBEX: SessionOrganization = { id: '22222222-2222-4222-8222-222222222222', name: 'Globex', hasBackendUrl: false, direct: false };

function person(hosted: NonNullable<SessionUser['hosted']>): SessionUser {
  return { id: 'u1', name: 'Olivia', roles: ['viewer'], permissions: {}, hosted };
}

/** The fake server: POST /api/auth/oidc/refresh answers `status` with `body`; every call is kept. */
function stubRefresh(status: number, body: unknown) {
  const calls: { url: string; method: string }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ url: String(input), method: init?.method ?? 'GET' });
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

/** The shell at /incidents with whoami answering `answers` in turn (the last one from then on). */
function renderShell(answers: SessionUser[]) {
  let read = 0;
  const load = vi.fn(async () => answers[Math.min(read++, answers.length - 1)]);
  render(
    <Providers queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })} sessionSource={{ load, signOut: vi.fn(async () => undefined) }}>
      <MemoryRouter initialEntries={['/incidents']}>
        <Routes>
          <Route path="*" element={<SessionGate loading={<p>loading</p>}><p>the page</p></SessionGate>} />
        </Routes>
      </MemoryRouter>
    </Providers>,
  );
  return load;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('Check again (organizations read again from the provider)', () => {
  it('on No organization: asks the server to refresh, reads whoami again and lets the page through once a membership shows', async () => {
    const calls = stubRefresh(200, { organization: ACME, organizations: [ACME] });
    const load = renderShell([person({ organization: null, organizations: [] }), person({ organization: ACME, organizations: [ACME] })]);
    await screen.findByRole('heading', { name: 'No organization' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Check again' }));
    expect(await screen.findByText('the page')).toBeTruthy();
    expect(calls).toEqual([{ url: '/api/auth/oidc/refresh', method: 'POST' }]);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('on Choose an organization: the list follows the provider', async () => {
    stubRefresh(200, { organization: null, organizations: [ACME, GLOBEX] });
    renderShell([person({ organization: null, organizations: [ACME, GLOBEX] }), person({ organization: null, organizations: [GLOBEX, { ...ACME, id: '33333333-3333-4333-8333-333333333333', name: 'Initech' }] })]);
    await screen.findByRole('heading', { name: 'Choose an organization' });
    expect(screen.getByRole('button', { name: 'Acme' })).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Check again' }));
    expect(await screen.findByRole('button', { name: 'Initech' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Acme' })).toBeNull();
  });

  it("says why when the provider refuses, without sending the browser to sign in (the session still stands)", async () => {
    const message = "the sign-in provider no longer accepts this session's refresh token: sign in again";
    stubRefresh(401, { error: 'unauthorized', message });
    const unauthorized = vi.fn();
    const stop = onUnauthorized(unauthorized);
    try {
      const load = renderShell([person({ organization: null, organizations: [] })]);
      await screen.findByRole('heading', { name: 'No organization' });
      await userEvent.setup().click(screen.getByRole('button', { name: 'Check again' }));
      await waitFor(() => expect(toasts.error).toHaveBeenCalled());
      expect(String(toasts.error.mock.calls[0]?.[0])).toContain(message);
      expect(unauthorized).not.toHaveBeenCalled();
      expect(load).toHaveBeenCalledTimes(1);
      expect(screen.getByRole('heading', { name: 'No organization' })).toBeTruthy();
    } finally {
      stop();
    }
  });
});
