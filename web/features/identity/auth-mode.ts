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

/** The provider's sign-in, coming back to `returnTo` (a path of this console) through /auth-state-checker. */
export function oidcLoginHref(mode: Extract<AuthMode, { mode: 'oidc' }>, returnTo: string | null): string {
  return returnTo ? `${mode.login_url}?return_to=${encodeURIComponent(returnTo)}` : mode.login_url;
}
