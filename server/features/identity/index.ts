import type { Feature } from '../../platform/context';
import { backgroundWork } from '../../platform/jobs/registry';
import { identityApi } from './api';
import { registerActorLoader } from '../../platform/auth/capabilities';
import { actorOfPerson, identityAuthenticator } from './authenticate';
import { identityCleanupJob } from './cleanup';
import { ORY_PREFIX, type IdentityDeps } from './kratos/context';
import { kratosRoutes } from './kratos/routes';
import { createMailer } from './mailer';
import { registerOidc } from './oidc';
import { registerOrganizations } from './organizations';
import { RateLimiter } from './rate-limit';
import { permissionGroupKind } from './permission-group-kind';
import { permissionKind } from './permission-kind';
import { scopeKind } from './scope-kind';
import { teamKind } from './team-kind';
import { permissionGroupKubeKind, permissionKubeKind, scopeKubeKind, teamKubeKind } from './kube-kinds';
import './service-accounts';

export { createAccessToken } from './tokens';
// What other features use of identity (hosted mode, organizations, agents, health's access map).
export { accessMap } from './api';
export { credentialOf, identityAuthenticator, MEMBER_DEFAULT_ROLE, type IdentityAuthenticator } from './authenticate';
export { createIdentity, normalizeEmail } from './identities';
export { baseUrl } from './kratos/context';
export { DEFAULT_ROLE, REGISTRATION_DEFAULT_ROLE } from './kratos/registration';
export { createMailer, type Mailer } from './mailer';
export { findOrCreatePerson } from './oidc/people';
export { OidcError } from './oidc/provider';
export { setMembershipRole } from './organizations';

// Capabilities are checked against a spec's last author when it runs (docs/SECURITY.md).
registerActorLoader((pool, personId) => actorOfPerson(pool, identityAuthenticator(pool).rules, personId));

/**
 * Identity and access (spec §1, §6, §8): the Kratos-compatible self-service API under /api/.ory, the
 * console's own /api/auth, /api/people and /api/rbac, and the cleanup of expired flows and sessions.
 * Sessions and API tokens are resolved for every request by the authenticator in AppContext.
 */
export const identityFeature: Feature = {
  name: 'identity',
  kinds: [teamKind, permissionGroupKind, permissionKind, scopeKind],
  kubeKinds: [teamKubeKind, permissionGroupKubeKind, permissionKubeKind, scopeKubeKind],
  async register(app, ctx) {
    const deps: IdentityDeps = {
      pool: ctx.pool,
      config: ctx.config,
      log: ctx.log,
      auth: identityAuthenticator(ctx.pool),
      mailer: createMailer(ctx.config, ctx.log),
      limiter: new RateLimiter(ctx.pool),
    };
    registerOidc(app, deps);
    registerOrganizations(app, deps);
    await app.register(async (scope) => kratosRoutes(scope, deps), { prefix: ORY_PREFIX });
    await identityApi(app, deps);
    backgroundWork.job(identityCleanupJob());
  },
};
