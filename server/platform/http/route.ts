import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RouteAccess } from '../auth/types';
import { ValidationError, type Issue } from './errors';
import { zodIssues } from './validation';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDoc {
  method: HttpMethod;
  url: string;
  summary: string;
  access: RouteAccess;
  tags: string[];
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
}

export interface RouteContext<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  req: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteDef<P extends z.ZodType | undefined, Q extends z.ZodType | undefined, B extends z.ZodType | undefined> {
  method: HttpMethod;
  url: string;
  summary: string;
  /** Who may call it (spec §6); checked before the handler runs, after the actor is known. */
  access: RouteAccess;
  tags?: string[];
  params?: P;
  query?: Q;
  body?: B;
  /** Documents the answer in /api/openapi.json; the handler's presenter shapes it. */
  response?: z.ZodType;
  bodyLimit?: number;
  /**
   * A self-checked route's check of its caller, run before the input is judged: an anonymous or refused
   * caller gets 401/403, never a 400 about a body it may not send.
   */
  before?: (req: FastifyRequest) => Promise<unknown>;
  handler: (ctx: RouteContext<P, Q, B>) => unknown;
}

function parsePart(schema: z.ZodType | undefined, value: unknown, prefix: string, issues: Issue[]): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value ?? (prefix === 'body' ? undefined : {}));
  if (result.success) return result.data;
  issues.push(...zodIssues(result.error, prefix));
  return undefined;
}

/**
 * Declares a route: its input schemas are checked together (every issue of params, query and body in one
 * 400), then the handler does only the feature's work. The schemas also feed /api/openapi.json.
 */
export function route<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  app: FastifyInstance,
  def: RouteDef<P, Q, B>,
): void {
  const doc: RouteDoc = {
    method: def.method,
    url: def.url,
    summary: def.summary,
    access: def.access,
    tags: def.tags ?? [],
    ...(def.params ? { params: def.params } : {}),
    ...(def.query ? { query: def.query } : {}),
    ...(def.body ? { body: def.body } : {}),
    ...(def.response ? { response: def.response } : {}),
  };
  app.route({
    method: def.method,
    url: def.url,
    config: { doc, access: def.access },
    ...(def.bodyLimit ? { bodyLimit: def.bodyLimit } : {}),
    handler: async (req, reply) => {
      if (def.before) await def.before(req);
      const issues: Issue[] = [];
      const params = parsePart(def.params, req.params, 'params', issues) as Out<P>;
      const query = parsePart(def.query, req.query, 'query', issues) as Out<Q>;
      const body = parsePart(def.body, req.body, 'body', issues) as Out<B>;
      if (issues.length > 0) throw new ValidationError(issues);
      return def.handler({ params, query, body, req, reply });
    },
  });
}
