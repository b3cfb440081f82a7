// Helpers for the Users and Teams component tests (jsdom): a scripted server behind fetch and the
// providers those pages need. Test-only: no product module imports this file.
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { AccessMap } from '@common/rbac';
import { StaticSession, type SessionUser } from '@web/app/session';
import { createQueryClient } from '@web/lib/query-client';
import { TooltipProvider } from '@web/ui/primitives/tooltip';

export interface Call {
  method: string;
  path: string;
  /** The decoded query string, e.g. '?select=*&order=name.asc'. */
  search: string;
  body: unknown;
  headers: Headers;
}

export interface Answer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Replaces fetch; each request is recorded and answered by `respond` (204 when it returns nothing). */
export function stubFetch(respond: (call: Call) => Answer | undefined): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
      const call: Call = {
        method: init?.method ?? 'GET',
        path: url.pathname,
        search: decodeURIComponent(url.search),
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
        headers: new Headers(init?.headers),
      };
      calls.push(call);
      const answer = respond(call);
      if (!answer || answer.body === undefined) return new Response(null, { status: answer?.status ?? 204, headers: answer?.headers });
      return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json', ...answer.headers } });
    }),
  );
  return calls;
}

export const ADMIN_ACCESS: AccessMap = { database: ['read', 'create', 'update', 'delete'], identities: ['read', 'create', 'update', 'delete'] };
export const VIEWER_ACCESS: AccessMap = { database: ['read'] };

function Where() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname + location.search}</output>;
}

/** Renders `element` at `path` (matched by `route`) for a signed-in person with `permissions` (and `user`'s other fields: hosted mode). */
export function renderPage(
  element: ReactNode,
  { path, route, permissions = ADMIN_ACCESS, userId = 'me', user }: { path: string; route: string; permissions?: AccessMap; userId?: string; user?: Partial<SessionUser> },
) {
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false, refetchOnWindowFocus: false } });
  const router = createMemoryRouter(
    [
      {
        path: route,
        element: (
          <>
            {element}
            <Where />
          </>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={client}>
      <StaticSession value={{ status: 'ready', user: { id: userId, name: 'Me', roles: [], permissions, ...user }, signOut: undefined }}>
        <TooltipProvider>
          <RouterProvider router={router} />
        </TooltipProvider>
      </StaticSession>
    </QueryClientProvider>,
  );
  return { router, client };
}

/** The router's path and query (read from the DOM: a modal dialog hides the rest of the page from queries by role). */
export function currentLocation(): string | null | undefined {
  return document.querySelector('output[aria-label="location"]')?.textContent;
}
