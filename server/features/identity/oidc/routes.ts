import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import { AppError } from '../../../platform/http/errors';
import { route } from '../../../platform/http/route';
import { processKeyring } from '../../../platform/secrets';
import { clearSessionCookie, cookieOf, SESSION_COOKIE, setSessionCookie } from '../cookies';
import { safeEqual, sha256 } from '../../../platform/crypto';
import { baseUrl, clientOf, wantsJson, type IdentityDeps } from '../kratos/context';
import { createSession, revokeByToken, revokeSession, sessionByToken, stepUp, type IssuedSession } from '../sessions';
import { sendFailure } from './failure';
import { claimsOf, findOrCreatePerson, organizationsOf, syncOrganizations } from './people';
import { membershipsOf } from '../organizations';
import { OidcError, type OidcProvider } from './provider';
import type { ClaimRefresher } from './refresh';
import { clearStateCookie, newSignInState, OIDC_PATH, readSignInState, safeReturnTo, setStateCookie } from './state';

/** spec §2: where the browser lands after the callback; it routes on to return_to. */
export const AUTH_STATE_CHECKER = '/auth-state-checker';

const loginQuery = z.object({ return_to: z.string().max(2000).optional(), refresh: z.enum(['true', 'false']).optional() });
const callbackQuery = z.object({
  code: z.string().max(4000).optional(),
  state: z.string().max(500).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
});

/**
 * The OIDC sign-in (docs/HOSTED.md): authorization code + PKCE. The callback starts the same session the
 * built-in sign-in starts (sessions.ts), so /whoami, RBAC and every route work unchanged.
 */
export function oidcRoutes(app: FastifyInstance, deps: IdentityDeps, provider: OidcProvider, refresher: ClaimRefresher): void {
  const { pool } = deps;
  const redirectUriOf = (base: string) => `${base}${OIDC_PATH}/callback`;

  route(app, {
    method: 'GET',
    url: `${OIDC_PATH}/login`,
    summary: 'Starts a sign-in at the OpenID Connect provider (redirect), coming back to return_to',
    tags: ['auth'],
    access: 'public',
    query: loginQuery,
    handler: async ({ req, reply, query }) => {
      const state = newSignInState(safeReturnTo(query.return_to), redirectUriOf(baseUrl(req)), query.refresh === 'true');
      let location: string;
      try {
        location = await provider.authorizationUrl(state);
      } catch (error) {
        if (error instanceof OidcError) return sendFailure(req, reply, error);
        throw error;
      }
      setStateCookie(req, reply, processKeyring(), state);
      return reply.header('cache-control', 'no-store').redirect(location, 302);
    },
  });

  route(app, {
    method: 'GET',
    url: `${OIDC_PATH}/callback`,
    summary: "The provider's redirect back: checks state and ID token, signs the person in, goes to /auth-state-checker",
    tags: ['auth'],
    access: 'public',
    query: callbackQuery,
    handler: async ({ req, reply, query }) => {
      try {
        const keyring = processKeyring();
        const state = readSignInState(req, keyring, query.state);
        // The state matched: this browser's sign-in is over either way.
        clearStateCookie(req, reply);
        if (query.error) throw new OidcError(`the sign-in provider answered ${query.error}${query.error_description ? `: ${query.error_description}` : ''}`);
        if (!query.code) throw new OidcError('the sign-in provider sent no authorization code');
        const tokens = await provider.exchange({ code: query.code, redirectUri: state.redirectUri, verifier: state.verifier });
        const payload = await provider.verifyIdToken(tokens.id_token, state.nonce, state.refresh ? state.startedAt : undefined);
        const claims = claimsOf(payload);
        const person = await findOrCreatePerson(pool, provider.config.issuer, claims);
        const organizations = organizationsOf(payload[provider.config.orgClaim]);
        await syncOrganizations(pool, person.id, organizations);
        const issued = await startSession(pool, req, { personId: person.id, refresh: state.refresh });
        const { rows: kept } = await pool.query<{ inserted: boolean }>(
          `INSERT INTO oidc_sessions (session_id, issuer, subject, id_token, refresh_token, organizations) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (session_id) DO UPDATE SET id_token = EXCLUDED.id_token, refresh_token = coalesce(EXCLUDED.refresh_token, oidc_sessions.refresh_token), organizations = EXCLUDED.organizations
           RETURNING (xmax = 0) AS inserted`,
          [
            issued.session.id,
            provider.config.issuer,
            claims.subject,
            tokens.id_token,
            tokens.refresh_token ? keyring.encrypt(tokens.refresh_token) : null,
            organizations.map((organization) => organization.externalId),
          ],
        );
        // A new row's created_at says when the claim was read; a stepped-up session's claim was read now.
        if (kept[0] && !kept[0].inserted) refresher.markRead(issued.session.id);
        deps.auth.forget(req);
        setSessionCookie(req, reply, issued.token);
        req.log.info({ person: person.id, created: person.created, organizations: organizations.length }, 'signed in through the OIDC provider');
        return reply.header('cache-control', 'no-store').redirect(`${AUTH_STATE_CHECKER}?return_to=${encodeURIComponent(state.returnTo)}`, 302);
      } catch (error) {
        if (!(error instanceof OidcError)) throw error;
        req.log.warn({ reason: error.message }, 'OIDC sign-in refused');
        return sendFailure(req, reply, error);
      }
    },
  });

  route(app, {
    method: 'GET',
    url: `${OIDC_PATH}/logout`,
    summary: "Ends this browser's session (token from /api/.ory/self-service/logout/browser); then the provider's end_session_endpoint, or /login",
    tags: ['auth'],
    access: 'public',
    query: z.object({ token: z.string().max(200).optional() }),
    handler: async ({ req, reply, query }) => {
      const auth = await deps.auth.resolve(req);
      const credential = auth.credential;
      // As the built-in logout: only this browser's own cookie session, with the token derived from it, so
      // another site cannot sign the person out with a link.
      if (!query.token || credential?.kind !== 'session' || credential.source !== 'cookie' || !safeEqual(oidcLogoutToken(credential.token), query.token)) {
        return reply.status(401).send({ error: 'unauthorized', message: 'the logout token does not belong to the session of this browser' });
      }
      let idToken: string | undefined;
      const session = await sessionByToken(pool, credential.token);
      if (session) {
        const { rows } = await pool.query<{ id_token: string }>('SELECT id_token FROM oidc_sessions WHERE session_id = $1', [session.id]);
        idToken = rows[0]?.id_token;
        await revokeSession(pool, session.id);
      }
      deps.auth.forget(req);
      clearSessionCookie(req, reply);
      const next = (await provider.endSessionUrl(idToken, `${baseUrl(req)}/login`)) ?? '/login';
      reply.header('cache-control', 'no-store');
      // fetch (the console's sign-out) reads where to go; a plain navigation is sent there.
      return wantsJson(req) ? reply.send({ redirect_browser_to: next }) : reply.redirect(next, 302);
    },
  });

  // The console's Sign out asks the Kratos logout for its URL: in oidc mode that is the route above.
  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'GET' || req.url.split('?', 1)[0] !== '/api/.ory/self-service/logout/browser') return;
    const auth = await deps.auth.resolve(req);
    if (auth.credential?.kind !== 'session' || auth.credential.source !== 'cookie' || (!auth.actor && !auth.pending)) return;
    const token = oidcLogoutToken(auth.credential.token);
    return reply.type('application/json; charset=utf-8').send({ logout_url: `${baseUrl(req)}${OIDC_PATH}/logout?token=${token}`, logout_token: token });
  });
}

/**
 * The organization claim read again with the refresh token (refresh.ts): POST /api/auth/oidc/refresh now,
 * and after whoami when the claim is older than 15 minutes (in the background: whoami never waits).
 */
export function refreshRoutes(app: FastifyInstance, deps: IdentityDeps, refresher: ClaimRefresher): void {
  route(app, {
    method: 'POST',
    url: `${OIDC_PATH}/refresh`,
    summary: "Reads the person's organizations again from the sign-in provider (the session's refresh token); answers whoami's organizations",
    tags: ['auth'],
    access: 'authenticated',
    handler: async ({ req, reply }) => {
      const actor = req.actor;
      if (!actor) throw new AppError('unauthorized', 'sign in first');
      if (!actor.session) throw new AppError('forbidden', "the organizations are read again for a signed-in session, not for an API token");
      await refresher.refresh(actor.session.id, actor.id);
      // The memberships changed: the session's organization is resolved again (authenticate.ts).
      deps.auth.forget(req);
      const session = (await deps.auth.resolve(req)).actor?.session;
      const organizations = await membershipsOf(deps.pool, actor.id);
      reply.header('cache-control', 'no-store');
      return { organization: organizations.find((organization) => organization.id === session?.organizationId) ?? null, organizations };
    },
  });

  app.addHook('onResponse', async (req, reply) => {
    if (req.method !== 'GET' || req.routeOptions.url !== '/api/auth/whoami' || reply.statusCode !== 200) return;
    const actor = (await deps.auth.resolve(req)).actor;
    if (actor?.session) refresher.refreshIfStale(actor.session.id, actor.id, req.log);
  });
}

/**
 * The built-in session for the person (sessions.ts). A confirmation (`refresh`, spec §8) of the person this
 * browser is signed in as steps that session up (authenticated now, new token); otherwise a new session
 * starts and the one the browser still had (another person, or an older sign-in) ends.
 */
async function startSession(pool: pg.Pool, req: FastifyRequest, input: { personId: string; refresh: boolean }): Promise<IssuedSession> {
  const previous = cookieOf(req, SESSION_COOKIE);
  const current = previous ? await sessionByToken(pool, previous) : undefined;
  if (input.refresh && current?.identity_id === input.personId) return stepUp(pool, current.id, { method: 'oidc', aal: 'aal1' });
  if (previous) await revokeByToken(pool, previous);
  return createSession(pool, input.personId, { method: 'oidc', aal: 'aal1' }, clientOf(req));
}

/** Derived from the session token, so it needs no table and dies with the session. */
function oidcLogoutToken(sessionToken: string): string {
  return sha256(`oidc-logout:${sha256(sessionToken)}`);
}

/**
 * Built-in ways in that a console in oidc mode refuses, the provider being the only one: new login flows
 * (except the second step, aal2, of a linked account with a second factor), registration and recovery.
 */
function isBuiltinSignIn(url: string): boolean {
  const [path = '', search = ''] = url.split('?', 2);
  if (/^\/api\/\.ory\/self-service\/(registration|recovery)(\/|$)/.test(path)) return true;
  return /^\/api\/\.ory\/self-service\/login\/(browser|api)$/.test(path) && new URLSearchParams(search).get('aal') !== 'aal2';
}

export function refuseBuiltinSignIn(app: FastifyInstance, provider: OidcProvider): void {
  app.addHook('onRequest', async (req, reply) => {
    if (!isBuiltinSignIn(req.url)) return;
    return reply
      .status(403)
      .type('application/json; charset=utf-8')
      .send({ error: 'forbidden', message: `this console signs people in through ${provider.issuerHost}: use ${OIDC_PATH}/login` });
  });
}

/** GET /api/auth/mode: which sign-in the web shows (the password form, or the provider's button). */
export function authModeRoute(app: FastifyInstance, provider: OidcProvider | undefined): void {
  route(app, {
    method: 'GET',
    url: '/api/auth/mode',
    summary: 'How people sign in here: builtin accounts, or an OpenID Connect provider',
    tags: ['auth'],
    access: 'public',
    handler: () =>
      provider ? { mode: 'oidc', issuer: provider.config.issuer, issuer_host: provider.issuerHost, login_url: `${OIDC_PATH}/login` } : { mode: 'builtin' },
  });
}
