import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { sessionQueryKey } from '@web/app/session';
import { ApiError, errorBodyMessage, NETWORK_ERROR_TEXTS } from '@web/lib/api';
import { toast } from '@web/lib/toast';
import { Button } from '@web/ui/primitives/button';

export const REFRESH_ORGANIZATIONS_PATH = '/api/auth/oidc/refresh';

/**
 * POST /api/auth/oidc/refresh (docs/HOSTED.md): the server reads the person's organizations again from the
 * sign-in provider. Sent with fetch rather than the api client: its 401 means the provider no longer takes
 * the session's refresh token while the session itself still stands, so it must not send the browser to
 * the sign-in check as every other 401 does (spec §8); the person reads the message instead.
 */
export async function refreshOrganizations(): Promise<void> {
  let response: Response;
  try {
    response = await fetch(REFRESH_ORGANIZATIONS_PATH, { method: 'POST', headers: { accept: 'application/json' }, credentials: 'same-origin', signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    throw new ApiError(NETWORK_ERROR_TEXTS.network, 'network', undefined, undefined, { cause: error });
  }
  if (response.ok) return;
  const data: unknown = await response.json().catch(() => undefined);
  throw new ApiError(errorBodyMessage(data) ?? `${response.status} ${response.statusText}`.trim(), 'http', response.status, data);
}

/**
 * "Check again" on the Choose an organization and No organization screens: a membership granted (or
 * removed) at the provider shows without signing in again. whoami is read again, so the layout follows.
 */
export function CheckAgainButton() {
  const queryClient = useQueryClient();
  const check = useMutation({
    mutationFn: refreshOrganizations,
    onSuccess: () => queryClient.refetchQueries({ queryKey: sessionQueryKey }),
    onError: (error) => toast.error(error),
  });
  return (
    <Button variant="ghost" disabled={check.isPending} onClick={() => check.mutate()}>
      <RefreshCw className={check.isPending ? 'size-4 animate-spin' : 'size-4'} aria-hidden="true" />
      Check again
    </Button>
  );
}
