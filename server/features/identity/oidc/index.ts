import type { FastifyInstance } from 'fastify';
import type { IdentityDeps } from '../kratos/context';
import { OidcProvider } from './provider';
import { authModeRoute, oidcRoutes, refuseBuiltinSignIn } from './routes';

/**
 * Sign-in through an OpenID Connect provider (`--auth oidc`, docs/HOSTED.md). Always adds
 * GET /api/auth/mode; in oidc mode also the login, callback and logout routes, and refuses the built-in
 * login, registration and recovery flows. Call before the Kratos routes are registered.
 */
export function registerOidc(app: FastifyInstance, deps: IdentityDeps): void {
  const provider = deps.config.oidc ? new OidcProvider(deps.config.oidc) : undefined;
  authModeRoute(app, provider);
  if (!provider) return;
  refuseBuiltinSignIn(app, provider);
  oidcRoutes(app, deps, provider);
}
