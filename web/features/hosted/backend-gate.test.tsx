// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '@web/lib/api';
import { BackendGate } from './backend-gate';
import { routeToBackend } from './direct';
import { PROVISIONING_TEXT } from './provisioning-screen';

const ORG = { id: 'o1', name: 'New Co', backend_url: 'http://backend.example:9000', direct: false };

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** /api/auth/organization-backend answers the given answers in turn (the last one repeats). */
function serve(...answers: Response[]) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      calls.push(`${url} ${new Headers(init?.headers).get('authorization') ?? ''}`.trim());
      if (url.endsWith('/api/auth/organization-token')) return json({ token: 'tok', expires_at: new Date(Date.now() + 300_000).toISOString() });
      if (url.endsWith('/api/auth/organization-backend')) return (answers.length > 1 ? answers.shift() : answers[0]?.clone()) ?? json({}, 500);
      return json([]);
    }),
  );
  return calls;
}

function renderGate(hasBackendUrl = true) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <BackendGate organization={{ id: ORG.id, hasBackendUrl }}>
          <p>the console</p>
        </BackendGate>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the provisioning screen (spec §1)', () => {
  it('lets the console through at once for an organization this database serves (no backend URL)', () => {
    const calls = serve();
    renderGate(false);
    expect(screen.getByText('the console')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('shows the exact text while the backend is provisioning (or the check answers 5xx), and the console once it answers', async () => {
    const calls = serve(json({ organization: ORG, state: 'provisioning', reason: 'down' }), json({ error: 'bad_gateway', message: 'x' }, 502), json({ organization: ORG, state: 'ready' }));
    renderGate();
    await screen.findByText(PROVISIONING_TEXT);
    expect(PROVISIONING_TEXT).toBe('Please wait, instance provisioning in-progress ...');
    expect(screen.queryByText('the console')).toBeNull();
    // Two polls of PROVISIONING_POLL_MS (3 s) each; the margin is for a busy machine.
    await screen.findByText('the console', undefined, { timeout: 20_000 });
    expect(calls.filter((call) => call.endsWith('/api/auth/organization-backend')).length).toBe(3);
  }, 30_000);

  it('shows an error page, not the provisioning screen, when the backend refuses the front', async () => {
    serve(json({ organization: ORG, state: 'error', reason: 'the backend refused this console’s token (HTTP 401)' }));
    renderGate();
    await screen.findByText('the backend refused this console’s token (HTTP 401)');
    expect(screen.queryByText(PROVISIONING_TEXT)).toBeNull();
  });
});

describe('a direct organization', () => {
  it('sends API calls to its backend with the front’s token; sign-in and organization routes stay on the front', async () => {
    const calls = serve();
    const undo = routeToBackend('http://backend.example:9000/');
    try {
      await api.get('/api/incidents?limit=1', () => undefined);
      await api.get('/api/auth/whoami', () => undefined);
    } finally {
      undo();
    }
    await api.get('/api/incidents', () => undefined);
    expect(calls).toEqual(['/api/auth/organization-token', 'http://backend.example:9000/api/incidents?limit=1 Bearer tok', '/api/auth/whoami', '/api/incidents']);
  });
});
