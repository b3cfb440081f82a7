import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { sessionQueryKey } from '@web/app/session';

/** Query keys of the identity feature; kept when the person changes, everything else is dropped. */
export const IDENTITY_KEY = 'identity';

/** A same-origin path (with query) to go back to, or undefined for anything else (spec §8: no open redirects). */
export function safeReturnPath(value: string | null | undefined, origin = window.location.origin): string | undefined {
  if (!value) return undefined;
  if (value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')) return value;
  try {
    const url = new URL(value);
    return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Follows a redirect the identity API asked for (continue_with, redirect_browser_to). The session is read
 * again first, so the page it leads to sees who is signed in now; cached data of other pages is dropped,
 * since it may belong to someone else. Other origins are left to the browser.
 */
export function useFollow(): (to: string) => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    async (to: string) => {
      const path = safeReturnPath(to);
      if (path === undefined) {
        window.location.assign(to);
        return;
      }
      await queryClient.refetchQueries({ queryKey: sessionQueryKey });
      queryClient.removeQueries({ type: 'inactive', predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] && query.queryKey[0] !== IDENTITY_KEY });
      await navigate(path);
    },
    [navigate, queryClient],
  );
}
