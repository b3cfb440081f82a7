import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { Loading } from '@web/ui/primitives/loading';
import { AuthCard, FlowFailure } from '../components/auth-card';
import { checkSession } from '../kratos/client';
import { IDENTITY_KEY, safeReturnPath, useFollow } from '../kratos/follow';

/** Where the session check sends the person (spec §8): back, to sign in, or to the second factor. */
export function nextAfterCheck(state: Awaited<ReturnType<typeof checkSession>>, returnTo: string): string {
  if (state === 'active') return returnTo;
  const encoded = encodeURIComponent(returnTo);
  return state === 'second-factor' ? `/login?aal=aal2&return_to=${encoded}` : `/login?return_to=${encoded}`;
}

/**
 * /auth-state-checker?return_to= (spec §8): after a 401 from the API, asks the identity service about the
 * session. Signed in: back to return_to (same-origin paths only); signed out: /login; a second factor
 * pending (403 or 422): /login with aal2.
 */
export default function AuthStateCheckerPage() {
  const [params] = useSearchParams();
  const follow = useFollow();
  const returnTo = safeReturnPath(params.get('return_to')) ?? '/';
  const query = useQuery({ queryKey: [IDENTITY_KEY, 'session-check', returnTo], queryFn: checkSession, retry: false, gcTime: 0 });
  const state = query.data;
  const followed = useRef(false);
  useEffect(() => {
    if (!state || followed.current) return;
    followed.current = true;
    void follow(nextAfterCheck(state, returnTo));
  }, [follow, returnTo, state]);
  return (
    <AuthCard title="Checking your session">
      {query.isError ? <FlowFailure message={query.error.message} onRetry={() => void query.refetch()} /> : <Loading text="Checking your session…" className="py-8" />}
    </AuthCard>
  );
}
