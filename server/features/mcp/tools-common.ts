import type pg from 'pg';
import { z } from 'zod';
import type { Action, Resource } from '../../../common/rbac';
import { allows } from '../../platform/auth/decide';
import type { AccessTarget, Actor, PermissionRule } from '../../platform/auth/types';
import type { AppContext } from '../../platform/context';
import { isRecord } from '../../platform/errors';
import { AppError } from '../../platform/http/errors';

/** What every MCP tool shares: its definition, paging by opaque cursor, and per-item RBAC targets. */

export interface ToolDef {
  name: string;
  description: string;
  input: z.ZodRawShape;
  /** What the caller needs (token scopes ∩ owner's roles and permissions), checked before the tool runs. */
  needs: ReadonlyArray<{ resource: Resource; action: Action }>;
  readOnly: boolean;
  run(ctx: AppContext, actor: Actor, args: Record<string, unknown>): Promise<unknown>;
}

export function tool<S extends z.ZodRawShape>(def: Omit<ToolDef, 'input' | 'run'> & { input: S; run(ctx: AppContext, actor: Actor, args: z.output<z.ZodObject<S>>): Promise<unknown> }): ToolDef {
  return def as unknown as ToolDef;
}

export const MAX_LIMIT = 100;
export const uuid = z.string().uuid('must be a UUID');
export const limit = z.number().int().min(1).max(MAX_LIMIT).default(20).describe('page size, 1–100 (default 20)');
export const cursor = z.string().max(200).optional().describe('next_cursor of the previous page');
export const paged = { limit, cursor };

/** Opaque cursors: the offset of the next page. */
export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

/** The offset a cursor argument names (0 when there is none); a cursor this server did not give is refused. */
export function offsetOf(value: unknown): number {
  if (value === undefined) return 0;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(String(value), 'base64url').toString('utf8'));
    const offset = parsed && typeof parsed === 'object' ? Reflect.get(parsed, 'o') : undefined;
    if (typeof offset === 'number' && Number.isInteger(offset) && offset >= 0 && offset <= 1_000_000) return offset;
  } catch {
    // fall through
  }
  throw new AppError('invalid_request', 'cursor: is not a cursor this server gave (pass next_cursor as it came)');
}

/** A page of rows fetched with one extra row: the items and, when more follow, the next cursor. */
export function page<T>(rows: T[], offset: number, size: number): { items: T[]; next_cursor?: string } {
  return rows.length > size ? { items: rows.slice(0, size), next_cursor: encodeCursor(offset + size) } : { items: rows };
}

/**
 * Does some permission row of the caller speak about single resources (an id column, tags, agents or an
 * object selector)? Only then must a list be filtered item by item; otherwise the resource-level check
 * made before the tool ran decides every row alike.
 */
export function itemScoped(actor: Actor): boolean {
  const names = (rule: PermissionRule) => rule.config_id !== null || rule.component_id !== null || rule.canary_id !== null || rule.playbook_id !== null || rule.connection_id !== null;
  return actor.permissions.some((rule) => names(rule) || rule.object_selector || (rule.tags !== null && Object.keys(rule.tags).length > 0) || (rule.agents !== null && rule.agents.length > 0));
}

/** A label or tag map from database JSON (values kept only when they are strings). */
export function stringMap(value: unknown): Record<string, string> {
  return isRecord(value) ? Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string')) : {};
}

/** A config item as permission rows see it (as get_config and the catalog decide). */
export function configTarget(row: { id: string; name?: string | null; type?: string | null; namespace?: string | null; tags?: unknown; agent_id?: string | null }): AccessTarget {
  return {
    kind: 'config',
    id: row.id,
    tags: stringMap(row.tags),
    ...(row.name ? { name: row.name } : {}),
    ...(row.type ? { type: row.type } : {}),
    ...(row.namespace ? { namespace: row.namespace } : {}),
    ...(row.agent_id ? { agent: row.agent_id } : {}),
  };
}

/** The config items' targets, by id (items not found are left out). */
export async function configTargets(pool: pg.Pool, ids: readonly string[]): Promise<Map<string, AccessTarget>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool.query<{ id: string; name: string | null; type: string; namespace: string | null; tags: unknown; agent_id: string }>(
    'SELECT id, name, type, namespace, tags, agent_id FROM config_items WHERE id = ANY($1::uuid[])',
    [[...new Set(ids)]],
  );
  return new Map(rows.map((row) => [row.id, configTarget(row)]));
}

/** The canary each check belongs to, as permission rows see it (a check is read through its canary), by check id. */
export async function canaryTargets(pool: pg.Pool, checkIds?: readonly string[]): Promise<Map<string, AccessTarget & { status?: string }>> {
  const { rows } = await pool.query<{ check_id: string; status: string | null; id: string; name: string; namespace: string; labels: unknown; agent_id: string }>(
    `SELECT c.id AS check_id, c.status, cn.id, cn.name, cn.namespace, cn.labels, cn.agent_id FROM checks c JOIN canaries cn ON cn.id = c.canary_id
     WHERE c.deleted_at IS NULL AND cn.deleted_at IS NULL ${checkIds ? 'AND c.id = ANY($1::uuid[])' : ''}`,
    checkIds ? [[...new Set(checkIds)]] : [],
  );
  return new Map(
    rows.map((row) => [row.check_id, { kind: 'canary', id: row.id, name: row.name, namespace: row.namespace, labels: stringMap(row.labels), agent: row.agent_id, ...(row.status ? { status: row.status } : {}) }]),
  );
}

/** A topology component as permission rows see it. */
export function componentTarget(row: { id: string; name?: string | null; type?: string | null; tags?: unknown; labels?: unknown; agent_id?: string | null }): AccessTarget {
  const labels = stringMap(row.labels ?? row.tags);
  return { kind: 'component', id: row.id, labels, tags: labels, ...(row.name ? { name: row.name } : {}), ...(row.type ? { type: row.type } : {}), ...(row.agent_id ? { agent: row.agent_id } : {}) };
}

/** Whether the caller may read one resource (the resource's RBAC object, judged for that item). */
export function mayRead(actor: Actor, resource: Resource, target: AccessTarget | undefined): boolean {
  return allows(actor, resource, 'read', target);
}
