import type { FastifyInstance } from 'fastify';
import type { IdentityDeps } from '../kratos/context';
import { organizationRequired } from './gate';
import { organizationRoutes } from './routes';

export { membershipsOf, setMembershipRole, type Membership } from './store';
export { ORGANIZATION_REQUIRED } from './gate';

/**
 * Choosing an organization (hosted mode, docs/HOSTED.md item 1): in oidc mode, the switcher's route and
 * the guard's refusal of a session that has none. Builtin mode has neither.
 */
export function registerOrganizations(app: FastifyInstance, deps: IdentityDeps): void {
  if (!deps.config.oidc) return;
  deps.auth.admitWith(organizationRequired);
  organizationRoutes(app, deps);
}
