import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../../platform/auth/types';
import { AppError } from '../../../platform/http/errors';
import { ORY_PREFIX } from '../kratos/context';

/** What a session may still use before it has an organization: who am I, choose one, sign in and out. */
const OPEN_ROUTES = new Set(['/api/auth/whoami', '/api/auth/organization', '/api/auth/mode']);
const OPEN_PREFIXES = ['/api/auth/oidc/', `${ORY_PREFIX}/`];
/** What a platform administrator may use before: managing the organizations themselves (the first one is made here). */
const ADMIN_ROUTES = ['/api/auth/organizations'];

export const ORGANIZATION_REQUIRED = 'organization_required';

/**
 * Spec §6: hosted mode needs an organization selected. A session without one (docs/HOSTED.md: none
 * chosen, and the person is not in exactly one) gets 403 on every route but the open ones; the matched
 * route decides, not the raw URL. A platform administrator (migration 0040; not an admin role, which is
 * per organization) may still manage the organizations (else a console whose provider sends no
 * organization claim could never get its first one). An API token is judged the same
 * way (docs/HOSTED.md "API tokens in hosted mode"): it works in the organization it was made for while its
 * owner is a member (`actor.organizationId`), else it is refused here too.
 */
export function organizationRequired(req: FastifyRequest, actor: Actor): AppError | undefined {
  if (!actor.session && !actor.token) return undefined;
  if (actor.organizationId) return undefined;
  const route = req.routeOptions.url ?? '';
  if (OPEN_ROUTES.has(route) || OPEN_PREFIXES.some((prefix) => route.startsWith(prefix))) return undefined;
  if (actor.platformAdmin === true && ADMIN_ROUTES.some((prefix) => route === prefix || route.startsWith(`${prefix}/`))) return undefined;
  const message = actor.token
    ? "this API token works in no organization of yours: it was made without one, or its organization was deleted or you left it; make a new token in the organization's console (or watchkeeper token create --organization ORG)"
    : 'choose an organization first: this console works in one of your organizations at a time (POST /api/auth/organization with its id)';
  return new AppError('forbidden', message, { id: ORGANIZATION_REQUIRED });
}
