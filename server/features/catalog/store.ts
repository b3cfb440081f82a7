import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { healthEvent } from '../../../common/events';
import { publishMany, type PendingEvent } from '../../platform/jobs/event-queue';
import { compareConfigs, fingerprint, normalize, type Json } from './changes';
import type { AccessSummary } from './access';
import type { ItemRef, RelationshipSelector, ScrapedItem } from './types';

/** What one scrape did (POST /api/config/run answers it; job_history keeps it in details.summary). */
export interface ScrapeSummary {
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  changes: number;
  analysis: number;
  /** spec.full: what the run's access data did (access.ts). */
  access?: AccessSummary;
  errors: string[];
}

export interface StoreOptions {
  scraperId: string;
  /** Shown as the source of the changes it finds: namespace/name. */
  scraperName: string;
  staleMillis: number;
  /**
   * False when a source entry failed as a whole (a database down, a URL not answering): what it returned
   * last time is not "gone", so nothing is deleted as stale in this run.
   */
  deleteStale?: boolean;
  /** The time of this run: items seen get it as last_scraped_time. */
  now: Date;
}

/** Rows per statement: big enough to be few statements, small enough for one parameter each. */
const CHUNK = 2_000;
/** External ids looked up per alias probe. */
const ALIAS_PROBE = 100_000;
/** Identical changes within this window are one row with a count. */
const REPEAT_MILLIS = 3_600_000;

interface ExistingRow {
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

interface Planned {
  id: string;
  item: ScrapedItem;
  existing: ExistingRow | undefined;
  normalized: Json;
  fingerprint: string;
  parentId: string | null;
  path: string;
}

const keyOf = (type: string, externalId: string) => `${type.toLowerCase()}\u0000${externalId}`;

/** The columns compared besides the config: a change in any of them updates the row (no change row). */
function metaOf(item: { name: string | null; namespace: string | null; description: string | null; status: string | null; health: string | null; ready: boolean | null; configClass: string | null; labels: unknown; tags: unknown; properties: unknown; source: string | null; externalIds: string[] }): string {
  return JSON.stringify(normalize([item.name, item.namespace, item.description, item.status, item.health, item.ready, item.configClass, item.labels, item.tags, item.properties, item.source, item.externalIds]));
}

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

const ITEM_RECORD =
  'id uuid, type text, external_id text[], config_class text, name text, namespace text, description text, status text, ready boolean, health text, ' +
  'source text, labels jsonb, tags jsonb, properties jsonb, config jsonb, fingerprint text, parent_id uuid, path text, created_at timestamptz, ' +
  'deleted_at timestamptz, delete_reason text';

function itemRecord(plan: Planned, includeConfig: boolean): Record<string, unknown> {
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

/** Finds items by type and external id (or by id alone for refs with `anyType`): this run's first, then the catalog (not deleted). */
class Resolver {
  private readonly known = new Map<string, { id: string; path: string | undefined }>();
  private readonly looked = new Map<string, { id: string; path: string } | null>();
  /** By external id alone, the first item seen with it (this run's, then the catalog's). */
  private readonly knownById = new Map<string, { id: string; path: string | undefined }>();
  private readonly lookedById = new Map<string, { id: string; path: string }>();

  constructor(plans: Planned[]) {
    for (const plan of plans) {
      for (const externalId of plan.item.externalIds) {
        const found = { id: plan.id, path: undefined };
        this.known.set(keyOf(plan.item.type, externalId), found);
        if (!this.knownById.has(externalId)) this.knownById.set(externalId, found);
      }
    }
  }

  /** Loads every reference not found in this run with one query. */
  async prefetch(client: pg.PoolClient, refs: ItemRef[]): Promise<void> {
    const missing = refs.filter((ref) => !this.known.has(keyOf(ref.type, ref.externalId)) && !this.looked.has(keyOf(ref.type, ref.externalId)));
    if (missing.length === 0) return;
    for (const ref of missing) this.looked.set(keyOf(ref.type, ref.externalId), null);
    for (const part of chunks([...new Set(missing.map((ref) => ref.externalId))])) {
      const { rows } = await client.query<{ id: string; type: string; external_id: string[]; path: string }>(
        'SELECT id, type, external_id, path FROM config_items WHERE external_id && $1::text[] AND deleted_at IS NULL ORDER BY created_at',
        [part],
      );
      for (const row of rows) {
        for (const externalId of row.external_id) {
          const key = keyOf(row.type, externalId);
          if (this.looked.get(key) === null) this.looked.set(key, { id: row.id, path: row.path });
          if (!this.lookedById.has(externalId)) this.lookedById.set(externalId, { id: row.id, path: row.path });
        }
      }
    }
  }

  find(ref: ItemRef): { id: string; path: string | undefined } | undefined {
    const key = keyOf(ref.type, ref.externalId);
    // This run's items first: the same object may also be in the catalog from another scraper.
    const thisRun = this.known.get(key) ?? (ref.anyType ? this.knownById.get(ref.externalId) : undefined);
    return thisRun ?? this.looked.get(key) ?? (ref.anyType ? this.lookedById.get(ref.externalId) : undefined) ?? undefined;
  }
}

/** A dotted path of ancestor ids for every planned item (parents planned in this run resolved first). */
function assignPaths(plans: Planned[], external: Map<string, string>): void {
  const byId = new Map(plans.map((plan) => [plan.id, plan]));
  const done = new Set<string>();
  const visit = (plan: Planned, depth: number): string => {
    if (done.has(plan.id) || depth > 50) return plan.path;
    done.add(plan.id);
    if (!plan.parentId) plan.path = '';
    else {
      const parent = byId.get(plan.parentId);
      const parentPath = parent ? visit(parent, depth + 1) : (external.get(plan.parentId) ?? '');
      plan.path = parentPath ? `${parentPath}.${plan.parentId}` : plan.parentId;
      // A cycle through parents (bad data): cut it here.
      if (plan.path.split('.').includes(plan.id)) {
        plan.parentId = null;
        plan.path = '';
      }
    }
    return plan.path;
  };
  for (const plan of plans) visit(plan, 0);
}

function changeFingerprint(changeType: string, patches: Json): string {
  return createHash('sha256').update(changeType).update('\u0000').update(JSON.stringify(patches)).digest('hex');
}

interface ChangeRow {
  config_id: string;
  config_type: string;
  external_change_id: string | null;
  change_type: string;
  severity: string;
  source: string | null;
  summary: string | null;
  details: unknown;
  patches: Json | null;
  diff: string | null;
  fingerprint: string | null;
  created_by: string | null;
  created_at: string;
}

/**
 * Writes one scrape of one scraper in the caller's transaction: new items inserted, changed ones updated
 * with a change row (unified diff, merge patch, changed paths), unchanged ones only marked seen, parents
 * and relationships resolved by type and external id, reported changes and insights recorded, and items
 * not seen for the stale age deleted (STALE). Identical changes within an hour are counted, not repeated.
 */
export async function storeScrape(client: pg.PoolClient, items: ScrapedItem[], options: StoreOptions): Promise<ScrapeSummary> {
  const summary: ScrapeSummary = { created: 0, updated: 0, unchanged: 0, deleted: 0, changes: 0, analysis: 0, errors: [] };
  const now = options.now;
  await client.query("SELECT pg_advisory_xact_lock(hashtext('config_scraper:' || $1))", [options.scraperId]);

  const existing = new Map<string, ExistingRow>();
  const { rows } = await client.query<ExistingRow>(
    `SELECT id, type, external_id, fingerprint, deleted_at, parent_id, path, health, status,
       jsonb_build_array(name, namespace, description, status, health, ready, config_class, labels, tags, properties, source, external_id)::text AS meta
     FROM config_items WHERE scraper_id = $1`,
    [options.scraperId],
  );
  for (const row of rows) {
    // The live row wins over deleted ones with the same id.
    const key = keyOf(row.type, row.external_id[0] ?? '');
    const seen = existing.get(key);
    if (!seen || (seen.deleted_at && !row.deleted_at)) existing.set(key, row);
  }

  // One item per type and id: a later result of the same id replaces an earlier one.
  const unique = new Map<string, ScrapedItem>();
  for (const item of items) unique.set(keyOf(item.type, item.externalIds[0] ?? ''), item);
  const plans: Planned[] = [...unique.entries()].map(([key, item]) => {
    const found = existing.get(key);
    const normalized = normalize(item.config);
    return { id: found?.id ?? randomUUID(), item, existing: found, normalized, fingerprint: fingerprint(normalized), parentId: null, path: '' };
  });

  // Parents and soft edges, by type and external id.
  const resolver = new Resolver(plans);
  await resolver.prefetch(client, plans.flatMap((plan) => [...plan.item.parents, ...plan.item.relationships]));
  const externalPaths = new Map<string, string>();
  const edges = new Map<string, { config_id: string; related_id: string; relation: string; selector_id: string }>();
  const addEdge = (from: string, to: string, relation: string, selector: string) => {
    if (from === to) return;
    const selectorId = `scraper:${options.scraperId}:${selector}`;
    edges.set(`${from}|${to}|${selectorId}`, { config_id: from, related_id: to, relation, selector_id: selectorId });
  };
  for (const plan of plans) {
    for (const ref of plan.item.parents) {
      const found = resolver.find(ref);
      if (!found || found.id === plan.id) continue;
      if (plan.parentId === null) {
        plan.parentId = found.id;
        if (found.path !== undefined) externalPaths.set(found.id, found.path);
      } else addEdge(found.id, plan.id, 'owner', 'owner');
    }
    for (const ref of plan.item.relationships) {
      const found = resolver.find(ref);
      if (!found) continue;
      if (ref.direction === 'outgoing') addEdge(plan.id, found.id, ref.relation, ref.selector);
      else addEdge(found.id, plan.id, ref.relation, ref.selector);
    }
  }
  await resolveSelectors(client, plans, externalPaths, addEdge);
  assignPaths(plans, externalPaths);

  // Sort out what to write.
  const inserts: Planned[] = [];
  const updates: Planned[] = [];
  const configChanged: Planned[] = [];
  const seenIds: string[] = [];
  // Events, published at the end in this transaction (so they exist if and only if the writes commit).
  const events: PendingEvent[] = [];
  for (const plan of plans) {
    const found = plan.existing;
    if (!found) {
      inserts.push(plan);
      if (plan.item.deletedAt) summary.deleted += 1;
      else {
        summary.created += 1;
        events.push(configEvent('config.created', plan, null));
        // A new item is presumed healthy (as a new check is): any other health is a transition.
        const health = plan.item.health && plan.item.health !== 'healthy' ? healthEvent('config', plan.item.health) : undefined;
        if (health) events.push(configEvent(health, plan, { health: null, status: null }));
      }
      continue;
    }
    const meta = metaOf({ ...plan.item, externalIds: plan.item.externalIds });
    const storedMeta = JSON.stringify(normalize(JSON.parse(found.meta) as unknown));
    const wasDeleted = found.deleted_at !== null;
    const nowDeleted = plan.item.deletedAt !== null;
    const sameConfig = found.fingerprint === plan.fingerprint;
    if (sameConfig && meta === storedMeta && wasDeleted === nowDeleted && found.parent_id === plan.parentId && found.path === plan.path) {
      seenIds.push(plan.id);
      summary.unchanged += 1;
      continue;
    }
    updates.push(plan);
    if (!sameConfig) configChanged.push(plan);
    if (nowDeleted && !wasDeleted) summary.deleted += 1;
    else summary.updated += 1;
    const previous = { health: found.health, status: found.status };
    if (nowDeleted) {
      if (!wasDeleted) events.push(configEvent('config.deleted', plan, previous));
      continue;
    }
    // An item that comes back after it was deleted is announced as created again.
    if (wasDeleted) events.push(configEvent('config.created', plan, previous));
    else if (!sameConfig) events.push(configEvent('config.updated', plan, previous));
    const health = plan.item.health !== found.health ? healthEvent('config', plan.item.health) : undefined;
    if (health) events.push(configEvent(health, plan, previous));
  }

  // New items, parents before children (a parent in a later statement would fail the foreign key).
  inserts.sort((a, b) => (a.path ? a.path.split('.').length : 0) - (b.path ? b.path.split('.').length : 0));
  for (const part of chunks(inserts)) {
    await client.query(
      `INSERT INTO config_items (id, scraper_id, type, external_id, config_class, name, namespace, description, status, ready, health, source, labels, tags,
         properties, config, fingerprint, parent_id, path, created_at, updated_at, last_scraped_time, deleted_at, delete_reason)
       SELECT x.id, $2, x.type, x.external_id, x.config_class, x.name, x.namespace, x.description, x.status, x.ready, x.health, x.source, x.labels, x.tags,
         x.properties, x.config, x.fingerprint, x.parent_id, x.path, coalesce(x.created_at, $3), $3, $3, x.deleted_at, x.delete_reason
       FROM jsonb_to_recordset($1::jsonb) AS x(${ITEM_RECORD})`,
      [JSON.stringify(part.map((plan) => itemRecord(plan, true))), options.scraperId, now],
    );
  }

  // Changed configs: the change against the stored config.
  const changeRows: ChangeRow[] = [];
  const oldConfigs = new Map<string, Json>();
  for (const part of chunks(configChanged)) {
    const { rows: old } = await client.query<{ id: string; config: unknown }>('SELECT id, config FROM config_items WHERE id = ANY($1::uuid[])', [part.map((plan) => plan.id)]);
    for (const row of old) oldConfigs.set(row.id, normalize(row.config));
  }
  for (const plan of configChanged) {
    const change = compareConfigs(oldConfigs.get(plan.id) ?? null, plan.normalized);
    if (!change) continue;
    changeRows.push({
      config_id: plan.id,
      config_type: plan.item.type,
      external_change_id: null,
      change_type: 'diff',
      severity: 'info',
      source: options.scraperName,
      summary: change.summary,
      details: { paths: change.paths },
      patches: change.patches,
      diff: change.diff,
      fingerprint: changeFingerprint('diff', change.patches),
      created_by: null,
      created_at: now.toISOString(),
    });
  }

  for (const part of chunks(updates)) {
    await client.query(
      `UPDATE config_items c SET type = x.type, external_id = x.external_id, config_class = x.config_class, name = x.name, namespace = x.namespace,
         description = x.description, status = x.status, ready = x.ready, health = x.health, source = x.source, labels = x.labels, tags = x.tags,
         properties = x.properties, config = coalesce(x.config, c.config), fingerprint = x.fingerprint, parent_id = x.parent_id, path = x.path,
         updated_at = $2, last_scraped_time = $2, deleted_at = CASE WHEN x.deleted_at IS NULL THEN NULL ELSE coalesce(c.deleted_at, x.deleted_at) END,
         delete_reason = x.delete_reason
       FROM jsonb_to_recordset($1::jsonb) AS x(${ITEM_RECORD}) WHERE c.id = x.id`,
      [JSON.stringify(part.map((plan) => itemRecord(plan, configChanged.includes(plan)))), now],
    );
  }
  for (const part of chunks(seenIds)) {
    await client.query('UPDATE config_items SET last_scraped_time = $2 WHERE id = ANY($1::uuid[])', [part, now]);
  }

  // Changes the source reported itself.
  for (const plan of plans) {
    for (const change of plan.item.changes) {
      changeRows.push({
        config_id: plan.id,
        config_type: plan.item.type,
        external_change_id: change.externalChangeId ?? null,
        change_type: change.changeType,
        severity: change.severity ?? 'info',
        source: change.source ?? options.scraperName,
        summary: change.summary ?? null,
        details: change.details ?? null,
        patches: null,
        diff: null,
        fingerprint: change.externalChangeId ? null : changeFingerprint(change.changeType, normalize([change.summary ?? null, change.details ?? null])),
        created_by: null,
        created_at: (change.createdAt ?? now).toISOString(),
      });
    }
  }
  const byId = new Map(plans.map((plan) => [plan.id, plan]));
  const stored = await storeChanges(client, changeRows, now);
  summary.changes = stored.count;
  for (const change of stored.inserted) {
    const plan = byId.get(change.config_id);
    if (!plan) continue;
    events.push({
      name: 'config.changed',
      properties: {
        ...configEvent('config.changed', plan, plan.existing ? { health: plan.existing.health, status: plan.existing.status } : null).properties,
        change_id: change.id,
        change_type: change.change_type,
        summary: change.summary,
        severity: change.severity,
        source: change.source,
        created_at: change.created_at,
      },
    });
  }

  // Insights: upserted by (item, analyzer); this scraper's open insights not reported again are resolved.
  const analysisRows = plans.flatMap((plan) =>
    plan.item.analysis.map((a) => ({
      config_id: plan.id,
      analyzer: a.analyzer,
      analysis_type: a.analysisType ?? 'other',
      severity: a.severity ?? 'low',
      status: a.status ?? 'open',
      message: a.message ?? null,
      summary: a.summary ?? null,
      source: a.source ?? options.scraperName,
      analysis: a.analysis ?? null,
    })),
  );
  for (const part of chunks(analysisRows)) {
    await client.query(
      `INSERT INTO config_analysis (config_id, scraper_id, analyzer, analysis_type, severity, status, message, summary, source, analysis, first_observed, last_observed)
       SELECT DISTINCT ON (x.config_id, x.analyzer) x.config_id, $2, x.analyzer, x.analysis_type, x.severity, x.status, x.message, x.summary, x.source, x.analysis, $3, $3
       FROM jsonb_to_recordset($1::jsonb) AS x(config_id uuid, analyzer text, analysis_type text, severity text, status text, message text, summary text, source text, analysis jsonb)
       ON CONFLICT (config_id, analyzer) DO UPDATE SET analysis_type = EXCLUDED.analysis_type, severity = EXCLUDED.severity,
         -- A silenced insight stays silenced; one that comes back after it was resolved starts anew.
         status = CASE WHEN config_analysis.status = 'silenced' AND EXCLUDED.status = 'open' THEN 'silenced' ELSE EXCLUDED.status END,
         first_observed = CASE WHEN config_analysis.status = 'resolved' AND EXCLUDED.status = 'open' THEN EXCLUDED.first_observed ELSE config_analysis.first_observed END,
         message = EXCLUDED.message, summary = EXCLUDED.summary, source = EXCLUDED.source, analysis = EXCLUDED.analysis, last_observed = EXCLUDED.last_observed,
         scraper_id = EXCLUDED.scraper_id`,
      [JSON.stringify(part), options.scraperId, now],
    );
  }
  summary.analysis = analysisRows.length;
  await client.query("UPDATE config_analysis SET status = 'resolved' WHERE scraper_id = $1 AND status = 'open' AND last_observed < $2", [options.scraperId, now]);

  // Soft edges: this run's are (re)stamped, the ones it no longer produces are removed.
  const edgeRows = [...edges.values()];
  for (const part of chunks(edgeRows)) {
    await client.query(
      `INSERT INTO config_relationships (config_id, related_id, relation, selector_id, created_at, updated_at)
       SELECT x.config_id, x.related_id, x.relation, x.selector_id, $2, $2 FROM jsonb_to_recordset($1::jsonb) AS x(config_id uuid, related_id uuid, relation text, selector_id text)
       ON CONFLICT (config_id, related_id, selector_id) DO UPDATE SET relation = EXCLUDED.relation, updated_at = EXCLUDED.updated_at, deleted_at = NULL`,
      [JSON.stringify(part), now],
    );
  }
  await client.query("UPDATE config_relationships SET deleted_at = $2 WHERE selector_id LIKE $1 AND deleted_at IS NULL AND updated_at < $2", [`scraper:${options.scraperId}:%`, now]);

  // Aliases: a new item sharing an external id with an item of another scraper, found in one query for all
  // new items (not one join per item: fresh GIN entries sit in a pending list that every probe reads through).
  const newByKey = new Map<string, string[]>();
  for (const plan of inserts) {
    if (plan.item.deletedAt) continue;
    for (const externalId of plan.item.externalIds) {
      const key = keyOf(plan.item.type, externalId);
      newByKey.set(key, [...(newByKey.get(key) ?? []), plan.id]);
    }
  }
  const aliases = new Map<string, { config_id: string; related_id: string }>();
  const newExternalIds = [...new Set(inserts.flatMap((plan) => (plan.item.deletedAt ? [] : plan.item.externalIds)))];
  for (let at = 0; at < newExternalIds.length; at += ALIAS_PROBE) {
    const part = newExternalIds.slice(at, at + ALIAS_PROBE);
    // Few ids: the GIN index. Many (a first run): one pass over the items with a hashed lookup, since an
    // overlap test of every row against thousands of ids, or thousands of index probes, is far slower.
    const { rows: others } = await client.query<{ id: string; type: string; external_id: string[] }>(
      part.length <= 200
        ? 'SELECT id, type, external_id FROM config_items WHERE external_id && $1::text[] AND scraper_id IS DISTINCT FROM $2 AND deleted_at IS NULL'
        : `SELECT c.id, c.type, c.external_id FROM config_items c
           WHERE c.deleted_at IS NULL AND c.scraper_id IS DISTINCT FROM $2 AND EXISTS (SELECT 1 FROM unnest(c.external_id) AS e(id) WHERE e.id = ANY($1::text[]))`,
      [part, options.scraperId],
    );
    for (const other of others) {
      for (const externalId of other.external_id) {
        for (const id of newByKey.get(keyOf(other.type, externalId)) ?? []) aliases.set(`${id}|${other.id}`, { config_id: id, related_id: other.id });
      }
    }
  }
  for (const part of chunks([...aliases.values()])) {
    await client.query(
      `INSERT INTO config_relationships (config_id, related_id, relation, selector_id)
       SELECT x.config_id, x.related_id, 'alias', 'alias' FROM jsonb_to_recordset($1::jsonb) AS x(config_id uuid, related_id uuid)
       ON CONFLICT DO NOTHING`,
      [JSON.stringify(part)],
    );
  }

  // Items not seen for the stale age.
  if (options.deleteStale !== false) {
    const stale = await client.query<DeletedItem>(
      `UPDATE config_items SET deleted_at = $2, delete_reason = 'STALE' WHERE scraper_id = $1 AND deleted_at IS NULL AND last_scraped_time < $3
       RETURNING id, name, type, namespace, config_class, health, status`,
      [options.scraperId, now, new Date(now.getTime() - options.staleMillis)],
    );
    summary.deleted += stale.rowCount ?? 0;
    for (const row of stale.rows) events.push(deletedEvent(row, 'STALE'));
  }
  await publishMany(client, events);
  return summary;
}

/** A config item as config.* events carry it: who it is, and what it was before (`previous`). */
function configEvent(name: string, plan: Planned, previous: { health: string | null; status: string | null } | null): PendingEvent {
  const { item } = plan;
  return {
    name,
    properties: {
      id: plan.id,
      config_id: plan.id,
      name: item.name,
      type: item.type,
      config_class: item.configClass,
      namespace: item.namespace,
      health: item.health,
      status: item.status,
      ...(item.deletedAt ? { delete_reason: item.deleteReason } : {}),
      previous,
    },
  };
}

/** A config item row deleted by a statement (RETURNING these columns). */
export interface DeletedItem {
  id: string;
  name: string | null;
  type: string;
  namespace: string | null;
  config_class: string | null;
  health: string | null;
  status: string | null;
}

/** config.deleted of a row deleted in SQL (stale, or with its scraper). */
export function deletedEvent(row: DeletedItem, reason: string): PendingEvent {
  return {
    name: 'config.deleted',
    properties: {
      id: row.id,
      config_id: row.id,
      name: row.name,
      type: row.type,
      config_class: row.config_class,
      namespace: row.namespace,
      health: row.health,
      status: row.status,
      delete_reason: reason,
      previous: { health: row.health, status: row.status },
    },
  };
}

interface InsertedChange {
  id: string;
  config_id: string;
  change_type: string;
  summary: string | null;
  severity: string;
  source: string | null;
  created_at: Date;
}

/** Inserts changes; one identical to a change of the same item within the hour counts up that row instead. */
async function storeChanges(client: pg.PoolClient, rows: ChangeRow[], now: Date): Promise<{ count: number; inserted: InsertedChange[] }> {
  const inserted: InsertedChange[] = [];
  if (rows.length === 0) return { count: 0, inserted };
  const withPrint = rows.filter((row) => row.fingerprint !== null);
  const repeats = new Map<string, string>();
  for (const part of chunks(withPrint)) {
    const { rows: found } = await client.query<{ id: string; config_id: string; fingerprint: string }>(
      `SELECT DISTINCT ON (config_id, fingerprint) id, config_id, fingerprint FROM config_changes
       WHERE config_id = ANY($1::uuid[]) AND fingerprint = ANY($2::text[]) AND created_at > $3 ORDER BY config_id, fingerprint, created_at DESC`,
      [part.map((row) => row.config_id), part.map((row) => row.fingerprint), new Date(now.getTime() - REPEAT_MILLIS)],
    );
    for (const row of found) repeats.set(`${row.config_id}|${row.fingerprint}`, row.id);
  }
  const counted: string[] = [];
  const fresh: ChangeRow[] = [];
  for (const row of rows) {
    const repeat = row.fingerprint ? repeats.get(`${row.config_id}|${row.fingerprint}`) : undefined;
    if (repeat) counted.push(repeat);
    else fresh.push(row);
  }
  if (counted.length > 0) {
    await client.query(
      'UPDATE config_changes c SET count = c.count + x.n, created_at = $2 FROM (SELECT id, count(*)::int AS n FROM unnest($1::uuid[]) AS id GROUP BY id) x WHERE c.id = x.id',
      [counted, now],
    );
  }
  for (const part of chunks(fresh)) {
    const result = await client.query<InsertedChange>(
      `INSERT INTO config_changes (config_id, config_type, external_change_id, change_type, severity, source, summary, details, patches, diff, fingerprint, created_by, created_at, first_observed)
       SELECT x.config_id, x.config_type, x.external_change_id, x.change_type, x.severity, x.source, x.summary, x.details, x.patches, x.diff, x.fingerprint, x.created_by, x.created_at, x.created_at
       FROM jsonb_to_recordset($1::jsonb) AS x(config_id uuid, config_type text, external_change_id text, change_type text, severity text, source text, summary text,
         details jsonb, patches jsonb, diff text, fingerprint text, created_by uuid, created_at timestamptz)
       ON CONFLICT (config_id, external_change_id) WHERE external_change_id IS NOT NULL DO NOTHING
       RETURNING id, config_id, change_type, summary, severity, source, created_at`,
      [JSON.stringify(part)],
    );
    inserted.push(...result.rows);
  }
  // A counted repeat is no new row: config.changed is for recorded rows only.
  return { count: inserted.length + counted.length, inserted };
}

/** transform.relationship rules: matched against this run's items and, one query per distinct selector, the catalog. */
async function resolveSelectors(
  client: pg.PoolClient,
  plans: Planned[],
  externalPaths: Map<string, string>,
  addEdge: (from: string, to: string, relation: string, selector: string) => void,
): Promise<void> {
  const selectorKey = (s: RelationshipSelector) => JSON.stringify([s.id ?? null, s.type ?? null, s.name ?? null, s.namespace ?? null, s.labels ?? null]);
  const bySelector = new Map<string, { selector: RelationshipSelector; owners: Array<{ plan: Planned; rule: RelationshipSelector }> }>();
  for (const plan of plans) {
    for (const selector of plan.item.selectors) {
      const key = selectorKey(selector);
      const entry = bySelector.get(key) ?? { selector, owners: [] };
      entry.owners.push({ plan, rule: selector });
      bySelector.set(key, entry);
    }
  }
  if (bySelector.size === 0) return;
  const matchesPlan = (s: RelationshipSelector, plan: Planned) =>
    (s.id === undefined || plan.item.externalIds.includes(s.id) || plan.id === s.id) &&
    (s.type === undefined || plan.item.type.toLowerCase() === s.type.toLowerCase()) &&
    (s.name === undefined || plan.item.name === s.name) &&
    (s.namespace === undefined || plan.item.namespace === s.namespace) &&
    (s.labels === undefined || Object.entries(s.labels).every(([key, value]) => plan.item.labels[key] === value)) &&
    !plan.item.deletedAt;
  for (const { selector, owners } of bySelector.values()) {
    const { rows } = await client.query<{ id: string; path: string }>(
      `SELECT id, path FROM config_items WHERE deleted_at IS NULL
         AND ($1::text IS NULL OR $1 = ANY(external_id) OR id::text = $1)
         AND ($2::text IS NULL OR lower(type) = lower($2))
         AND ($3::text IS NULL OR name = $3)
         AND ($4::text IS NULL OR namespace = $4)
         AND ($5::jsonb IS NULL OR labels @> $5)
       LIMIT 1000`,
      [selector.id ?? null, selector.type ?? null, selector.name ?? null, selector.namespace ?? null, selector.labels ? JSON.stringify(selector.labels) : null],
    );
    const targets = new Map<string, string | undefined>(rows.map((row) => [row.id, row.path]));
    for (const plan of plans) if (matchesPlan(selector, plan)) targets.set(plan.id, undefined);
    for (const { plan: owner, rule } of owners) {
      for (const [id, path] of targets) {
        if (id === owner.id) continue;
        if (rule.parent && owner.parentId === null) {
          owner.parentId = id;
          if (path !== undefined) externalPaths.set(id, path);
        } else addEdge(owner.id, id, rule.relation, rule.rule);
      }
    }
  }
}
