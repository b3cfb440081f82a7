import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_LIFESPAN_MS } from './sessions';

export const SESSION_COOKIE = 'watchkeeper_session';
export const CSRF_COOKIE = 'watchkeeper_csrf';

function secure(req: FastifyRequest): boolean {
  return req.protocol === 'https';
}

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
