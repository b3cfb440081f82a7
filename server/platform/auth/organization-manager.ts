import { tokenAllows, type Action } from '../../../common/rbac';
import { AppError } from '../http/errors';
import { decide } from './decide';
import type { Actor } from './types';

/**
 * Who manages which organization of hosted mode (docs/HOSTED.md "Platform administrators and organization
 * admins"): a platform administrator manages every organization; an organization's admin (its member role
 * is admin, and the request works in it) manages that organization's members only. Shared by the
 * organizations admin routes and Settings → Users (POST /api/people/update in an organization).
 */
export type Manager = { platform: true } | { platform: false; organizationId: string };

export const NOT_A_MANAGER =
  'managing organizations needs a platform administrator (watchkeeper org platform-admin add EMAIL), or an admin of the organization for its own members';

/**
 * The manager this actor is for `action` (on the identities resource), or undefined: a platform
 * administrator (an API token of theirs as its scopes allow), else the admin of the organization the
 * request works in, when no permission row denies it.
 */
export function managerRole(actor: Actor, action: Action): Manager | undefined {
  if (actor.platformAdmin === true && (!actor.token || tokenAllows(actor.token.scopes, 'identities', action))) return { platform: true };
  const organizationId = actor.organizationId;
  if (organizationId && actor.organization?.id === organizationId && actor.organization.role === 'admin' && decide(actor, 'identities', action).allowed) {
    return { platform: false, organizationId };
  }
  return undefined;
}

/** As managerRole, refusing (401 without an actor, 403 otherwise) when the actor manages nothing. */
export function managerOf(actor: Actor | undefined, action: Action, refusal = NOT_A_MANAGER): Manager {
  if (!actor) throw new AppError('unauthorized', 'sign in first');
  const manager = managerRole(actor, action);
  if (!manager) throw new AppError('forbidden', refusal);
  return manager;
}

/** Whether this manager may manage the members of `organizationId`. */
export function manages(manager: Manager, organizationId: string): boolean {
  return manager.platform || manager.organizationId === organizationId;
}
