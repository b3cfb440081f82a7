// Helpers for the shell's component tests (jsdom): a fake server behind fetch and the app's providers.
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { Providers } from './providers';
import type { SessionSource, SessionUser } from './session';

export interface FakeServer {
  /** Rows of the `properties` relation that /api/db answers with. */
  properties?: { name: string; value: string }[];
  /** The /api/version answer; a number is an error status. */
  version?: string | number;
  /** The /api/kubeconfig/file answer: the name the server gives the kubeconfig download. */
  kubeconfigFile?: string;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** Replaces fetch with a tiny fake of the endpoints the shell calls. */
export function fakeServer(server: FakeServer = {}) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    if (url.pathname === '/api/db/properties') return json(server.properties ?? []);
    if (url.pathname === '/api/version') {
      const version = server.version ?? '9.9.9';
      return typeof version === 'number' ? json({ error: 'internal_error', message: 'boom' }, version) : json({ backend: version });
    }
    if (url.pathname === '/api/kubeconfig/file') return json({ file: server.kubeconfigFile ?? 'localhost-kubeconfig.yaml' });
    return json({ error: 'not_found', message: `${url.pathname} does not exist` }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** A signed-in person for shell tests: an admin unless roles and permissions say otherwise. */
export function signedIn(user: Partial<SessionUser> = {}): SessionSource {
  const person: SessionUser = { id: 'u1', name: 'Ada Admin', email: 'ada@example.com', roles: ['admin'], permissions: {}, ...user };
  return { load: async () => person, signOut: async () => undefined };
}

export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

/** Renders `ui` inside the providers and a memory router at `path`. */
export function renderInShell(ui: ReactNode, { path = '/', sessionSource }: { path?: string; sessionSource?: SessionSource } = {}) {
  return render(
    <Providers queryClient={testQueryClient()} sessionSource={sessionSource}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </Providers>,
  );
}
