import type { FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { Config } from '../../../platform/config';
import { isRecord } from '../../../platform/errors';
import type { Logger } from '../../../platform/logger';
import type { IdentityAuthenticator } from '../authenticate';
import type { Mailer } from '../mailer';
import type { RateLimiter } from '../rate-limit';
import { returnToForbidden } from './errors';

/** What every self-service handler works with. */
export interface IdentityDeps {
  pool: pg.Pool;
  config: Config;
  log: Logger;
  auth: IdentityAuthenticator;
  mailer: Mailer;
  limiter: RateLimiter;
}

/** Where the console's own pages live (spec §2), which flows redirect browsers to. */
export const UI_PATHS = {
  login: '/login',
  registration: '/registration',
  recovery: '/recovery',
  verification: '/verification',
  settings: '/profile-settings',
  error: '/error',
} as const;

export const ORY_PREFIX = '/api/.ory';

/** This server as the browser reached it (behind a proxy: X-Forwarded-Proto and -Host). */
export function baseUrl(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

export function publicPath(req: FastifyRequest, path: string): string {
  return `${baseUrl(req)}${path}`;
}

/** Origins a return_to may point at: this server as reached, and PUBLIC_URL. */
function allowedOrigins(req: FastifyRequest, config: Config): Set<string> {
  const origins = new Set([new URL(baseUrl(req)).origin]);
  try {
    origins.add(new URL(config.publicUrl).origin);
  } catch {
    // PUBLIC_URL is validated at start; nothing to add if it cannot be parsed.
  }
  return origins;
}

/**
 * Spec §8 self_service_flow_return_to_forbidden: a return_to must stay on this console. Relative paths
 * are made absolute; anything on another origin is refused.
 */
export function checkReturnTo(req: FastifyRequest, config: Config, raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const value = raw.trim();
  if (value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')) return `${baseUrl(req)}${value}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw returnToForbidden();
  }
  if (!allowedOrigins(req, config).has(url.origin)) throw returnToForbidden();
  return url.toString();
}

/**
 * Kratos answers JSON to API clients and scripts (fetch, @ory/client-fetch, curl), and redirects what a
 * browser does by itself: navigations and form posts, which always accept text/html.
 */
export function wantsJson(req: FastifyRequest): boolean {
  const accept = req.headers.accept ?? '';
  const type = req.headers['content-type'] ?? '';
  if (accept.includes('application/json') || type.includes('application/json')) return true;
  return !accept.includes('text/html');
}

export function clientOf(req: FastifyRequest): { ip: string; userAgent: string | undefined } {
  return { ip: req.ip, userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'].slice(0, 512) : undefined };
}

export function queryString(req: FastifyRequest, key: string): string | undefined {
  const query = req.query;
  if (!isRecord(query)) return undefined;
  const value = query[key];
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

export function queryFlag(req: FastifyRequest, key: string): boolean {
  const value = queryString(req, key);
  return value === 'true' || value === '1' || value === '';
}

/**
 * A submitted body as a flat map: JSON bodies nest (`traits.name.first`), form bodies use dotted names.
 * Both read the same through `field`.
 */
export type Body = Record<string, unknown>;

export function bodyOf(req: FastifyRequest): Body {
  return isRecord(req.body) ? req.body : {};
}

export function field(body: Body, path: string): unknown {
  if (Object.hasOwn(body, path)) return body[path];
  let current: unknown = body;
  for (const part of path.split('.')) {
    if (!isRecord(current) || !Object.hasOwn(current, part)) return undefined;
    current = current[part];
  }
  return current;
}

export function stringField(body: Body, path: string): string | undefined {
  const value = field(body, path);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** Submit buttons send 'true' in forms and true in JSON. */
export function truthyField(body: Body, path: string): boolean {
  const value = field(body, path);
  return value === true || value === 'true' || value === '1' || value === 'on';
}

export function redirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.status(303).header('location', location).send();
}
