import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Agent, request, type Dispatcher } from 'undici';
import { TOKEN_OBJECTS, tokenActionsOf, tokenAllows, type TokenScope } from '../../../common/rbac';
import type { RouteAccess } from '../../platform/auth/types';
import { AppError } from '../../platform/http/errors';
import type { IdentityAuthenticator } from '../identity';
import { organizationOfSession, type OrganizationTokens, type SessionOrganization } from './organization';

/**
 * The hosted front's proxy (spec §7, docs/HOSTED.md "Direct or proxied"): a signed-in session whose
 * organization has a backend URL and is not `direct`, and an API token whose organization has a backend URL
 * (direct or not), have their /api/* requests forwarded there with the front's bearer token, bodies
 * streamed both ways. Runs before the access guard: the backend decides what
 * the person may do there, with the roles the token carries.
 */

/** Answered by the front itself: sign-in, the session, the organization routes. */
const FRONT_ONLY = [/^\/api\/auth(\/|$)/, /^\/api\/\.ory(\/|$)/, /^\/api\/organizations(\/|$)/];

/** An organization's API: /api/* but the front's own routes, and the MCP server's second address /mcp. */
export function isProxied(pathname: string): boolean {
  if (pathname === '/mcp') return true;
  return pathname.startsWith('/api/') && !FRONT_ONLY.some((pattern) => pattern.test(pathname));
}

/** RFC 9110 §7.6.1 hop-by-hop fields, and what only the front reads (its own session). */
const DROPPED_REQUEST = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'cookie', 'authorization', 'x-session-token']);
const DROPPED_RESPONSE = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'set-cookie']);

const BACKEND_TIMEOUT_MS = 60_000;

export class BackendProxy {
  /** One keep-alive pool per backend origin. */
  private readonly agent: Dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 128, headersTimeout: BACKEND_TIMEOUT_MS, bodyTimeout: BACKEND_TIMEOUT_MS });

  constructor(
    private readonly auth: IdentityAuthenticator,
    private readonly tokens: OrganizationTokens,
  ) {}

  install(app: FastifyInstance): void {
    app.addHook('onRequest', async (req, reply) => {
      if (!isProxied(req.url.split('?')[0] ?? '')) return;
      const { actor } = await this.auth.resolve(req);
      if (!actor || (!actor.session && !actor.token)) return;
      // actor.organizationId: the session's or the API token's (docs/HOSTED.md "API tokens in hosted mode").
      const organization = await organizationOfSession(this.tokens.pool, actor);
      if (!organization?.backendUrl) return;
      // A browser session of a direct organization calls the backend itself; a token client (kubectl, MCP,
      // an agent) cannot follow that route, so its requests are forwarded for direct organizations too.
      if (organization.direct && !actor.token) return;
      if (actor.token) {
        const refused = scopeRefusal(req, actor.token.scopes);
        if (refused) return reply.status(refused.status).type('application/json; charset=utf-8').send(refused.toBody());
      }
      // Organization tokens are cached per credential: the session, or the API token.
      const credential = actor.session ? actor.session.id : `token:${actor.token?.id ?? ''}`;
      const { token } = await this.tokens.tokenFor(actor, credential, organization);
      return this.forward(req, reply, organization, organization.backendUrl, token);
    });
  }

  private async forward(req: FastifyRequest, reply: FastifyReply, organization: SessionOrganization, backendUrl: string, token: string): Promise<FastifyReply> {
    const headers = requestHeaders(req, token);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    let answer: Dispatcher.ResponseData;
    try {
      answer = await request(`${backendUrl.replace(/\/+$/, '')}${req.url}`, {
        method: req.method,
        headers,
        body: hasBody ? req.raw : null,
        dispatcher: this.agent,
      });
    } catch (error) {
      req.log.warn({ organization: organization.id, backend: backendUrl, err: error }, 'organization backend not answering');
      return reply.status(502).send({
        error: 'bad_gateway',
        message: `the organization's backend ${hostOf(backendUrl)} is not answering (${reasonOf(error)}); try again in a moment`,
      });
    }
    void reply.status(answer.statusCode);
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !DROPPED_RESPONSE.has(name)) void reply.header(name, value);
    }
    return reply.send(answer.body);
  }
}

/**
 * The backend sees the front's token (the person and their roles), not the API token's scopes, so the front
 * applies them before forwarding: a route that declares a resource and action needs the scope for it
 * (as the front's own guard would ask); a route that checks for itself (/api/db, MCP, kubectl) or that the
 * front does not know needs a token with every scope (the Admin preset), since the front cannot tell what
 * the backend will do there.
 */
export function scopeRefusal(req: FastifyRequest, scopes: readonly TokenScope[]): AppError | undefined {
  const access: RouteAccess | undefined = req.is404 ? undefined : req.routeOptions.config?.access;
  if (access === 'public' || access === 'authenticated') return undefined;
  if (access !== undefined && access !== 'self-checked') {
    return tokenAllows(scopes, access.resource, access.action)
      ? undefined
      : new AppError('forbidden', `this API token's scopes do not allow ${access.action} on ${access.resource}`, { resource: access.resource, action: access.action });
  }
  if (grantsEverything(scopes)) return undefined;
  return new AppError(
    'forbidden',
    `${req.routeOptions.url ?? req.url.split('?')[0] ?? ''} is answered by the organization's backend, which cannot apply this API token's scopes there: use a token with every scope (the Admin preset)`,
  );
}

/** Every action on every token object: the backend's own checks with the person's roles are then the whole answer. */
function grantsEverything(scopes: readonly TokenScope[]): boolean {
  return TOKEN_OBJECTS.every((object) =>
    tokenActionsOf(object).every((action) => scopes.some((scope) => scope.object === object && (scope.action === '*' || scope.action === action))),
  );
}

function requestHeaders(req: FastifyRequest, token: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const incoming: IncomingHttpHeaders = req.headers;
  // Fields the Connection header names are hop-by-hop too.
  const named = new Set(String(incoming.connection ?? '').toLowerCase().split(',').map((part) => part.trim()));
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || DROPPED_REQUEST.has(name) || named.has(name)) continue;
    out[name] = value;
  }
  out.authorization = `Bearer ${token}`;
  out['x-forwarded-for'] = req.ip;
  out['x-forwarded-proto'] = req.protocol;
  out['x-forwarded-host'] = req.host;
  out['x-request-id'] = req.id;
  return out;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function reasonOf(error: unknown): string {
  const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
      return 'no answer in time';
    case 'ENOTFOUND':
      return 'its host name does not resolve';
    default:
      return code ?? 'connection failed';
  }
}
