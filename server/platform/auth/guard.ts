import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors';
import { decide } from './decide';
import type { Authenticator, RouteAccess } from './types';

/** Paths outside the API that need no access declaration: the SPA, its assets, probes. */
function isApi(url: string): boolean {
  return url === '/api' || url.startsWith('/api/');
}

export const UNAUTHORIZED_MESSAGE = 'sign in first: send the session cookie, X-Session-Token, Authorization: Bearer <token>, or Basic auth with user "token"';

/**
 * The access guard (DESIGN §5): every route declares `config.access`; this hook resolves the caller once
 * per request and refuses before anything else, the body included, is looked at. An /api route without
 * a declaration needs a signed-in caller, so forgetting one fails closed.
 */
export function installAccessGuard(app: FastifyInstance, auth: Authenticator): void {
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const access: RouteAccess | undefined = req.routeOptions.config?.access;
    // Unknown paths answer 404 to everyone: the route list is public (/api/openapi.json).
    if (access === 'public' || req.is404) return;
    if (access === undefined && !isApi(req.url)) return;
    const actor = await auth.actorOf(req);
    if (actor) req.actor = actor;
    const refused = actor ? auth.refusal?.(req, actor) : undefined;
    // Answered here, not thrown: areas with their own error shapes (/api/db, kubectl, MCP) would hide it.
    if (refused) return reply.status(refused.status).type('application/json; charset=utf-8').send(refused.toBody());
    if (access === 'self-checked') return;
    if (!actor) throw new AppError('unauthorized', UNAUTHORIZED_MESSAGE);
    if (access === undefined || access === 'authenticated') return;
    const decision = decide(actor, access.resource, access.action);
    if (!decision.allowed) throw forbidden(access.resource, access.action);
  });
}

export function forbidden(resource: string, action: string): AppError {
  return new AppError('forbidden', `you may not ${action} ${resource}: no role or permission of yours allows it`, { resource, action });
}
