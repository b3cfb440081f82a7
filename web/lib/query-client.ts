import { LOOKUP_STALE_TIME_MS } from '@common/constants';
import { MutationCache, QueryClient } from '@tanstack/react-query';
import { toast } from './toast';

/** Spec §9: shared lookups (flags, people, agents…) stay fresh for 5 minutes. */
export const SHARED_LOOKUP_STALE_TIME = LOOKUP_STALE_TIME_MS;

/**
 * One client for the app. Failed mutations toast by default (STYLE: mutations toast on error), unless a
 * mutation handles its own errors and says so with `meta: { toast: false }`.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false },
    },
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (mutation.meta?.toast === false) return;
        toast.error(error);
      },
    }),
  });
}
