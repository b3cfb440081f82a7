import type { z } from 'zod';
import type { Logger } from '../../platform/logger';

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const HEALTHS = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;
export type Health = (typeof HEALTHS)[number];

/** A change a source reports itself (an event, an audit entry), beside the changes found by comparing. */
export interface ChangeInput {
  externalChangeId?: string;
  changeType: string;
  severity?: Severity;
  source?: string;
  summary?: string;
  details?: unknown;
  createdAt?: Date;
  createdBy?: string;
}

/** An insight a source reports about an item (config_analysis). */
export interface AnalysisInput {
  analyzer: string;
  analysisType?: string;
  severity?: Severity;
  status?: 'open' | 'resolved' | 'silenced';
  message?: string;
  summary?: string;
  source?: string;
  analysis?: unknown;
}

/** What a source found: one config per result, with what the source knows beside it. */
export interface RawResult {
  config: unknown;
  /** Where it came from: a file path, a URL, a query. */
  source?: string;
  /** Values the source knows better than the mapping (the file scraper's Kubernetes detection, …). */
  id?: string;
  name?: string;
  type?: string;
  changes?: ChangeInput[];
  analysis?: AnalysisInput[];
}

/** A reference to another item by type and one of its external ids. */
export interface ItemRef {
  type: string;
  externalId: string;
  /**
   * The id is unique on its own (a Kubernetes uid, or Kind/namespace/name): when no item has this type
   * and id, any item with the id is the one. A scraper that maps `type: $.kind` stores a ReplicaSet as
   * `ReplicaSet`, not `Kubernetes::ReplicaSet`, and its Pods must still find it.
   */
  anyType?: boolean;
}

/** A config item as mapped, before it is stored. */
export interface ScrapedItem {
  /** external_id: the first is the item's own id; items sharing any of them are aliases. */
  externalIds: string[];
  type: string;
  configClass: string | null;
  name: string;
  namespace: string | null;
  description: string | null;
  status: string | null;
  health: Health | null;
  ready: boolean | null;
  labels: Record<string, string>;
  tags: Record<string, string>;
  properties: unknown[] | null;
  config: unknown;
  source: string | null;
  createdAt: Date | null;
  /** Set when the source says the item is gone (deleteFields, a deleted event). */
  deletedAt: Date | null;
  deleteReason: string | null;
  /** Parents, nearest first: the first that exists becomes parent_id. */
  parents: ItemRef[];
  /** Soft edges: from this item to others (outgoing) or from others to it (incoming). */
  relationships: Array<ItemRef & { relation: string; direction: 'outgoing' | 'incoming'; selector: string }>;
  /** transform.relationship rules matched against the catalog after the write. */
  selectors: RelationshipSelector[];
  changes: ChangeInput[];
  analysis: AnalysisInput[];
}

/** Items a rule points at: every field given must match (labels: each pair). */
export interface RelationshipSelector {
  id?: string;
  type?: string;
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  /** The matched item becomes this item's parent instead of a soft edge. */
  parent: boolean;
  relation: string;
  rule: string;
}

/** What a source needs while it runs. */
export interface SourceContext {
  scraperId: string;
  namespace: string;
  signal: AbortSignal;
  log: Logger;
  /** Problems with one result or file that do not stop the others: recorded in the run's errors. */
  error(message: string): void;
}

/**
 * One scraper type (file, sql, http, exec, git, …): reads its entries of the spec and answers raw
 * results; the shared mapping (mapping.ts) turns them into items. Each type lives in sources/<type>.ts
 * and is listed in sources/index.ts.
 */
export interface SourceType<Entry extends Record<string, unknown> = Record<string, unknown>> {
  /** The key under spec (file, sql, …). */
  key: string;
  label: string;
  /**
   * The type's own fields (the shared mapping fields of BaseScraper are checked by mapping.ts): unknown
   * fields are reported as warnings by the spec parser, never dropped silently.
   */
  schema: z.ZodType<Entry>;
  scrape(entry: Entry, ctx: SourceContext): Promise<RawResult[]>;
}

/** A source with its entry type erased: the spec parser checks each entry with the source's schema first. */
export type AnySource = SourceType<Record<string, unknown>>;

/** Registers a source type in sources/index.ts (its entries are checked by its schema before scrape). */
export function defineSource<Entry extends Record<string, unknown>>(source: SourceType<Entry>): AnySource {
  return source as unknown as AnySource;
}
