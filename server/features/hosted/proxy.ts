import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Agent, request, type Dispatcher } from 'undici';
import type { IdentityAuthenticator } from '../identity/authenticate';
import { organizationOfSession, type OrganizationTokens, type SessionOrganization } from './organization';

/**
 * The hosted front's proxy (spec §7, docs/HOSTED.md "Direct or proxied"): a signed-in session whose
 * organization has a backend URL and is not `direct` has its /api/* requests forwarded there with the
 * front's bearer token, bodies streamed both ways. Runs before the access guard: the backend decides what
 * the person may do there, with the roles the token carries.
 */

/** Answered by the front itself: sign-in, the session, the organization routes. */
const FRONT_ONLY = [/^\/api\/auth(\/|$)/, /^\/api\/\.ory(\/|$)/, /^\/api\/organizations(\/|$)/];

export function isProxied(pathname: string): boolean {
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
      if (!actor?.session) return;
      const organization = await organizationOfSession(this.tokens.pool, actor);
      if (!organization?.backendUrl || organization.direct) return;
      const { token } = await this.tokens.tokenFor(actor, actor.session.id, organization);
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
