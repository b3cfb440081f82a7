/**
 * The parsed form of a PostgREST request's query string. The parser produces it without knowing the
 * registry; the planner (sql/) resolves names against the registry and the introspected schema.
 */

/** One step of a JSON path: `->key` (json) or `->>key` (text). Numeric keys index arrays. */
export interface JsonStep {
  arrow: '->' | '->>';
  key: string;
}

/** A column, optionally followed by a JSON path (`data->a->>b`). */
export interface Field {
  name: string;
  path: JsonStep[];
}

export interface ColumnItem {
  kind: 'column';
  field: Field;
  alias?: string;
  cast?: string;
}

export interface StarItem {
  kind: 'star';
}

export interface EmbedItem {
  kind: 'embed';
  /** The relation named in the select (an exposed relation name). */
  relation: string;
  alias?: string;
  /** `!hint`: a relationship name (constraint) or a column of the join. */
  hint?: string;
  /** `!inner`: only parents with at least one matching embedded row. */
  inner: boolean;
  select: SelectItem[];
}

export type SelectItem = ColumnItem | StarItem | EmbedItem;

export const SIMPLE_OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch', 'isdistinct'] as const;
export const RANGE_OPERATORS = ['cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj'] as const;
export const FTS_OPERATORS = ['fts', 'plfts', 'phfts', 'wfts'] as const;
/** Operators that accept an `(any)`/`(all)` quantifier (PostgREST 12). */
export const QUANTIFIABLE = ['eq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch'] as const;

export type SimpleOperator = (typeof SIMPLE_OPERATORS)[number];
export type RangeOperator = (typeof RANGE_OPERATORS)[number];
export type FtsOperator = (typeof FTS_OPERATORS)[number];

export type Predicate =
  | { op: SimpleOperator; value: string; quantifier?: 'any' | 'all' }
  | { op: RangeOperator; value: string }
  | { op: FtsOperator; value: string; language?: string }
  | { op: 'in'; values: string[] }
  | { op: 'is'; value: 'null' | 'not_null' | 'true' | 'false' | 'unknown' };

export interface Condition {
  kind: 'condition';
  field: Field;
  negate: boolean;
  predicate: Predicate;
}

export interface LogicTree {
  kind: 'logic';
  op: 'and' | 'or';
  negate: boolean;
  children: Filter[];
}

export type Filter = Condition | LogicTree;

export interface OrderTerm {
  /** Set for a related order (`agents(name).asc`): the embed alias or relation name. */
  embed?: string;
  field: Field;
  direction: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

/** Filters, order and paging of one node of the select tree ('' is the top level, 'a.b' an embed path). */
export interface NodeModifiers {
  filters: Filter[];
  order?: OrderTerm[];
  limit?: number;
  offset?: number;
}

export interface ParsedQuery {
  select: SelectItem[];
  /** Keyed by embed path: '' for the top-level relation, 'agents' or 'agents.people' for embeds. */
  nodes: Map<string, NodeModifiers>;
  /** `columns=` for POST. */
  columns?: string[];
  /** `on_conflict=` for upserts. */
  onConflict?: string[];
}
