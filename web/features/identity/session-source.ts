import { SECOND_FACTOR_PENDING, type SessionSource } from '@web/app/session';
import { ApiError, NETWORK_ERROR_TEXTS } from '@web/lib/api';

/**
 * The identity feature's session for the shell (web/app/session.tsx finds it by its file name). This
 * module is part of the first-load shell, so it stays small: the answer's parser (zod) loads on demand,
 * in parallel with the request.
 */

const LOGOUT_BROWSER = '/api/.ory/self-service/logout/browser';

async function request(url: string): Promise<Response> {
  try {
    return await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  } catch (error) {
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    throw new ApiError(offline ? NETWORK_ERROR_TEXTS.offline : NETWORK_ERROR_TEXTS.network, offline ? 'offline' : 'network', undefined, undefined, { cause: error });
  }
}

async function json(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    return text;
  }
}

function logoutUrl(data: unknown): string | undefined {
  if (!data || typeof data !== 'object' || !('logout_url' in data)) return undefined;
  return typeof data.logout_url === 'string' ? data.logout_url : undefined;
}

function redirectOf(data: unknown): string | undefined {
  if (!data || typeof data !== 'object' || !('redirect_browser_to' in data)) return undefined;
  return typeof data.redirect_browser_to === 'string' ? data.redirect_browser_to : undefined;
}

export function createSessionSource(go: (url: string) => void = (url) => window.location.assign(url)): Required<SessionSource> {
  return {
    async load() {
      const [response, whoami] = await Promise.all([request('/api/auth/whoami'), import('./whoami')]);
      const data = await json(response);
      if (response.status === 401) return undefined;
      if (response.status === 403 && whoami.errorId(data) === 'session_aal2_required') return SECOND_FACTOR_PENDING;
      if (!response.ok) throw new ApiError(`Could not read your session (HTTP ${response.status}).`, 'http', response.status, data);
      return whoami.parseWhoami(data);
    },

    /**
     * The Kratos browser logout: ask for the logout URL, call it (204), then sign in again from /login,
     * which returns to `returnTo`. A full page load drops everything cached for this person.
     */
    async signOut(returnTo) {
      const flow = await request(LOGOUT_BROWSER);
      // 401: the session is gone already; signing in again is all that is left to do.
      if (!flow.ok && flow.status !== 401) throw new ApiError(`Could not sign out (HTTP ${flow.status}).`, 'http', flow.status, await json(flow));
      const url = flow.ok ? logoutUrl(await json(flow)) : undefined;
      if (url) {
        const done = await request(url);
        if (!done.ok && done.status !== 401) throw new ApiError(`Could not sign out (HTTP ${done.status}).`, 'http', done.status, await json(done));
        // Sign-in through a provider (docs/HOSTED.md): its end-session page comes next, and back to /login.
        const provider = done.ok ? redirectOf(await json(done)) : undefined;
        if (provider) return go(provider);
      }
      go(`/login?return_to=${encodeURIComponent(returnTo)}`);
    },
  };
}

export const sessionSource = createSessionSource();
