import type { QueryClient } from '@tanstack/react-query';
import { sessionQueryKey } from '@web/app/session';
import { api } from '@web/lib/api';

export const ORGS_SWITCHED_PATH = '/organizations/orgs-switched';

/** POST /api/auth/organization (docs/HOSTED.md): the session works in this organization from now on. */
export async function chooseOrganization(id: string): Promise<void> {
  await api.post('/api/auth/organization', { id }, () => undefined);
}

/** Spec §2: the landing page after choosing an organization, which then goes on to `returnTo`. */
export function orgsSwitchedPath(returnTo: string): string {
  return `${ORGS_SWITCHED_PATH}?return_to=${encodeURIComponent(returnTo)}`;
}

/**
 * Nothing cached for the previous organization may show in the next one: every query goes. The shell's
 * session query is reset rather than removed, so the session it observes loads again (whoami now names
 * the new organization); a removed query would leave its observer on the old answer.
 */
export async function forgetPreviousOrganization(queryClient: QueryClient): Promise<void> {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
  await queryClient.resetQueries({ queryKey: sessionQueryKey });
}
