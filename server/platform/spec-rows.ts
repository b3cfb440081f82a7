import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import type { Resource } from '../../common/rbac';
import { assertSpecCapabilities } from './auth/capabilities';
import type { Actor } from './auth/types';
import { AppError, ValidationError } from './http/errors';
import { route } from './http/route';
import { inTransaction, type Queryable } from './jobs/db';
import { specResourceKind, type ResourceSource, type SavedSpecResource } from './resources';
import { resourceName, resourceNamespace } from './names';

/**
 * A table of plain spec resources (name, namespace, labels, spec, source, created_by, soft delete), such as
 * incident_rules and logging_backends: saved by namespace and name from files and `apply`, by id from the
 * console. A resource made in the console is never taken over by a file, nor changed by one.
 */
export interface SpecRowTable {
  table: string;
  /** What one row is called in messages ('incident rule', 'log backend'). */
  noun: string;
  /** Every problem of a spec, by path from the document (`spec.files[0].paths`); none means it may be saved. */
  problems(spec: Record<string, unknown>): Array<{ path: string; message: string }>;
  /** Fields of the upstream format that are read but not run, each named (docs/RESOURCES.md: warnings, never silence). */
  warnings?(spec: Record<string, unknown>): string[];
  /** The spec as stored, when an upstream shape is rewritten into ours; called only on a spec without problems. */
  normalize?(spec: Record<string, unknown>): Record<string, unknown>;
  /** Columns read from the spec and written beside it (a playbook's title, category, webhook path). */
  columns?(spec: Record<string, unknown>): Record<string, unknown>;
}

export interface SpecRowInput {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
  source: ResourceSource | string;
  createdBy?: string;
}

/** A spec schema's issues as problems with their path from the document (`spec.files.0.paths`). */
export function specProblems(issues: readonly z.core.$ZodIssue[]): Array<{ path: string; message: string }> {
  return issues.map((issue) => ({ path: ['spec', ...issue.path.map(String)].join('.'), message: issue.message }));
}

export class SpecInvalid extends Error {
  constructor(readonly problems: Array<{ path: string; message: string }>) {
    super(problems.map((problem) => `${problem.path}: ${problem.message}`).join('; '));
  }
}

/**
 * Whether a save may go on with the row found (spec §4): by id it must exist; a create must not find one
 * (`field` names the name's field in the message); a row made in the console is never taken over by a
 * file, and a row from a file is changed there, not in the console.
 */
export function assertSavable(
  existing: { source: string } | undefined,
  save: { noun: string; name: string; namespace: string; source: string; id?: string | undefined; createOnly?: boolean | undefined; field?: string },
): void {
  if (save.id && !existing) throw new AppError('not_found', `${save.noun} ${save.id} not found`);
  if (save.createOnly && existing) throw new AppError('conflict', `${save.field ?? 'metadata.name'}: a ${save.noun} "${save.name}" already exists in the namespace "${save.namespace}"; choose another name or edit that one`);
  if (existing && !save.id && existing.source === 'UI' && save.source !== 'UI') {
    throw new AppError('conflict', `metadata.name: the ${save.noun} "${save.namespace}/${save.name}" was created in the console; rename one of them`);
  }
  if (existing && save.id && existing.source !== 'UI' && save.source === 'UI') throw new AppError('conflict', `this ${save.noun} comes from ${existing.source}: change it there`);
}

/**
 * Soft-deletes a row made in the console: 404 when there is none, 409 for a row from a file (deleted
 * there). `where` narrows the row (`kind = 'Secret'`) with parameters after the id.
 */
export async function deleteConsoleRow(db: Queryable, table: string, noun: string, id: string, where: { sql: string; values: unknown[] } = { sql: '', values: [] }): Promise<void> {
  const { rows } = await db.query<{ source: string }>(`SELECT source FROM ${table} WHERE id = $1 AND deleted_at IS NULL${where.sql}`, [id, ...where.values]);
  const source = rows[0]?.source;
  if (!source) throw new AppError('not_found', `${noun} ${id} not found`);
  if (source !== 'UI') throw new AppError('conflict', `this ${noun} comes from ${source}: delete it there`);
  await db.query(`UPDATE ${table} SET deleted_at = now() WHERE id = $1`, [id]);
}

/** Creates or updates one row (by id from the console, else by namespace and name); the spec is checked first. */
export async function saveSpecRow(client: pg.PoolClient, table: SpecRowTable, input: SpecRowInput, options: { id?: string; createOnly?: boolean } = {}): Promise<SavedSpecResource> {
  const problems = table.problems(input.spec);
  if (problems.length > 0) throw new SpecInvalid(problems);
  const warnings = table.warnings?.(input.spec) ?? [];
  const spec = table.normalize?.(input.spec) ?? input.spec;
  const found = options.id
    ? await client.query<{ id: string; source: string }>(`SELECT id, source FROM ${table.table} WHERE id = $1 AND deleted_at IS NULL FOR UPDATE`, [options.id])
    : await client.query<{ id: string; source: string }>(`SELECT id, source FROM ${table.table} WHERE namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL FOR UPDATE`, [input.namespace, input.name]);
  const existing = found.rows[0];
  assertSavable(existing, { noun: table.noun, name: input.name, namespace: input.namespace, source: input.source, id: options.id, createOnly: options.createOnly });
  const extra = table.columns?.(spec) ?? {};
  const extraNames = Object.keys(extra);
  const extraValues = Object.values(extra);
  if (existing) {
    await client.query(
      `UPDATE ${table.table} SET name = $2, namespace = $3, labels = $4, spec = $5, source = $6, updated_by = $7${extraNames.map((name, index) => `, ${name} = $${index + 8}`).join('')} WHERE id = $1`,
      [existing.id, input.name, input.namespace, JSON.stringify(input.labels), JSON.stringify(spec), input.source, input.createdBy || null, ...extraValues],
    );
    return { id: existing.id, action: 'updated', warnings };
  }
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO ${table.table} (name, namespace, labels, spec, source, created_by, updated_by${extraNames.map((name) => `, ${name}`).join('')})
     VALUES ($1, $2, $3, $4, $5, $6, $6${extraNames.map((_, index) => `, $${index + 7}`).join('')}) RETURNING id`,
    [input.name, input.namespace, JSON.stringify(input.labels), JSON.stringify(spec), input.source, input.createdBy || null, ...extraValues],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error(`${table.noun} insert returned no row`);
  return { id, action: 'created', warnings };
}

/** The resource kind (`apply -f`, the watched folder) whose documents are rows of this table. */
export function specRowKind(table: SpecRowTable, options: { kind: string; apiVersions: string[] }) {
  return specResourceKind({ ...options, problems: table.problems, save: (client, input) => saveSpecRow(client, table, input) });
}

const uuid = z.string().uuid('must be a UUID');
const body = z.object({
  name: resourceName,
  namespace: resourceNamespace.default('default'),
  labels: z.record(z.string(), z.string()).default({}),
  spec: z.record(z.string(), z.unknown(), { message: 'must be a mapping' }),
});

/**
 * POST {url}, PUT {url}/:id and DELETE {url}/:id for a spec row table, as the settings editor calls them:
 * the whole spec checked (every problem by path, 400), rows from files left to their files (409).
 */
export function specRowRoutes(
  app: FastifyInstance,
  pool: pg.Pool,
  options: {
    url: string;
    table: SpecRowTable;
    access: Resource;
    tag: string;
    summary: string;
    /** The kind's own save when it checks more than the spec (saveSpecRow by default). */
    save?: (client: pg.PoolClient, input: SpecRowInput, options: { id?: string; createOnly?: boolean }) => Promise<SavedSpecResource>;
  },
): void {
  const { table } = options;
  const saveRow = options.save ?? ((client: pg.PoolClient, input: SpecRowInput, saveOptions: { id?: string; createOnly?: boolean }) => saveSpecRow(client, table, input, saveOptions));
  const save = async (input: z.infer<typeof body>, actor: Actor | undefined, saveOptions: { id?: string; createOnly?: boolean }) => {
    const createdBy = actor?.id ?? '';
    // Capabilities (docs/SECURITY.md): code, server files, connections and SQL need their author to hold them.
    await assertSpecCapabilities(pool, actor, input.spec, input.namespace);
    try {
      return await inTransaction(pool, (client) => saveRow(client, { ...input, source: 'UI', createdBy }, saveOptions));
    } catch (error) {
      if (error instanceof SpecInvalid) throw new ValidationError(error.problems.map((problem) => ({ path: `body.${problem.path}`, message: problem.message })));
      throw error;
    }
  };

  route(app, {
    method: 'POST',
    url: options.url,
    summary: `Creates a ${table.noun}: ${options.summary}`,
    tags: [options.tag],
    access: { resource: options.access, action: 'create' },
    body,
    handler: async ({ body: input, req, reply }) => reply.status(201).send(await save(input, req.actor, { createOnly: true })),
  });

  route(app, {
    method: 'PUT',
    url: `${options.url}/:id`,
    summary: `Updates a ${table.noun} made in the console (name and namespace stay)`,
    tags: [options.tag],
    access: { resource: options.access, action: 'update' },
    params: z.object({ id: uuid }),
    body: body.extend({ name: body.shape.name.optional(), namespace: z.string().trim().min(1).max(255).optional() }),
    handler: async ({ params, body: input, req }) => {
      const { rows } = await pool.query<{ name: string; namespace: string }>(`SELECT name, namespace FROM ${table.table} WHERE id = $1 AND deleted_at IS NULL`, [params.id]);
      const current = rows[0];
      if (!current) throw new AppError('not_found', `${table.noun} ${params.id} not found`);
      return save({ ...input, name: current.name, namespace: current.namespace }, req.actor, { id: params.id });
    },
  });

  route(app, {
    method: 'DELETE',
    url: `${options.url}/:id`,
    summary: `Deletes a ${table.noun} made in the console`,
    tags: [options.tag],
    access: { resource: options.access, action: 'delete' },
    params: z.object({ id: uuid }),
    handler: async ({ params }) => {
      await deleteConsoleRow(pool, table.table, table.noun, params.id);
      return { message: 'success' };
    },
  });
}
