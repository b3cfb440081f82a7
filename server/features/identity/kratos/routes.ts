import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../platform/http/errors';
import { isRecord } from '../../../platform/errors';
import { clearSessionCookie } from '../cookies';
import { loadIdentity } from '../identities';
import { revokeAll, revokeByToken, revokeSession, sessionByToken } from '../sessions';
import { sha256 } from '../../../platform/crypto';
import { bodyOf, publicPath, queryString, redirect, stringField, UI_PATHS, wantsJson, type IdentityDeps } from './context';
import { aal2Required, badRequest, flowNotFound, KratosError, noSession } from './errors';
import { answerFlow, bindToBrowser, checkCsrfCookie, checkCsrfSubmit, csrfTokenFor, isExpired, loadFlow, uiUrl, type FlowKind, type FlowRow, type FlowType } from './flows';
import type { FlowContext, FlowKindHandler } from './handler';
import { loginHandler } from './login';
import { IDENTITY_SCHEMA, presentSession } from './presenters';
import { recoveryHandler } from './recovery';
import { registrationHandler } from './registration';
import { settingsHandler } from './settings';
import { verificationHandler } from './verification';

const HANDLERS: Record<FlowKind, FlowKindHandler> = {
  login: loginHandler,
  registration: registrationHandler,
  recovery: recoveryHandler,
  verification: verificationHandler,
  settings: settingsHandler,
};

const KINDS: readonly FlowKind[] = ['login', 'registration', 'recovery', 'verification', 'settings'];

function logoutTokenOf(token: string): string {
  return sha256(`logout:${sha256(token)}`);
}

/**
 * The Ory Kratos public API under /api/.ory (DESIGN §5): self-service flows for login, registration,
 * recovery, verification and settings (browser and native), logout, sessions/whoami, flow errors and
 * the identity schema. Answers and error bodies follow Kratos so its clients work unchanged.
 */
export async function kratosRoutes(app: FastifyInstance, deps: IdentityDeps): Promise<void> {
  // Browsers post forms; Kratos accepts both encodings.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    done(null, Object.fromEntries(new URLSearchParams(text)));
  });

  app.setErrorHandler(async (error, req, reply) => {
    if (error instanceof KratosError) return answerError(deps, req, reply, error);
    if (error instanceof AppError) return answerError(deps, req, reply, new KratosError(error.status, undefined, error.message));
    const status = isRecord(error) && typeof error.statusCode === 'number' && error.statusCode < 500 ? error.statusCode : 500;
    if (status >= 500) req.log.error({ err: error }, 'identity request failed');
    return answerError(deps, req, reply, new KratosError(status, undefined, status >= 500 ? 'internal error; the server log has the details under this request id' : 'the request could not be handled'));
  });

  const context = async (req: FastifyRequest, reply: FastifyReply, type: FlowType): Promise<FlowContext> => ({
    deps,
    req,
    reply,
    auth: await deps.auth.resolve(req),
    csrf: type === 'browser' ? csrfTokenFor(req, reply) : '',
  });

  const config = { access: 'public' as const };

  for (const kind of KINDS) {
    const handler = HANDLERS[kind];

    for (const type of ['browser', 'api'] as const) {
      app.get(`/self-service/${kind}/${type}`, { config }, async (req, reply) => {
        const ctx = await context(req, reply, type);
        const flow = await handler.create(ctx, type);
        if (type === 'browser' && !wantsJson(req)) return redirect(reply, uiUrl(req, kind, flow.id));
        return reply.type('application/json; charset=utf-8').send(await handler.present(ctx, flow));
      });
    }

    app.get(`/self-service/${kind}/flows`, { config }, async (req, reply) => {
      const loaded = await loadFlow(deps.pool, queryString(req, 'id'), kind);
      const flow = await bindToBrowser(deps.pool, req, reply, loaded);
      // A flow bound just now belongs to the cookie set in this answer; otherwise the cookie must match.
      if (flow === loaded) checkCsrfCookie(req, flow);
      const ctx = await context(req, reply, flow.type);
      if (isExpired(flow)) throw await expired(ctx, handler, flow);
      return reply.type('application/json; charset=utf-8').send(await handler.present(ctx, flow));
    });

    app.post(`/self-service/${kind}`, { config }, async (req, reply) => {
      const flow = await loadFlow(deps.pool, queryString(req, 'flow'), kind);
      const body = bodyOf(req);
      const ctx = await context(req, reply, flow.type);
      if (isExpired(flow)) throw await expired(ctx, handler, flow);
      checkCsrfSubmit(req, flow, stringField(body, 'csrf_token'));
      const outcome = await handler.submit(ctx, flow, body);
      if (outcome.type === 'flow') return answerFlow(req, reply, outcome.flow, await handler.present(ctx, outcome.flow), outcome.status);
      if (flow.type === 'api' || wantsJson(req)) return reply.status(outcome.status).type('application/json; charset=utf-8').send(outcome.body);
      return redirect(reply, outcome.redirectTo);
    });
  }

  app.get('/sessions/whoami', { config }, async (req, reply) => {
    const auth = await deps.auth.resolve(req);
    if (auth.pending) {
      const returnTo = queryString(req, 'return_to') ?? publicPath(req, '/');
      throw aal2Required(`${publicPath(req, UI_PATHS.login)}?aal=aal2&return_to=${encodeURIComponent(returnTo)}`);
    }
    if (!auth.actor?.session || auth.credential?.kind !== 'session') throw noSession();
    const session = await sessionByToken(deps.pool, auth.credential.token);
    const identity = session ? await loadIdentity(deps.pool, session.identity_id) : undefined;
    if (!session || !identity) throw noSession();
    return reply.header('x-kratos-authenticated-identity-id', identity.id).send(presentSession(req, session, identity));
  });

  app.get('/sessions', { config }, async (req) => {
    const auth = await deps.auth.resolve(req);
    if (!auth.actor?.session) throw noSession();
    const { rows } = await deps.pool.query<{ id: string }>('SELECT id FROM sessions WHERE identity_id = $1 AND active AND expires_at > now() AND id <> $2 ORDER BY authenticated_at DESC', [
      auth.actor.id,
      auth.actor.session.id,
    ]);
    const identity = await loadIdentity(deps.pool, auth.actor.id);
    const sessions = await deps.pool.query('SELECT * FROM sessions WHERE id = ANY($1) ORDER BY authenticated_at DESC', [rows.map((row) => row.id)]);
    return identity ? sessions.rows.map((row) => presentSession(req, row, identity)) : [];
  });

  app.delete('/sessions', { config }, async (req) => {
    const auth = await deps.auth.resolve(req);
    if (!auth.actor?.session) throw noSession();
    return { count: await revokeAll(deps.pool, auth.actor.id, auth.actor.session.id) };
  });

  app.delete<{ Params: { id: string } }>('/sessions/:id', { config }, async (req, reply) => {
    const auth = await deps.auth.resolve(req);
    if (!auth.actor?.session) throw noSession();
    if (req.params.id === auth.actor.session.id) throw badRequest('use the logout flow to end the current session');
    const result = await deps.pool.query('UPDATE sessions SET active = false WHERE id = $1 AND identity_id = $2 AND active', [
      /^[0-9a-f-]{36}$/i.test(req.params.id) ? req.params.id : null,
      auth.actor.id,
    ]);
    if (!result.rowCount) throw new KratosError(404, undefined, 'no such session of yours');
    return reply.status(204).send();
  });

  app.get('/self-service/logout/browser', { config }, async (req) => {
    const auth = await deps.auth.resolve(req);
    if (auth.credential?.kind !== 'session' || auth.credential.source !== 'cookie' || (!auth.actor && !auth.pending)) throw noSession();
    const token = logoutTokenOf(auth.credential.token);
    const returnTo = queryString(req, 'return_to');
    const url = `${publicPath(req, '/api/.ory/self-service/logout')}?token=${token}${returnTo ? `&return_to=${encodeURIComponent(returnTo)}` : ''}`;
    return { logout_url: url, logout_token: token };
  });

  app.get('/self-service/logout', { config }, async (req, reply) => {
    const auth = await deps.auth.resolve(req);
    const token = queryString(req, 'token');
    const credential = auth.credential;
    if (!token || credential?.kind !== 'session' || credential.source !== 'cookie' || logoutTokenOf(credential.token) !== token) {
      throw new KratosError(401, 'session_inactive', 'The logout token does not belong to the session of this browser.');
    }
    const session = await sessionByToken(deps.pool, credential.token);
    if (session) await revokeSession(deps.pool, session.id);
    clearSessionCookie(req, reply);
    if (wantsJson(req)) return reply.status(204).send();
    const returnTo = queryString(req, 'return_to');
    const safe = returnTo && returnTo.startsWith('/') && !returnTo.startsWith('//') ? returnTo : UI_PATHS.login;
    return redirect(reply, publicPath(req, safe));
  });

  app.delete('/self-service/logout/api', { config }, async (req, reply) => {
    const token = stringField(bodyOf(req), 'session_token');
    if (!token) throw badRequest('session_token is required');
    if (!(await revokeByToken(deps.pool, token))) throw new KratosError(403, undefined, 'The session token could not be found.');
    return reply.status(204).send();
  });

  app.get('/self-service/errors', { config }, async (req) => {
    const id = queryString(req, 'id');
    const { rows } = await deps.pool.query<{ id: string; error: unknown; created_at: Date }>('SELECT id, error, created_at FROM selfservice_errors WHERE id = $1', [
      id && /^[0-9a-f-]{36}$/i.test(id) ? id : null,
    ]);
    const row = rows[0];
    if (!row) throw flowNotFound();
    return { id: row.id, error: row.error, created_at: row.created_at.toISOString(), updated_at: row.created_at.toISOString() };
  });

  app.get('/schemas', { config }, async (req) => [{ id: 'default', schema: IDENTITY_SCHEMA, url: publicPath(req, `/api/.ory/schemas/${Buffer.from('default').toString('base64url')}`) }]);
  app.get<{ Params: { id: string } }>('/schemas/:id', { config }, async (req) => {
    const id = Buffer.from(req.params.id, 'base64url').toString('utf8');
    if (id !== 'default' && req.params.id !== 'default') throw new KratosError(404, undefined, 'no such identity schema');
    return IDENTITY_SCHEMA;
  });
}

/** An expired flow: a fresh one replaces it (410 with use_flow_id, or a redirect for plain browsers). */
async function expired(ctx: FlowContext, handler: FlowKindHandler, flow: FlowRow): Promise<KratosError> {
  let replacement: FlowRow | undefined;
  try {
    replacement = await handler.create(ctx, flow.type);
  } catch {
    replacement = undefined;
  }
  const minutes = Math.max(1, Math.round((Date.now() - flow.expires_at.getTime()) / 60000));
  return new KratosError(410, 'self_service_flow_expired', `Your interaction expired, please fill out the form again. (${minutes} minutes ago)`, {
    ...(replacement ? { useFlowId: replacement.id, redirectBrowserTo: uiUrl(ctx.req, flow.kind, replacement.id) } : {}),
    details: { since: flow.expires_at.toISOString() },
  });
}

/** Routes a browser reaches by navigating or posting a form (the rest are only ever called by code). */
function isBrowserNavigation(req: FastifyRequest): boolean {
  const route = req.routeOptions.url ?? '';
  if (req.method === 'GET') return route.endsWith('/browser') || route.endsWith('/self-service/logout');
  return req.method === 'POST' && /\/self-service\/[a-z]+$/.test(route);
}

/** Errors that send a browser somewhere else instead of showing an error page. */
const REDIRECTING = new Set(['browser_location_change_required', 'session_refresh_required', 'session_aal2_required', 'self_service_flow_expired']);

/**
 * JSON clients get the Kratos error body. A plain browser navigation or form post is sent on: to the
 * redirect the error names, home when already signed in, or to the console's error page with the error
 * stored under an id (GET /self-service/errors?id=…).
 */
async function answerError(deps: IdentityDeps, req: FastifyRequest, reply: FastifyReply, error: KratosError): Promise<FastifyReply> {
  if (wantsJson(req) || !isBrowserNavigation(req)) return reply.status(error.code).type('application/json; charset=utf-8').send(error.toBody());
  const target = error.extra.redirectBrowserTo;
  if (target && error.id && REDIRECTING.has(error.id)) return redirect(reply, target);
  if (error.id === 'session_already_available') return redirect(reply, publicPath(req, '/'));
  if (error.id === 'session_inactive' && req.url.includes('/settings/browser')) {
    return redirect(reply, `${publicPath(req, UI_PATHS.login)}?return_to=${encodeURIComponent(publicPath(req, UI_PATHS.settings))}`);
  }
  const { rows } = await deps.pool.query<{ id: string }>('INSERT INTO selfservice_errors (error) VALUES ($1) RETURNING id', [JSON.stringify(error.toBody().error)]);
  return redirect(reply, `${publicPath(req, UI_PATHS.error)}?id=${rows[0]?.id ?? ''}`);
}
