import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';

/** Security headers on every answer; the CSP allows only this origin (the SPA loads nothing from elsewhere). */
export function securityHeaders(config: Config) {
  const https = config.publicUrl.startsWith('https://');
  return async (_req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'SAMEORIGIN');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
    reply.header(
      'content-security-policy',
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'self'; base-uri 'self'; form-action 'self'",
    );
    if (https) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    return payload;
  };
}
