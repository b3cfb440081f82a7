import { useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api';
import { oneOf, record, text } from '@web/lib/shape';
import { IDENTITY_KEY } from './kratos/follow';

/** GET /api/auth/mode: the console's own accounts, or sign-in through an OpenID Connect provider (docs/HOSTED.md). */
export type AuthMode = { mode: 'builtin' } | { mode: 'oidc'; issuer: string; issuer_host: string; login_url: string };

/** Reads the answer (the shell loads this before any page: no zod here, web/lib/shape.ts). */
export function parseAuthMode(data: unknown): AuthMode {
  const answer = record(data, 'auth mode');
  if (oneOf(answer, 'mode', ['builtin', 'oidc'] as const, 'auth mode') === 'builtin') return { mode: 'builtin' };
  return { mode: 'oidc', issuer: text(answer, 'issuer', 'auth mode'), issuer_host: text(answer, 'issuer_host', 'auth mode'), login_url: text(answer, 'login_url', 'auth mode') };
}

export function useAuthMode() {
  return useQuery({
    queryKey: [IDENTITY_KEY, 'mode'],
    queryFn: ({ signal }) => api.get('/api/auth/mode', parseAuthMode, { signal }),
    staleTime: Infinity,
    retry: false,
  });
}

/**
 * The provider's sign-in, coming back to `returnTo` (a path of this console) through /auth-state-checker;
 * `refresh`: a confirmation for a privileged change, where the provider asks the person to sign in again.
 */
export function oidcLoginHref(mode: Extract<AuthMode, { mode: 'oidc' }>, returnTo: string | null, refresh = false): string {
  const query = new URLSearchParams();
  if (returnTo) query.set('return_to', returnTo);
  if (refresh) query.set('refresh', 'true');
  const search = query.toString();
  return search ? `${mode.login_url}?${search}` : mode.login_url;
}
