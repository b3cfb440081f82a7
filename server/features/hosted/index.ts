import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context';
import { identityAuthenticator } from '../identity';
import { allowDirectBackends } from './csp';
import { OrganizationTokens } from './organization';
import { BackendProxy } from './proxy';
import { frontRoutes } from './routes';
import { scopeRequestsToOrganizations } from './tenancy';
import { TrustedFront } from './trusted-front';

/**
 * Hosted mode's organization backends (issue 25, docs/HOSTED.md): on the front (`--auth oidc`) the
 * organization tokens, their JWKS and the proxy; on a backend (`--auth trusted-front`) the check of the
 * front's tokens.
 */

const tokensByPool = new WeakMap<AppContext['pool'], OrganizationTokens>();

function tokensOf(ctx: AppContext): OrganizationTokens {
  let tokens = tokensByPool.get(ctx.pool);
  if (!tokens) {
    tokens = new OrganizationTokens(ctx.pool, ctx.config.publicUrl.replace(/\/+$/, ''));
    tokensByPool.set(ctx.pool, tokens);
  }
  return tokens;
}

/**
 * Called by app.ts just before the access guard: on the front, the proxy hook (it must run before the
 * guard: the backend decides what the person may do) and the token routes; on a backend, the admission
 * of the front's tokens.
 */
export function installHosted(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.oidc) {
    const tokens = tokensOf(ctx);
    new BackendProxy(identityAuthenticator(ctx.pool), tokens).install(app);
    allowDirectBackends(app, ctx.pool, identityAuthenticator(ctx.pool));
    frontRoutes(app, tokens);
    scopeRequestsToOrganizations(app, ctx.pool);
  }
  if (ctx.config.trustedFront) new TrustedFront(ctx.pool, ctx.config.trustedFront).install(app);
}
