import { normalize, type Json } from './changes';
import type { ScrapedItem } from './types';

/** A scraped item planned for storing: its row as it is and as it will be, and the helpers that write rows. */

/** Rows per statement: big enough to be few statements, small enough for one parameter each. */
export const CHUNK = 2_000;
/** External ids looked up per alias probe. */
export const ALIAS_PROBE = 100_000;

export interface ExistingRow {
  id: string;
  type: string;
  external_id: string[];
  fingerprint: string | null;
  meta: string;
  deleted_at: Date | null;
  parent_id: string | null;
  path: string;
  health: string | null;
  status: string | null;
}

export interface Planned {
  id: string;
  item: ScrapedItem;
  existing: ExistingRow | undefined;
  normalized: Json;
  fingerprint: string;
  parentId: string | null;
  path: string;
}

export const keyOf = (type: string, externalId: string) => `${type.toLowerCase()}\u0000${externalId}`;

/** The columns compared besides the config: a change in any of them updates the row (no change row). */
export function metaOf(item: { name: string | null; namespace: string | null; description: string | null; status: string | null; health: string | null; ready: boolean | null; configClass: string | null; labels: unknown; tags: unknown; properties: unknown; source: string | null; externalIds: string[] }): string {
  return JSON.stringify(normalize([item.name, item.namespace, item.description, item.status, item.health, item.ready, item.configClass, item.labels, item.tags, item.properties, item.source, item.externalIds]));
}

export function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

export const ITEM_RECORD =
  'id uuid, type text, external_id text[], config_class text, name text, namespace text, description text, status text, ready boolean, health text, ' +
  'source text, labels jsonb, tags jsonb, properties jsonb, config jsonb, fingerprint text, parent_id uuid, path text, created_at timestamptz, ' +
  'deleted_at timestamptz, delete_reason text';

export function itemRecord(plan: Planned, includeConfig: boolean): Record<string, unknown> {
  const { item } = plan;
  return {
    id: plan.id,
    type: item.type,
    external_id: item.externalIds,
    config_class: item.configClass,
    name: item.name,
    namespace: item.namespace,
    description: item.description,
    status: item.status,
    ready: item.ready,
    health: item.health,
    source: item.source,
    labels: item.labels,
    tags: item.tags,
    properties: item.properties,
    config: includeConfig ? plan.normalized : null,
    fingerprint: plan.fingerprint,
    parent_id: plan.parentId,
    path: plan.path,
    created_at: item.createdAt?.toISOString() ?? null,
    deleted_at: item.deletedAt?.toISOString() ?? null,
    delete_reason: item.deletedAt ? item.deleteReason : null,
  };
}
