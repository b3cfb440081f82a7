import type { Window } from '../headers';
import { ident, type Params, type Source } from './expr';
import type { NodeSql, ReadPlanner } from './read';

/**
 * Whole statements. Each answers one row `{total, page_count, body}` where `body` is the JSON text the
 * client receives, built by PostgreSQL (json_agg) so the server never parses and re-serialises rows.
 */
export interface ResultRow {
  total: number | string | null;
  page_count: number | string;
  body: string | null;
  keys?: unknown;
  /** With changesOf: [{old, new}] of every affected row (null when none). */
  changes?: Array<{ old: Record<string, unknown> | null; new: Record<string, unknown> | null }> | null;
}

export interface Statement {
  text: string;
  values: unknown[];
}

export type BodyShape = 'array' | 'object' | 'none';

function bodySql(planner: ReadPlanner, shape: BodyShape): string {
  const row = planner.rowJson('_page');
  if (shape === 'none') return 'NULL::text';
  if (shape === 'object') return `(json_agg(${row})->0)::text`;
  return `coalesce(json_agg(${row}), '[]')::text`;
}

function clauses(node: NodeSql, params: Params, window: Window | undefined): { where: string; order: string; paging: string } {
  const where = node.where.length > 0 ? ` WHERE ${node.where.join(' AND ')}` : '';
  const order = node.order.length > 0 ? ` ORDER BY ${node.order.join(', ')}` : '';
  let paging = '';
  if (window?.limit !== undefined) paging += ` LIMIT ${params.add(window.limit, 'bigint')}`;
  if (window && window.offset > 0) paging += ` OFFSET ${params.add(window.offset, 'bigint')}`;
  return { where, order, paging };
}

/** A read of a relation or of a row-returning function: the page, its JSON and, when asked, the total. */
export function readStatement(planner: ReadPlanner, source: Source, alias: string, node: NodeSql, window: Window, count: boolean, shape: BodyShape, rowCount?: string): Statement {
  const { where, order, paging } = clauses(node, planner.params, window);
  const from = `${source.from} ${alias}`;
  let total = count ? `(SELECT count(*) FROM ${from}${where})` : 'NULL::bigint';
  // Nothing filters the rows: a trigger-kept count answers exactly (counting stays the fallback).
  if (count && rowCount !== undefined && node.where.length === 0) {
    total = `coalesce((SELECT n FROM relation_counts WHERE relation = ${planner.params.add(rowCount, 'text')}), ${total})`;
  }
  const text =
    `WITH _page AS (SELECT ${node.columns.join(', ')} FROM ${from}${where}${order}${paging}) ` +
    `SELECT ${total} AS total, count(*) AS page_count, ${bodySql(planner, shape)} AS body FROM _page`;
  return { text, values: planner.params.values };
}

/**
 * A data-modifying statement (`mutation` aliases its target `_0` and has no RETURNING) followed by the representation:
 * the affected rows selected through the request's `select`, embeds included.
 */
export function mutationStatement(
  planner: ReadPlanner,
  mutation: string,
  node: NodeSql,
  alias: string,
  shape: BodyShape,
  keyColumns: readonly string[] | undefined,
  changesOf?: { table: string; key: readonly string[] },
): Statement {
  let keys = keyColumns && keyColumns.length > 0 ? `, (SELECT json_agg(json_build_array(${keyColumns.map((c) => `_k.${ident(c)}`).join(', ')})) FROM _m _k) AS keys` : '';
  // Each changed row before and after: a sibling SELECT in the same statement reads the table as it was
  // before the mutation (its changes are not visible to the rest of the statement).
  if (changesOf) {
    const match = changesOf.key.map((c) => `_o.${ident(c)} = _c.${ident(c)}`).join(' AND ');
    keys += `, (SELECT json_agg(json_build_object('old', (SELECT to_jsonb(_o) FROM ${ident(changesOf.table)} _o WHERE ${match}), 'new', to_jsonb(_c))) FROM _m _c) AS changes`;
  }
  const columns = shape === 'none' ? '' : node.columns.join(', ');
  const text =
    `WITH _m AS (${mutation} RETURNING _0.*), _page AS (SELECT ${columns} FROM _m ${alias}) ` +
    `SELECT NULL::bigint AS total, count(*) AS page_count, ${bodySql(planner, shape)} AS body${keys} FROM _page`;
  return { text, values: planner.params.values };
}

/** A function returning a scalar or a set of scalars: its value as JSON. */
export function scalarFunctionStatement(call: string, returnsSet: boolean, params: Params): Statement {
  const text = returnsSet
    ? `SELECT NULL::bigint AS total, count(*) AS page_count, coalesce(json_agg(_v), '[]')::text AS body FROM ${call} AS _v`
    : `SELECT NULL::bigint AS total, 1 AS page_count, to_json(${call})::text AS body`;
  return { text, values: params.values };
}
