import type { FastifyInstance } from 'fastify';
import type { IdentityDeps } from '../kratos/context';
import { OidcProvider } from './provider';
import { ClaimRefresher } from './refresh';
import { authModeRoute, oidcRoutes, refreshRoutes, refuseBuiltinSignIn } from './routes';

/**
 * Sign-in through an OpenID Connect provider (`--auth oidc`, docs/HOSTED.md). Always adds
 * GET /api/auth/mode; in oidc mode also the login, callback, logout and refresh routes, and refuses the built-in
 * login, registration and recovery flows. Call before the Kratos routes are registered.
 */
export function registerOidc(app: FastifyInstance, deps: IdentityDeps): void {
  const provider = deps.config.oidc ? new OidcProvider(deps.config.oidc) : undefined;
  authModeRoute(app, provider);
  if (!provider) return;
  refuseBuiltinSignIn(app, provider);
  const refresher = new ClaimRefresher(deps.pool, provider);
  oidcRoutes(app, deps, provider, refresher);
  refreshRoutes(app, deps, refresher);
}
