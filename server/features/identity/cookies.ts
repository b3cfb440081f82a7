import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../platform/config';
import { SESSION_LIFESPAN_MS } from './sessions';

declare module 'fastify' {
  interface FastifyRequest {
    /** Whether the console's public URL is https (cookiePolicy): then every cookie it sets is Secure. */
    publicUrlIsHttps: boolean;
  }
}

export const SESSION_COOKIE = 'watchkeeper_session';
export const CSRF_COOKIE = 'watchkeeper_csrf';

/** Binds the cookie policy to an app: cookies are Secure under an https PUBLIC_URL, whatever the request. */
export function cookiePolicy(app: FastifyInstance, config: Pick<Config, 'publicUrl'>): void {
  app.decorateRequest('publicUrlIsHttps', config.publicUrl.startsWith('https://'));
}

/**
 * A cookie is Secure when the public URL is https, or this request came over TLS (to this server, or to a
 * trusted proxy that says so in X-Forwarded-Proto: TRUSTED_PROXIES). Only the automatic same-port http of a
 * default install (public URL http://) sets cookies without it, as the browser would drop them otherwise.
 */
export function secureCookie(req: FastifyRequest): boolean {
  return req.publicUrlIsHttps === true || req.protocol === 'https';
}

const secure = secureCookie;

/** httpOnly and SameSite=Lax: scripts cannot read it and other sites cannot post with it. */
export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string): void {
  void reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: secure(req), maxAge: SESSION_LIFESPAN_MS / 1000 });
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: secure(req) });
}

export function setCsrfCookie(req: FastifyRequest, reply: FastifyReply, token: string): void {
  void reply.setCookie(CSRF_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: secure(req), maxAge: 365 * 24 * 60 * 60 });
}

export function cookieOf(req: FastifyRequest, name: string): string | undefined {
  const value = req.cookies[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
