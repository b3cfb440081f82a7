import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@web/lib/api';
import { IDENTITY_KEY } from './kratos/follow';

/** GET /api/auth/setup: what the sign-in pages need to know. */
const setupSchema = z.object({
  /** No account exists yet: the first one becomes the administrator. */
  first_run: z.boolean(),
  /** New accounts may be created at /registration. */
  registration: z.boolean(),
  /** Mail really leaves the server (recovery codes arrive by mail). */
  mail: z.boolean(),
});
export type Setup = z.infer<typeof setupSchema>;

export function useSetup() {
  return useQuery({
    queryKey: [IDENTITY_KEY, 'setup'],
    queryFn: ({ signal }) => api.get('/api/auth/setup', (data) => setupSchema.parse(data), { signal }),
    staleTime: 60_000,
    retry: false,
  });
}
