import type pg from 'pg';
import type { FunctionDef, RelationDef, Registry, RelationshipDef } from './registry';

/**
 * The registry joined with the database's own description of its columns and functions, read once at
 * startup from pg_catalog: every bound parameter is cast to the column's real type, and a registry
 * entry that names a missing table or column stops the server instead of failing per request.
 */
export interface ColumnInfo {
  name: string;
  /** The type for casts, without modifiers (`character varying`, `text[]`, `timestamp with time zone`). */
  type: string;
  /** Element type for arrays, else undefined. */
  element: string | undefined;
  /** pg_type.typcategory: S string, N numeric, A array, U user (json/jsonb are U), … */
  category: string;
  /** Never NULL (NOT NULL in the table, or declared so for a view): NULLS FIRST/LAST cannot matter. */
  notNull: boolean;
}

export interface RelationInfo {
  def: RelationDef;
  source: string;
  columns: ReadonlyMap<string, ColumnInfo>;
}

export interface FunctionArg {
  name: string;
  type: string;
  category: string;
  hasDefault: boolean;
}

export interface FunctionInfo {
  def: FunctionDef;
  args: FunctionArg[];
  returnsSet: boolean;
  /** Output columns when the function returns rows (a table type, OUT/TABLE parameters); else undefined. */
  columns: ReadonlyMap<string, ColumnInfo> | undefined;
  volatile: boolean;
  /** The registered relation whose table type the function returns (`RETURNS SETOF books`), if any. */
  relation: RelationInfo | undefined;
}

/** A relationship as seen from one side: to-one (we hold the key) or to-many (they hold it). */
export interface Join {
  name: string;
  target: string;
  cardinality: 'one' | 'many';
  /** Pairs of (our column, their column). */
  on: ReadonlyArray<readonly [string, string]>;
}

export interface Schema {
  relations: ReadonlyMap<string, RelationInfo>;
  functions: ReadonlyMap<string, FunctionInfo>;
  /** Every relationship from a relation, both directions. */
  joins(relation: string): Join[];
}

interface ColumnRow {
  relname: string;
  attname: string;
  type: string;
  element: string | null;
  category: string;
  notnull: boolean;
}

interface FunctionRow {
  proname: string;
  arg_names: string[] | null;
  arg_modes: string[] | null;
  arg_types: string[];
  arg_categories: string[];
  input_count: number;
  default_count: number;
  retset: boolean;
  volatile: string;
  ret_relation: string | null;
  overloads: number;
}

const COLUMNS_SQL = `
  SELECT c.relname, a.attname, format_type(a.atttypid, NULL) AS type,
         CASE WHEN t.typcategory = 'A' THEN format_type(t.typelem, NULL) END AS element, t.typcategory::text AS category, a.attnotnull AS notnull
  FROM pg_attribute a
  JOIN pg_class c ON c.oid = a.attrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_type t ON t.oid = a.atttypid
  WHERE n.nspname = 'public' AND c.relname = ANY($1::text[]) AND a.attnum > 0 AND NOT a.attisdropped`;

const FUNCTIONS_SQL = `
  SELECT p.proname, p.proargnames AS arg_names, p.proargmodes::text[] AS arg_modes,
         ARRAY(SELECT format_type(x, NULL) FROM unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) WITH ORDINALITY u(x, i) ORDER BY i) AS arg_types,
         ARRAY(SELECT t.typcategory::text FROM unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) WITH ORDINALITY u(x, i) JOIN pg_type t ON t.oid = u.x ORDER BY i) AS arg_categories,
         p.pronargs AS input_count, p.pronargdefaults AS default_count, p.proretset AS retset, p.provolatile::text AS volatile,
         (SELECT rc.relname FROM pg_type rt JOIN pg_class rc ON rc.oid = rt.typrelid WHERE rt.oid = p.prorettype) AS ret_relation,
         count(*) OVER (PARTITION BY p.proname)::int AS overloads
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
  WHERE n.nspname = 'public' AND p.proname = ANY($1::text[]) AND p.prokind = 'f'`;

function columnInfo(row: ColumnRow, declaredNotNull = false): ColumnInfo {
  return { name: row.attname, type: row.type, element: row.element ?? undefined, category: row.category, notNull: row.notnull || declaredNotNull };
}

export async function introspect(pool: pg.Pool, registry: Registry): Promise<Schema> {
  const relationDefs = [...registry.relations.values()];
  const functionDefs = [...registry.functions.values()];
  const sources = relationDefs.map((def) => def.source ?? def.name);
  const { rows: columnRows } = await pool.query<ColumnRow>(COLUMNS_SQL, [sources]);
  const { rows: functionRows } = await pool.query<FunctionRow>(FUNCTIONS_SQL, [functionDefs.map((fn) => fn.name)]);
  const returnRelations = functionRows.map((row) => row.ret_relation).filter((name): name is string => name !== null);
  const { rows: returnColumnRows } = await pool.query<ColumnRow>(COLUMNS_SQL, [returnRelations]);

  const columnsOf = (rows: ColumnRow[], relname: string) => new Map(rows.filter((row) => row.relname === relname).map((row) => [row.attname, row]));

  const relations = new Map<string, RelationInfo>();
  for (const def of relationDefs) {
    const source = def.source ?? def.name;
    const all = columnsOf(columnRows, source);
    if (all.size === 0) throw new Error(`/api/db registry: ${def.name} names ${source}, which is not a table or view in the database`);
    const missing = def.readable.filter((column) => !all.has(column));
    if (missing.length > 0) throw new Error(`/api/db registry: ${def.name} lists columns ${missing.join(', ')} that ${source} does not have`);
    if (def.softDelete && !all.has('deleted_at')) throw new Error(`/api/db registry: ${def.name} is soft-deleted but ${source} has no deleted_at column`);
    // Only readable columns are kept: nothing else can be named by a request.
    const columns = new Map<string, ColumnInfo>();
    for (const name of def.readable) {
      const row = all.get(name);
      if (row) columns.set(name, columnInfo(row, def.notNull?.includes(name)));
    }
    relations.set(def.name, { def, source, columns });
  }

  const functions = new Map<string, FunctionInfo>();
  for (const def of functionDefs) {
    const row = functionRows.find((candidate) => candidate.proname === def.name);
    if (!row) throw new Error(`/api/db registry: function ${def.name} does not exist in the database`);
    if (row.overloads > 1) throw new Error(`/api/db registry: function ${def.name} is overloaded; expose one signature only`);
    const relation = row.ret_relation === null ? undefined : [...relations.values()].find((info) => info.source === row.ret_relation);
    functions.set(def.name, { ...functionInfo(def, row, returnColumnRows), relation });
  }

  const joinsByRelation = new Map<string, Join[]>();
  const add = (relation: string, join: Join) => joinsByRelation.set(relation, [...(joinsByRelation.get(relation) ?? []), join]);
  for (const def of relationDefs) {
    for (const rel of def.relationships ?? []) {
      checkRelationship(def, rel, relations);
      add(def.name, { name: rel.name, target: rel.target, cardinality: 'one', on: rel.columns });
      add(rel.target, { name: rel.name, target: def.name, cardinality: 'many', on: rel.columns.map(([ours, theirs]) => [theirs, ours] as const) });
    }
  }
  return { relations, functions, joins: (relation) => joinsByRelation.get(relation) ?? [] };
}

/**
 * One relation outside the static registry (a view's table, made at run time), described the way
 * `introspect` describes registered ones: undefined when its source is not in the database.
 */
export async function relationInfo(db: Pick<pg.Pool, 'query'>, def: RelationDef): Promise<RelationInfo | undefined> {
  const source = def.source ?? def.name;
  const { rows } = await db.query<ColumnRow>(COLUMNS_SQL, [[source]]);
  if (rows.length === 0) return undefined;
  const all = new Map(rows.map((row) => [row.attname, row]));
  const columns = new Map<string, ColumnInfo>();
  for (const name of def.readable) {
    const row = all.get(name);
    if (row) columns.set(name, columnInfo(row, def.notNull?.includes(name)));
  }
  return { def: { ...def, readable: def.readable.filter((name) => columns.has(name)) }, source, columns };
}

/** Resolves names the static registry lacks (PostgrestOptions.dynamicRelation); features add providers. */
export type DynamicRelationProvider = (name: string) => Promise<RelationInfo | undefined>;
const dynamicProviders: DynamicRelationProvider[] = [];

export function addDynamicRelations(provider: DynamicRelationProvider): void {
  if (!dynamicProviders.includes(provider)) dynamicProviders.push(provider);
}

/** An app that closes takes its provider back (a process may build another app, on another pool: tests). */
export function removeDynamicRelations(provider: DynamicRelationProvider): void {
  const at = dynamicProviders.indexOf(provider);
  if (at >= 0) dynamicProviders.splice(at, 1);
}

export async function dynamicRelation(name: string): Promise<RelationInfo | undefined> {
  for (const provider of dynamicProviders) {
    const info = await provider(name);
    if (info) return info;
  }
  return undefined;
}

function checkRelationship(def: RelationDef, rel: RelationshipDef, relations: Map<string, RelationInfo>): void {
  const target = relations.get(rel.target);
  for (const [ours, theirs] of rel.columns) {
    if (!def.readable.includes(ours) || !target?.columns.has(theirs)) {
      throw new Error(`/api/db registry: relationship ${rel.name} joins ${def.name}.${ours} to ${rel.target}.${theirs}; both must be readable`);
    }
  }
}

function functionInfo(def: FunctionDef, row: FunctionRow, returnColumnRows: ColumnRow[]): Omit<FunctionInfo, 'relation'> {
  const modes = row.arg_modes ?? row.arg_types.map(() => 'i');
  const names = row.arg_names ?? [];
  const args: FunctionArg[] = [];
  const outputs = new Map<string, ColumnInfo>();
  const firstDefault = row.input_count - row.default_count;
  let inputIndex = 0;
  modes.forEach((mode, i) => {
    const name = names[i] ?? '';
    const type = row.arg_types[i] ?? 'text';
    const category = row.arg_categories[i] ?? 'S';
    if (mode === 'i' || mode === 'b' || mode === 'v') {
      if (name === '') throw new Error(`/api/db registry: function ${def.name} has an unnamed argument; name every argument`);
      args.push({ name, type, category, hasDefault: inputIndex >= firstDefault });
      inputIndex += 1;
    }
    if (mode === 'o' || mode === 'b' || mode === 't') outputs.set(name, { name, type, element: undefined, category, notNull: false });
  });
  let columns: Map<string, ColumnInfo> | undefined = outputs.size > 0 ? outputs : undefined;
  // Rows of a table type may be NULL-extended, so a function's columns are never treated as NOT NULL.
  if (!columns && row.ret_relation) columns = new Map(returnColumnRows.filter((r) => r.relname === row.ret_relation).map((r) => [r.attname, { ...columnInfo(r), notNull: false }]));
  if (columns && def.readable) {
    const readable = def.readable;
    columns = new Map([...columns].filter(([name]) => readable.includes(name)));
  }
  return { def, args, returnsSet: row.retset, columns, volatile: row.volatile === 'v' };
}
