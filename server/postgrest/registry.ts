import type { Resource } from '../../common/rbac';
import type { PoolClient } from 'pg';
import type { AccessTarget, Actor } from '../platform/auth/types';

/**
 * The registry of what /api/db serves. Nothing outside it is reachable: a relation or function that is
 * not registered answers PGRST205/PGRST202 whether or not it exists in the database, and only the
 * columns listed here can be read, filtered, ordered or written. Each feature adds its entries in
 * relations/index.ts.
 */

/** RBAC objects are the resources of spec §6 (common/rbac.ts). */
export type RbacObject = Resource;
export type RbacAction = 'read' | 'write';

/** Who is making the request; insert and update defaults read it (created_by, updated_by). */
export type { Actor };

/** One row a write changed: its state before (null for an insert) and after (null for a delete), all columns. */
export interface RowChange {
  old: Record<string, unknown> | null;
  new: Record<string, unknown> | null;
}

/**
 * Runs in the write's transaction after its statement, before COMMIT, with every row it changed (for
 * example to publish events, which then exist if and only if the write commits). Throwing rolls the write back.
 */
export type AfterWrite = (client: PoolClient, write: { method: 'POST' | 'PATCH' | 'DELETE'; changes: RowChange[]; actor: Actor | undefined }) => Promise<void>;

/** A foreign key declared for embedding: `columns` pairs this relation's columns with the target's. */
export interface RelationshipDef {
  /** The name a client may give as `!hint` (usually the constraint name). */
  name: string;
  /** Exposed name of the referenced relation. */
  target: string;
  columns: ReadonlyArray<readonly [string, string]>;
}

export interface RelationDef {
  /** The name under /api/db. */
  name: string;
  /** Underlying table or view in the public schema; defaults to `name`. */
  source?: string;
  rbac: RbacObject;
  /**
   * The one resource every row of this relation belongs to (a view's table belongs to its view): access
   * is decided for it, so permissions selecting single resources (`views: [{name: …}]`) apply.
   */
  accessTarget?: AccessTarget;
  /**
   * Each row is one resource of this kind, its id in `id`: reads need only that some resource of the kind
   * may be read (a selector permission suffices), and return the rows the caller may read
   * (PostgrestOptions.rowScope decides them). Embeds of this relation elsewhere are judged as a whole.
   */
  rowScope?: AccessTarget['kind'];
  /**
   * Rows that stand for resources of several kinds (integrations): the value of `column` names the kind, and
   * a row is read only by callers who may read its kind's RBAC object (values not listed need nothing more).
   */
  rowObjects?: { column: string; objects: Readonly<Record<string, RbacObject>> };
  /**
   * The RBAC object writes need when it differs from reads (teams are read by everyone who reads the
   * console, but changing them changes who holds which permission, so writes need identities).
   */
  writeRbac?: RbacObject;
  /** Columns a client may select, filter and order by; `select=*` means these. */
  readable: readonly string[];
  insertable?: readonly string[];
  updatable?: readonly string[];
  /**
   * Only rows with this column value may be changed or deleted (spec §4: permissions from a Kubernetes
   * CRD are read-only); other rows simply match no PATCH or DELETE.
   */
  writableWhere?: { column: string; equals: string };
  /** DELETE allowed (it becomes `SET deleted_at = now()` when `softDelete`). */
  deletable?: boolean;
  primaryKey?: readonly string[];
  /** Column sets `on_conflict=` may name; the primary key is always allowed. */
  conflictTargets?: ReadonlyArray<readonly string[]>;
  /**
   * Its keys are unique per organization (hosted mode, migration 0036: the unique index ends with
   * organization_id, NULLS NOT DISTINCT): an upsert's ON CONFLICT names organization_id after them.
   */
  keysPerOrganization?: boolean;
  /**
   * Rows with `deleted_at` set are hidden unless the query filters on `deleted_at` (possible only when
   * it is readable), and DELETE sets it instead of removing the row.
   */
  softDelete?: boolean;
  /**
   * Values the server sets on insert, whatever the client sent (for example `created_by` from the
   * actor). A hook that returns undefined leaves the column to the client and the table default.
   */
  insertDefaults?: Readonly<Record<string, (actor: Actor | undefined) => string | number | boolean | null | undefined>>;
  /** Values the server sets on update, like insertDefaults (for example `updated_by`). */
  updateDefaults?: Readonly<Record<string, (actor: Actor | undefined) => string | number | boolean | null | undefined>>;
  relationships?: readonly RelationshipDef[];
  /** Called in the transaction of each POST, PATCH or DELETE that changed rows (needs primaryKey). */
  afterWrite?: AfterWrite;
  /**
   * The relation_counts key (migration 0003) holding this relation's exact row count, kept by triggers:
   * an unfiltered `count=exact` reads it instead of counting. Only for relations whose rows are exactly
   * that table's rows (the table itself, or a 1:1 view of it).
   */
  rowCount?: string;
  /**
   * For views (PostgreSQL reports every view column as nullable): columns that are NOT NULL in the
   * underlying table. The planner then drops NULLS FIRST/LAST from orders on them, so
   * `order=time_start.desc.nullslast` can use the table's `time_start DESC` index.
   */
  notNull?: readonly string[];
}

export interface FunctionDef {
  /** The name under /api/db/rpc and in the database (public schema). */
  name: string;
  rbac: RbacObject;
  /** What POST needs; GET always needs read and runs read-only. */
  action: RbacAction;
  /** For functions returning rows: the output columns a client may see (default: all of them). */
  readable?: readonly string[];
}

export interface Registry {
  relations: ReadonlyMap<string, RelationDef>;
  functions: ReadonlyMap<string, FunctionDef>;
}

export function createRegistry(relations: readonly RelationDef[], functions: readonly FunctionDef[] = []): Registry {
  const relationMap = new Map<string, RelationDef>();
  for (const relation of relations) {
    if (relationMap.has(relation.name)) throw new Error(`/api/db registry: relation ${relation.name} is registered twice`);
    for (const column of [...(relation.insertable ?? []), ...(relation.updatable ?? []), ...(relation.primaryKey ?? []), ...(relation.notNull ?? [])]) {
      if (!relation.readable.includes(column)) throw new Error(`/api/db registry: ${relation.name}.${column} is writable, a key or declared NOT NULL but not readable`);
    }
    for (const column of [...Object.keys(relation.insertDefaults ?? {}), ...Object.keys(relation.updateDefaults ?? {})]) {
      if (!relation.readable.includes(column)) throw new Error(`/api/db registry: ${relation.name}.${column} has a server default but is not readable`);
    }
    if (relation.afterWrite && !relation.primaryKey?.length) throw new Error(`/api/db registry: ${relation.name} has afterWrite but no primaryKey`);
    relationMap.set(relation.name, relation);
  }
  for (const relation of relations) {
    for (const rel of relation.relationships ?? []) {
      if (!relationMap.has(rel.target)) throw new Error(`/api/db registry: ${relation.name} embeds ${rel.target}, which is not registered`);
    }
  }
  const functionMap = new Map<string, FunctionDef>();
  for (const fn of functions) {
    if (functionMap.has(fn.name)) throw new Error(`/api/db registry: function ${fn.name} is registered twice`);
    functionMap.set(fn.name, fn);
  }
  return { relations: relationMap, functions: functionMap };
}
