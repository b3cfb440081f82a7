import { PostgrestClient } from '@supabase/postgrest-js';
import { reportIfOrganizationRequired, routeOf } from './api';
import { reportUnauthorized } from './unauthorized';

/**
 * postgrest-js builds request URLs with `new URL(…)`, which rejects a bare path, so the base is absolute:
 * this page's origin (a placeholder origin where there is no page, e.g. unit tests in node).
 */
export const DB_URL = new URL('/api/db', typeof location === 'undefined' ? 'http://localhost' : location.origin).toString();

/** Same-origin fetch that reports a 401 (spec §8: the console then checks the session) and a lost organization. */
async function dbFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const origin = new URL(DB_URL).origin;
  // Hosted mode, a `direct` organization: to its backend, with its token (api.ts routeOf).
  const routed = url.startsWith(`${origin}/`) ? await routeOf(url.slice(origin.length)) : undefined;
  const headers = new Headers(init?.headers);
  for (const [name, value] of Object.entries(routed?.headers ?? {})) headers.set(name, value);
  const response = await fetch(routed?.url ?? input, { ...init, headers, credentials: routed ? 'omit' : 'same-origin' });
  if (response.status === 401) reportUnauthorized();
  // Hosted mode: the session lost its organization (api.ts reportIfOrganizationRequired).
  if (response.status === 403) reportIfOrganizationRequired(403, await response.clone().json().then((body: unknown) => body, () => undefined));
  return response;
}

/** The PostgREST client of /api/db (DESIGN §7: database calls go through a query builder, never strings). */
export const db = new PostgrestClient(DB_URL, { fetch: dbFetch });
