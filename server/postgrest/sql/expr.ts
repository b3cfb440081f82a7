import type { Condition, Field, Filter, LogicTree } from '../ast';
import { PgrstError, undefinedColumn } from '../errors';
import type { ColumnInfo } from '../schema';

/**
 * SQL fragments. Identifiers written into SQL come from the registry (or are output aliases, which are
 * quoted); every value a client sends is a bound parameter cast to the column's introspected type.
 */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export class Params {
  readonly values: unknown[] = [];

  /** Binds a value and returns its placeholder, cast to `type` (a type name from pg_catalog or our list). */
  add(value: unknown, type: string): string {
    this.values.push(value);
    return `$${this.values.length}::${type}`;
  }
}

/** Something rows can be selected from: a registered relation, or a function's result. */
export interface Source {
  /** Exposed name, for messages. */
  name: string;
  /** The FROM item (a quoted table name, or a function call with bound arguments). */
  from: string;
  columns: ReadonlyMap<string, ColumnInfo>;
}

export interface TypedExpr {
  sql: string;
  type: string;
  category: string;
  /** True when the expression is text (a text column or a `->>` path). */
  text: boolean;
  /** A plain column that is never NULL. */
  notNull: boolean;
}

const JSON_TYPES = new Set(['json', 'jsonb']);

/** A column reference with its JSON path, checked against the source's readable columns. */
export function fieldExpr(source: Source, alias: string, field: Field, params: Params): TypedExpr {
  const column = source.columns.get(field.name);
  if (!column) throw undefinedColumn(source.name, field.name);
  let sql = `${alias}.${ident(column.name)}`;
  if (field.path.length === 0) {
    return { sql, type: column.type, category: column.category, text: column.category === 'S', notNull: column.notNull };
  }
  if (!JSON_TYPES.has(column.type)) {
    throw new PgrstError(400, '42883', `operator does not exist: ${column.type} -> unknown`, null, `${source.name}.${column.name} is not a json or jsonb column`);
  }
  let last: '->' | '->>' = '->';
  for (const step of field.path) {
    const key = /^-?\d{1,9}$/.test(step.key) ? params.add(Number(step.key), 'integer') : params.add(step.key, 'text');
    sql = `(${sql}${step.arrow}${key})`;
    last = step.arrow;
  }
  return last === '->>' ? { sql, type: 'text', category: 'S', text: true, notNull: false } : { sql, type: column.type, category: 'U', text: false, notNull: false };
}

const COMPARISON: Record<string, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'LIKE',
  ilike: 'ILIKE',
  match: '~',
  imatch: '~*',
  isdistinct: 'IS DISTINCT FROM',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
};

const TSQUERY: Record<string, string> = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
};

const IS_SQL: Record<string, string> = {
  null: 'IS NULL',
  not_null: 'IS NOT NULL',
  true: 'IS TRUE',
  false: 'IS FALSE',
  unknown: 'IS UNKNOWN',
};

/** `*` is PostgREST's wildcard in like patterns (a `%` in a URL is awkward). */
const likePattern = (value: string) => value.replace(/\*/g, '%');

function lookup(map: Record<string, string>, key: string): string {
  const value = map[key];
  if (value === undefined) throw new PgrstError(400, 'PGRST100', `unsupported operator ${key}`);
  return value;
}

export function conditionSql(condition: Condition, source: Source, alias: string, params: Params): string {
  const left = fieldExpr(source, alias, condition.field, params);
  const predicate = condition.predicate;
  let sql: string;
  switch (predicate.op) {
    case 'is':
      sql = `${left.sql} ${lookup(IS_SQL, predicate.value)}`;
      break;
    case 'in':
      sql = `${left.sql} = ANY(${params.add(predicate.values, `${left.type}[]`)})`;
      break;
    case 'like':
    case 'ilike':
    case 'match':
    case 'imatch': {
      const operand = left.text ? left.sql : `(${left.sql})::text`;
      const value = predicate.op === 'like' || predicate.op === 'ilike' ? likePattern(predicate.value) : predicate.value;
      sql = predicate.quantifier
        ? `${operand} ${lookup(COMPARISON, predicate.op)} ${predicate.quantifier.toUpperCase()}(${params.add(value, 'text[]')})`
        : `${operand} ${lookup(COMPARISON, predicate.op)} ${params.add(value, 'text')}`;
      break;
    }
    case 'fts':
    case 'plfts':
    case 'phfts':
    case 'wfts': {
      const language = predicate.language === undefined ? '' : `${params.add(predicate.language, 'regconfig')}, `;
      const document = left.type === 'tsvector' ? left.sql : `to_tsvector(${language}(${left.sql})::text)`;
      sql = `${document} @@ ${lookup(TSQUERY, predicate.op)}(${language}${params.add(predicate.value, 'text')})`;
      break;
    }
    default:
      if ('quantifier' in predicate && predicate.quantifier) {
        sql = `${left.sql} ${lookup(COMPARISON, predicate.op)} ${predicate.quantifier.toUpperCase()}(${params.add(predicate.value, `${left.type}[]`)})`;
      } else {
        sql = `${left.sql} ${lookup(COMPARISON, predicate.op)} ${params.add(predicate.value, left.type)}`;
      }
  }
  return condition.negate ? `NOT (${sql})` : sql;
}

/** Compiles one condition; the planner's compiler also answers `embed=is.null`, which needs the embed's join. */
export interface FilterCompiler {
  condition(condition: Condition): string;
}

export function filterSql(filter: Filter, compiler: FilterCompiler): string {
  if (filter.kind === 'condition') return compiler.condition(filter);
  return logicSql(filter, compiler);
}

function logicSql(tree: LogicTree, compiler: FilterCompiler): string {
  const parts = tree.children.map((child) => filterSql(child, compiler));
  const joined = parts.length === 0 ? 'TRUE' : `(${parts.join(tree.op === 'and' ? ' AND ' : ' OR ')})`;
  return tree.negate ? `NOT ${joined}` : joined;
}

/** True when any filter (at any depth) names `column`: used for the soft-delete rule. */
export function mentions(filters: readonly Filter[], column: string): boolean {
  return filters.some((filter) => {
    if (filter.kind === 'condition') return filter.field.name === column;
    return mentions(filter.children, column);
  });
}
