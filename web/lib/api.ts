/**
 * The small JSON client of the console's own endpoints (not /api/db, which has its PostgREST client in
 * db.ts). Every failure becomes an ApiError whose message is what a person should read: the server's
 * text, or one of the network texts of spec §8. Answers are checked by the caller's parser (a zod
 * schema's `parse`), so a wrong shape fails here, not three components later.
 */

import { reportUnauthorized } from './unauthorized';

export const NETWORK_ERROR_TEXTS = {
  timeout: 'Request timed out. Please try again.',
  network: 'Network Error. Please try again.',
  offline: 'No internet connection. Please try again.',
} as const;

export const DEFAULT_TIMEOUT_MS = 30_000;

export type ApiErrorKind = 'http' | 'timeout' | 'network' | 'offline' | 'invalid-response';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    readonly kind: ApiErrorKind,
    /** HTTP status, when the server answered. */
    readonly status?: number,
    /** The parsed error body, when the server sent JSON (spec §8 reads its `error` and `message`). */
    readonly data?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

function readString(data: unknown, key: string): string | undefined {
  if (!data || typeof data !== 'object' || !(key in data)) return undefined;
  const value: unknown = Reflect.get(data, key);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The readable message of an error body: ours `{ error, message }`, PostgREST's `{ message, code }`. */
export function errorBodyMessage(data: unknown): string | undefined {
  return readString(data, 'message') ?? readString(data, 'error');
}

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    return text;
  }
}

/**
 * Where a request of the console goes: this origin, or (hosted mode, a `direct` organization,
 * docs/HOSTED.md) the organization's backend with a bearer token. Set by web/features/hosted/direct.ts.
 */
export type RequestRoute = (path: string) => Promise<{ url: string; headers: Record<string, string> } | undefined>;
let requestRoute: RequestRoute | undefined;

export function setRequestRoute(route: RequestRoute | undefined): void {
  requestRoute = route;
}

export async function routeOf(path: string): Promise<{ url: string; headers: Record<string, string> } | undefined> {
  return requestRoute?.(path);
}

/**
 * Hosted mode (docs/HOSTED.md): a session without an organization (none chosen yet, or the chosen one
 * lost mid-session: deleted, or the person removed from it) is answered 403 with this `details.id` on
 * every route but whoami. The HTTP clients (this one, db.ts) report such an answer here; the shell
 * (web/app/session.tsx) registers its reaction with `onOrganizationRequired`: it reads whoami again.
 */
export const ORGANIZATION_REQUIRED = 'organization_required';
let organizationRequired: (() => void) | undefined;

/** Sets the reaction to an organization_required answer (undefined removes it); returns its remover. */
export function onOrganizationRequired(next: (() => void) | undefined): () => void {
  organizationRequired = next;
  return () => {
    if (organizationRequired === next) organizationRequired = undefined;
  };
}

/** Called by the HTTP clients with a failed answer's status and body. */
export function reportIfOrganizationRequired(status: number, data: unknown): void {
  if (status !== 403 || !data || typeof data !== 'object') return;
  const details: unknown = Reflect.get(data, 'details');
  if (details && typeof details === 'object' && Reflect.get(details, 'id') === ORGANIZATION_REQUIRED) organizationRequired?.();
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  headers?: Record<string, string>;
}

/** Sends one request and returns the checked answer; throws ApiError on any failure. */
export async function apiRequest<T>(path: string, parse: (data: unknown) => T, options: RequestOptions = {}): Promise<T> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const routed = await routeOf(path);
  let response: Response;
  try {
    response = await fetch(routed?.url ?? path, {
      method: options.method ?? 'GET',
      headers: { ...headers, ...routed?.headers },
      credentials: routed ? 'omit' : 'same-origin',
      signal,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
  } catch (error) {
    // The caller's own abort stays an AbortError, so React Query and callers can ignore it (spec §8).
    if (options.signal?.aborted) throw error;
    if (timeout.aborted) throw new ApiError(NETWORK_ERROR_TEXTS.timeout, 'timeout', undefined, undefined, { cause: error });
    if (isOffline()) throw new ApiError(NETWORK_ERROR_TEXTS.offline, 'offline', undefined, undefined, { cause: error });
    throw new ApiError(NETWORK_ERROR_TEXTS.network, 'network', undefined, undefined, { cause: error });
  }
  const data = await readBody(response);
  if (response.status === 401) reportUnauthorized();
  if (!response.ok) {
    reportIfOrganizationRequired(response.status, data);
    throw new ApiError(errorBodyMessage(data) ?? `${response.status} ${response.statusText}`.trim(), 'http', response.status, data);
  }
  try {
    return parse(data);
  } catch (error) {
    throw new ApiError(`Unexpected answer from ${path}`, 'invalid-response', response.status, data, { cause: error });
  }
}

export const api = {
  get: <T>(path: string, parse: (data: unknown) => T, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest(path, parse, options),
  post: <T>(path: string, body: unknown, parse: (data: unknown) => T, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest(path, parse, { ...options, method: 'POST', body }),
  put: <T>(path: string, body: unknown, parse: (data: unknown) => T, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest(path, parse, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body: unknown, parse: (data: unknown) => T, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest(path, parse, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, parse: (data: unknown) => T, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest(path, parse, { ...options, method: 'DELETE' }),
};
