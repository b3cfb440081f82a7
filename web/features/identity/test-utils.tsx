// Helpers for the identity pages' component tests (jsdom): a scripted server behind fetch, and a page
// rendered in the app's providers with a probe that shows where the router went.
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import { Providers } from '@web/app/providers';
import type { SessionSource } from '@web/app/session';
import { testQueryClient } from '@web/app/test-utils';

export interface Call {
  method: string;
  path: string;
  search: URLSearchParams;
  body: unknown;
}

type Handler = (call: Call) => { status?: number; body?: unknown } | undefined;

/** Replaces fetch: each request goes to `handler` (by method and path); unknown requests answer 404. */
export function scriptedServer(handler: Handler) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    const text = typeof init?.body === 'string' ? init.body : undefined;
    const call: Call = { method: init?.method ?? 'GET', path: url.pathname, search: url.searchParams, body: text ? JSON.parse(text) : undefined };
    calls.push(call);
    const answer = handler(call) ?? { status: 404, body: { error: { code: 404, message: `${call.method} ${call.path} is not scripted` } } };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

function Probe() {
  const location = useLocation();
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
}

/** Renders `page` at `path` (matched by `route`); every other route shows the probe with its location. */
export function renderPage(page: ReactNode, { path, route, sessionSource }: { path: string; route: string; sessionSource?: SessionSource }) {
  return render(
    <Providers queryClient={testQueryClient()} sessionSource={sessionSource}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={page} />
          <Route path="*" element={<Probe />} />
        </Routes>
      </MemoryRouter>
    </Providers>,
  );
}
