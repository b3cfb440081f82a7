import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@web/lib/api';
import { IDENTITY_KEY } from './kratos/follow';

/** GET /api/auth/mode: the console's own accounts, or sign-in through an OpenID Connect provider (docs/HOSTED.md). */
const modeSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('builtin') }),
  z.object({ mode: z.literal('oidc'), issuer: z.string(), issuer_host: z.string(), login_url: z.string() }),
]);
export type AuthMode = z.infer<typeof modeSchema>;

export function useAuthMode() {
  return useQuery({
    queryKey: [IDENTITY_KEY, 'mode'],
    queryFn: ({ signal }) => api.get('/api/auth/mode', (data) => modeSchema.parse(data), { signal }),
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
