import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { Logger } from '../platform/logger';
import { PgrstError, fromDatabaseError, functionNotFound, invalidBody, noRelationship, tableNotFound } from './errors';
import { checkProfile, negotiate, parsePrefer } from './headers';
import { loneSurrogateProblem } from './body-text';
import { Operations, type AccessNeed, type DbRequest, type Outcome } from './operations';
import { parseQuery, splitQueryString, type QueryParam } from './parse/query';
import type { SelectItem } from './ast';
import type { Actor, RbacObject } from './registry';
import type { RelationInfo, Schema } from './schema';
import { resolveJoin } from './sql/joins';
import { isJsonRow } from './sql/write';

export interface PostgrestOptions {
  pool: pg.Pool;
  schema: Schema;
  log: Logger;
  /**
   * Access control (spec §6). `authenticate` runs first (401 before anything about the registry is
   * revealed); `authorize` then judges every (object, action) the parsed request needs (403). Without
   * them (the conformance fixture) every request is allowed.
   */
  authenticate?: (req: FastifyRequest) => Promise<Actor>;
  authorize?: (actor: Actor, needs: readonly AccessNeed[]) => void;
  /**
   * Relations made at run time (a view's table): consulted only for names the static schema lacks. They
   * have no relationships (nothing embeds them) and the same RBAC, filters, order and paging as any other.
   */
  dynamicRelation?: (name: string) => Promise<RelationInfo | undefined>;
  /**
   * For reads of a row-scoped relation (RelationDef.rowScope): the ids of the rows the caller may read,
   * or undefined when they may read all of them.
   */
  rowScope?: (actor: Actor, kind: NonNullable<RelationInfo['def']['rowScope']>) => Promise<readonly string[] | undefined>;
  /** Whether the caller may read an RBAC object (RelationDef.rowObjects hides the rows of objects it may not). */
  mayRead?: (actor: Actor, object: RbacObject) => boolean;
  /** Per-statement time limit; default STATEMENT_TIMEOUT_MS. */
  statementTimeoutMs?: number;
}

const BODY_LIMIT = 4 * 1024 * 1024;
const JSON_TYPES = ['application/json', 'application/vnd.pgrst.object+json', 'application/vnd.pgrst.object'];

function rawQuery(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

/** The spec §6 action each method needs on the relation. */
const ACTION_OF = { GET: 'read', HEAD: 'read', POST: 'create', PATCH: 'update', DELETE: 'delete' } as const;

function dbMethod(method: string): DbRequest['method'] | undefined {
  return method === 'GET' || method === 'HEAD' || method === 'POST' || method === 'PATCH' || method === 'DELETE' ? method : undefined;
}

function send(reply: FastifyReply, outcome: Outcome, singular: boolean): FastifyReply {
  void reply.status(outcome.status).headers(outcome.headers);
  if (outcome.body === undefined) return reply.send();
  return reply.type(singular ? 'application/vnd.pgrst.object+json; charset=utf-8' : 'application/json; charset=utf-8').send(outcome.body);
}

/**
 * /api/db: PostgREST's query language over the registered relations and functions. Registered inside
 * its own fastify scope so it can answer PostgREST-shaped errors and parse empty JSON bodies (rpc).
 */
export async function postgrestRoutes(app: FastifyInstance, options: PostgrestOptions): Promise<void> {
  const { schema, log } = options;
  const operations = new Operations(options.pool, schema, options.statementTimeoutMs);

  // Only JSON bodies: PostgREST answers 415 for others (csv and form bodies are not supported here).
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(JSON_TYPES, { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(invalidBody('Empty or invalid json'), undefined);
    }
    // A lone surrogate is refused here, naming its field, before any statement (every relation and rpc).
    const problem = loneSurrogateProblem(parsed);
    done(problem ? invalidBody(problem) : null, problem ? undefined : parsed);
  });

  app.setErrorHandler((error: FastifyError | PgrstError, req, reply) => {
    const mapped = mapError(error);
    if (mapped.internal) log.error({ err: error, url: req.url.split('?')[0], reqId: req.id }, '/api/db request failed');
    // PostgREST names the error code in Proxy-Status too, for proxies and logs that do not read bodies.
    void reply.status(mapped.error.status).header('proxy-status', `PostgREST; error=${mapped.error.code}`).type('application/json; charset=utf-8').send(mapped.error.toBody());
  });

  const parseRequest = (req: FastifyRequest, actor: Actor | undefined, params: QueryParam[], method: DbRequest['method'], target: AccessNeed, parent: string | undefined, shownAs: string): DbRequest => {
    checkProfile(req.headers['accept-profile']);
    checkProfile(req.headers['content-profile']);
    const media = negotiate(req.headers.accept);
    const query = parseQuery(params);
    const prefs = parsePrefer(req.headers.prefer);
    const access = accessNeeds(schema, target, parent, query.select, shownAs);
    // An upsert that merges duplicates updates existing rows: it needs update as well as create.
    if (target.action === 'create' && prefs.resolution === 'merge-duplicates') access.push({ object: target.object, action: 'update' });
    // Access control (spec §6) is one check here, before any SQL: every entry is an (RBAC object,
    // action) pair that the caller's roles and permissions must allow.
    if (actor) options.authorize?.(actor, access);
    return {
      method,
      query,
      access,
      prefs,
      media,
      range: { header: req.headers.range, unit: req.headers['range-unit'] },
      body: req.body,
      actor,
    };
  };

  const config = { access: 'self-checked' as const };

  app.route<{ Params: { relation: string } }>({
    method: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'PUT'],
    url: '/:relation',
    config,
    handler: async (req, reply) => {
      const actor = options.authenticate ? await options.authenticate(req) : undefined;
      const info = schema.relations.get(req.params.relation) ?? (await options.dynamicRelation?.(req.params.relation));
      if (!info) throw tableNotFound(req.params.relation);
      const method = dbMethod(req.method);
      if (!method) throw new PgrstError(405, 'PGRST117', `Unsupported HTTP method: ${req.method}`);
      const action = ACTION_OF[method];
      const object = action === 'read' ? info.def.rbac : (info.def.writeRbac ?? info.def.rbac);
      const request = parseRequest(req, actor, splitQueryString(rawQuery(req.url)), method, {
          object,
          action,
          ...(info.def.accessTarget ? { target: info.def.accessTarget } : {}),
          ...(info.def.rowScope && action === 'read' ? { scoped: info.def.rowScope } : {}),
        }, info.def.name, info.def.name);
      let outcome: Outcome;
      if (method === 'GET' || method === 'HEAD') {
        if (actor && info.def.rowScope && options.rowScope) {
          const ids = await options.rowScope(actor, info.def.rowScope);
          if (ids) request.rowIds = ids;
        }
        const rowObjects = info.def.rowObjects;
        if (actor && rowObjects && options.mayRead) {
          request.hiddenValues = Object.entries(rowObjects.objects).filter(([, object]) => !options.mayRead?.(actor, object)).map(([value]) => value);
        }
        outcome = await operations.read(info, request);
      }
      else if (method === 'POST') outcome = await operations.insert(info, request);
      else if (method === 'PATCH') outcome = await operations.update(info, request);
      else outcome = await operations.remove(info, request);
      return send(reply, outcome, request.media.singular);
    },
  });

  app.route<{ Params: { fn: string } }>({
    method: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'PUT'],
    url: '/rpc/:fn',
    config,
    handler: async (req, reply) => {
      const actor = options.authenticate ? await options.authenticate(req) : undefined;
      const method = dbMethod(req.method);
      if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') throw new PgrstError(405, 'PGRST101', `Cannot use the ${req.method} method on RPC`);
      const fn = schema.functions.get(req.params.fn);
      const all = splitQueryString(rawQuery(req.url));
      let args: Record<string, unknown>;
      let rest: QueryParam[];
      if (method === 'POST') {
        const body = req.body === undefined ? {} : req.body;
        if (!isJsonRow(body)) throw invalidBody('The arguments of a function call must be a JSON object');
        args = body;
        rest = all;
      } else {
        // GET: parameters named like the function's arguments are arguments; the rest filter the result.
        const names = new Set(fn?.args.map((arg) => arg.name) ?? []);
        args = Object.fromEntries(all.filter((p) => names.has(p.key)).map((p) => [p.key, p.value]));
        rest = all.filter((p) => !names.has(p.key));
      }
      const argNames = Object.keys(args);
      if (!fn) throw functionNotFound(req.params.fn, argNames);
      const unknown = argNames.filter((name) => !fn.args.some((arg) => arg.name === name));
      const missing = fn.args.filter((arg) => !arg.hasDefault && !Object.hasOwn(args, arg.name));
      if (unknown.length > 0 || missing.length > 0) throw functionNotFound(fn.def.name, argNames);
      const request = parseRequest(req, actor, rest, method, { object: fn.def.rbac, action: method === 'POST' && fn.def.action === 'write' ? 'update' : 'read' }, fn.relation?.def.name, fn.def.name);
      return send(reply, await operations.rpc(fn, request, args), request.media.singular);
    },
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/',
    config,
    handler: async () => {
      throw new PgrstError(404, 'PGRST126', 'Root endpoint metadata is disabled', null, 'The API is described at /api/openapi.json.');
    },
  });

  app.route({
    method: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'PUT'],
    url: '/*',
    config,
    handler: async () => {
      throw new PgrstError(404, 'PGRST125', 'Invalid path specified in request URL');
    },
  });
}

/** What a request needs: the target itself, then read on every embedded relation. */
export function accessNeeds(schema: Schema, target: AccessNeed, parent: string | undefined, select: readonly SelectItem[], shownAs = parent ?? 'result'): AccessNeed[] {
  const reads = embeddedReads(schema, parent, select, shownAs).filter((need) => need.object !== target.object || need.action !== target.action);
  return [target, ...reads];
}

/**
 * Embedded relations are read too: read on each embed's RBAC object, resolved through the same
 * relationships the planner uses (an embed that does not resolve fails here with its PGRST error).
 */
function embeddedReads(schema: Schema, parent: string | undefined, select: readonly SelectItem[], shownAs = parent ?? 'result'): AccessNeed[] {
  const needs: AccessNeed[] = [];
  const add = (need: AccessNeed) => {
    if (!needs.some((n) => n.object === need.object)) needs.push(need);
  };
  for (const item of select) {
    if (item.kind !== 'embed') continue;
    if (parent === undefined) throw noRelationship(shownAs, item.relation, item.hint);
    const target = schema.relations.get(resolveJoin(schema, parent, item).target);
    if (!target) continue;
    add({ object: target.def.rbac, action: 'read' });
    for (const need of embeddedReads(schema, target.def.name, item.select)) add(need);
  }
  return needs;
}

function mapError(error: FastifyError | PgrstError): { error: PgrstError; internal: boolean } {
  if (error instanceof PgrstError) return { error, internal: false };
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { error: new PgrstError(413, 'PGRST102', `The request body is larger than ${BODY_LIMIT} bytes`), internal: false };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { error: new PgrstError(415, 'PGRST107', 'None of these media types are available: the body must be application/json'), internal: false };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { error: invalidBody('Empty or invalid json'), internal: false };
    default:
      break;
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 && !('severity' in error)) {
    return { error: new PgrstError(error.statusCode, 'PGRST000', 'the request could not be handled'), internal: false };
  }
  return fromDatabaseError(error);
}
