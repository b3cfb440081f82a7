import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Keyring } from '../../../platform/secrets/keyring';
import { cookieOf, secureCookie } from '../cookies';
import { safeEqual } from '../../../platform/crypto';
import { OidcError } from './provider';

/**
 * What a sign-in through the provider remembers between the login redirect and the callback: state, nonce,
 * PKCE verifier, where to go afterwards and the redirect URI used. It lives in one short-lived cookie,
 * encrypted and authenticated with the secrets keyring (AES-256-GCM), so it needs no table, every
 * instance sharing the key reads it, and the browser can neither read the verifier nor change a field.
 */

export const STATE_COOKIE = 'watchkeeper_oidc';
export const OIDC_PATH = '/api/auth/oidc';
/** Ten minutes to get through the provider's pages. */
const STATE_LIFESPAN_S = 600;

const stateSchema = z.object({
  state: z.string(),
  nonce: z.string(),
  verifier: z.string(),
  returnTo: z.string(),
  redirectUri: z.string(),
  /** A re-authentication of the signed-in person (a privileged change): the provider must sign them in again. */
  refresh: z.boolean().default(false),
  startedAt: z.number().default(0),
  expiresAt: z.number(),
});
export type SignInState = z.infer<typeof stateSchema>;

const random = () => randomBytes(32).toString('base64url');

export function newSignInState(returnTo: string, redirectUri: string, refresh = false, now = Date.now()): SignInState {
  return { state: random(), nonce: random(), verifier: random(), returnTo, redirectUri, refresh, startedAt: now, expiresAt: now + STATE_LIFESPAN_S * 1000 };
}

/** SameSite=Lax: the provider's redirect back is a top-level GET, which carries it; a cross-site POST does not. */
export function setStateCookie(req: FastifyRequest, reply: FastifyReply, keyring: Keyring, state: SignInState): void {
  void reply.setCookie(STATE_COOKIE, keyring.encrypt(JSON.stringify(state)), { path: OIDC_PATH, httpOnly: true, sameSite: 'lax', secure: secureCookie(req), maxAge: STATE_LIFESPAN_S });
}

export function clearStateCookie(req: FastifyRequest, reply: FastifyReply): void {
  void reply.clearCookie(STATE_COOKIE, { path: OIDC_PATH, httpOnly: true, sameSite: 'lax', secure: secureCookie(req) });
}

/** The sign-in this callback belongs to; any mismatch is the person's 401, never a session. */
export function readSignInState(req: FastifyRequest, keyring: Keyring, returnedState: string | undefined, now = Date.now()): SignInState {
  const cookie = cookieOf(req, STATE_COOKIE);
  if (!cookie) throw new OidcError('this browser has no sign-in in progress (it expired, or cookies are blocked): sign in again');
  let parsed: SignInState;
  try {
    const result = stateSchema.safeParse(JSON.parse(keyring.decrypt(cookie)));
    if (!result.success) throw new Error('shape');
    parsed = result.data;
  } catch {
    throw new OidcError('the sign-in cookie is damaged or was made with another key: sign in again');
  }
  if (parsed.expiresAt < now) throw new OidcError('the sign-in took longer than 10 minutes: sign in again');
  if (!returnedState || !safeEqual(returnedState, parsed.state)) {
    throw new OidcError('the state the provider returned does not match the sign-in started in this browser: sign in again');
  }
  return parsed;
}

/** A return_to stays on this console: a path, never another origin ("//host" or "/\host"). */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  return value;
}
