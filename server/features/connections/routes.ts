import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type pg from 'pg';
import { connectionProblems, parseValueReference, type ConnectionInput } from '../../../common/connections';
import type { AppContext } from '../../platform/context';
import { messageOf } from '../../platform/errors';
import { AppError, ValidationError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { inTransaction } from '../../platform/jobs/db';
import { deleteConsoleRow } from '../../platform/spec-rows';
import { testConnection } from '../../platform/connections/testers';
import { processKeyring, secretStore } from '../../platform/secrets';
import { resolveReference, revealConnection } from '../../platform/secrets/resolve';
import type { StoredConnection } from '../../platform/secrets/store';
import { saveSecret } from './kinds';
import { connectionBody, connectionFromBody, connectionPatchBody, forValidation, saveConnection, shownConnection, storedConnection, withDefaults, type Problem } from './service';
import { resourceName, resourceNamespace } from '../../platform/names';

/**
 * References the console or API sends must point at something: `secret://name/key` and
 * `configmap://name/key` are read now, and each one that cannot be is a problem of its field. (A file may
 * name a secret applied after it: documents are not held to this.)
 */
async function referenceProblems(pool: pg.Pool, input: ConnectionInput): Promise<Problem[]> {
  const problems: Problem[] = [];
  const store = secretStore(pool);
  const fields: Array<[string, string | undefined]> = [
    ['url', input.url],
    ['username', input.username],
    ['password', input.password],
    ['certificate', input.certificate],
    ...Object.entries(input.properties ?? {}).map(([key, value]): [string, string] => [`properties.${key}`, value]),
  ];
  for (const [path, value] of fields) {
    const ref = value ? parseValueReference(value) : undefined;
    if (!ref) continue;
    try {
      await resolveReference(store, input.namespace, ref, path);
    } catch (error) {
      problems.push({ path, message: messageOf(error).replace(`${path}: `, '') });
    }
  }
  return problems;
}

/** The limit spec §2 gives a connection test. */
export const TEST_TIMEOUT_MS = 10_000;

const uuid = z.string().uuid('must be a UUID');
const invalid = (problems: Problem[]) => new ValidationError(problems.map((problem) => ({ path: `body.${problem.path}`, message: problem.message })));

/**
 * /api/connections (create, change, delete; reads are /api/db/connections), POST /api/connection/test/{id},
 * and /api/secrets and /api/config_maps. All need the `connections` resource: admins only (spec §6).
 */
export function connectionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { pool } = ctx;

  route(app, {
    method: 'POST',
    url: '/api/connections',
    summary: 'Creates a connection (spec §3): the type\'s required fields checked, secrets encrypted at rest; answers it with secrets masked',
    tags: ['connections'],
    access: { resource: 'connections', action: 'create' },
    body: connectionBody,
    handler: async ({ body, req, reply }) => {
      const { input, problems } = connectionFromBody(body);
      const full = withDefaults(input);
      const all = [...problems, ...connectionProblems(full)];
      if (all.length > 0) throw invalid(all);
      const missing = await referenceProblems(pool, full);
      if (missing.length > 0) throw invalid(missing);
      const saved = await inTransaction(pool, (client) => saveConnection(client, processKeyring(), full, { source: 'UI', createdBy: req.actor?.id, createOnly: true, labels: body.labels ?? {} }));
      return reply.status(201).send(await shownConnection(pool, saved.id));
    },
  });

  route(app, {
    method: 'PATCH',
    url: '/api/connections/:id',
    summary: 'Changes a connection made in the console; a secret field sent as ****** (or left out) keeps its stored value',
    tags: ['connections'],
    access: { resource: 'connections', action: 'update' },
    params: z.object({ id: uuid }),
    body: connectionPatchBody,
    handler: async ({ params, body }) => {
      const current = await storedConnection(pool, params.id);
      if (!current) throw new AppError('not_found', `connection ${params.id} not found`);
      const base = body.type !== undefined && body.type !== current.type ? { name: current.name, namespace: current.namespace, type: body.type } : current;
      const { input, problems } = connectionFromBody(body, base);
      const full = withDefaults(input);
      const all = [...problems, ...connectionProblems(forValidation(full, body.type === undefined || body.type === current.type ? current.stored : undefined))];
      if (all.length > 0) throw invalid(all);
      const missing = await referenceProblems(pool, full);
      if (missing.length > 0) throw invalid(missing);
      await inTransaction(pool, (client) => saveConnection(client, processKeyring(), full, { source: 'UI', id: params.id, labels: body.labels ?? current.labels }));
      return shownConnection(pool, params.id);
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/connections/:id',
    summary: 'Deletes a connection made in the console (soft delete: checks that use it fail naming it)',
    tags: ['connections'],
    access: { resource: 'connections', action: 'delete' },
    params: z.object({ id: uuid }),
    handler: async ({ params, reply }) => {
      await deleteConsoleRow(pool, 'connections', 'connection', params.id);
      return reply.status(204).send();
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/connection/test/:id',
    summary: 'Tests a saved connection against its peer within 10 s: the peer\'s answer, or the error (never a secret); cloud types answer that they cannot be tested here',
    tags: ['connections'],
    access: { resource: 'connections', action: 'read' },
    params: z.object({ id: uuid }),
    handler: async ({ params }) => {
      const { rows } = await pool.query<StoredConnection>(
        'SELECT id, name, namespace, type, url, username, password, certificate, insecure_tls, properties FROM connections WHERE id = $1 AND deleted_at IS NULL',
        [params.id],
      );
      const row = rows[0];
      if (!row) throw new AppError('not_found', `connection ${params.id} not found`);
      const started = performance.now();
      let outcome;
      try {
        // testConnection keeps every secret field of the type out of its message.
        outcome = await testConnection(await revealConnection(secretStore(pool), row), AbortSignal.timeout(TEST_TIMEOUT_MS));
      } catch (error) {
        outcome = { ok: false, tested: true, message: messageOf(error) };
      }
      return { ...outcome, duration_ms: Math.round(performance.now() - started) };
    },
  });

  for (const kind of ['Secret', 'ConfigMap'] as const) {
    const base = kind === 'Secret' ? '/api/secrets' : '/api/config_maps';
    const noun = kind === 'Secret' ? 'secret' : 'config map';
    const key = z.string().regex(/^[-._a-zA-Z0-9]+$/, 'a key is letters, digits, -, _ or .');
    const body = z.object({
      name: resourceName,
      namespace: resourceNamespace.default('default'),
      data: z.record(key, z.string(), { message: 'must be a map of keys to texts' }).default({}),
      labels: z.record(z.string(), z.string()).default({}),
    });
    const shown = async (id: string) => {
      const view = kind === 'Secret' ? 'secrets_shown' : 'config_maps_shown';
      const { rows } = await pool.query(`SELECT * FROM ${view} WHERE id = $1`, [id]);
      return rows[0];
    };
    route(app, {
      method: 'POST',
      url: base,
      summary: `Creates a ${noun}${kind === 'Secret' ? ' (values encrypted at rest, never answered)' : ''}`,
      tags: ['connections'],
      access: { resource: 'connections', action: 'create' },
      body,
      handler: async ({ body: input, req, reply }) => {
        const saved = await inTransaction(pool, (client) => saveSecret(client, { kind, ...input }, { source: 'UI', createdBy: req.actor?.id, createOnly: true }));
        return reply.status(201).send(await shown(saved.id));
      },
    });
    route(app, {
      method: 'PATCH',
      url: `${base}/:id`,
      summary: `Changes a ${noun} made in the console: data is the whole set of keys${kind === 'Secret' ? '; a value sent as ****** or empty keeps the stored one' : ''}`,
      tags: ['connections'],
      access: { resource: 'connections', action: 'update' },
      params: z.object({ id: uuid }),
      body: body.pick({ data: true, labels: true }).partial(),
      handler: async ({ params, body: input }) => {
        const { rows } = await pool.query<{ name: string; namespace: string; data: Record<string, string>; labels: Record<string, string> }>(
          'SELECT name, namespace, data, labels FROM secrets WHERE id = $1 AND kind = $2 AND deleted_at IS NULL',
          [params.id, kind],
        );
        const current = rows[0];
        if (!current) throw new AppError('not_found', `${noun} ${params.id} not found`);
        const data = input.data ?? Object.fromEntries(Object.keys(current.data).map((name) => [name, kind === 'Secret' ? '******' : (current.data[name] ?? '')]));
        await inTransaction(pool, (client) => saveSecret(client, { kind, name: current.name, namespace: current.namespace, data, labels: input.labels ?? current.labels }, { source: 'UI', id: params.id }));
        return shown(params.id);
      },
    });
    route(app, {
      method: 'DELETE',
      url: `${base}/:id`,
      summary: `Deletes a ${noun} made in the console (what reads it fails naming it)`,
      tags: ['connections'],
      access: { resource: 'connections', action: 'delete' },
      params: z.object({ id: uuid }),
      handler: async ({ params, reply }) => {
        await deleteConsoleRow(pool, 'secrets', noun, params.id, { sql: ' AND kind = $2', values: [kind] });
        return reply.status(204).send();
      },
    });
  }
}
