import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { healthEvent } from '../../../common/events';
import { publishMany, type PendingEvent } from '../../platform/jobs/event-queue';
import { compareConfigs, fingerprint, normalize, type Json } from './changes';
import type { AccessSummary } from './access';
import type { ScrapedItem } from './types';
import { ALIAS_PROBE, chunks, ITEM_RECORD, itemRecord, keyOf, metaOf, type ExistingRow, type Planned } from './store-plan';
import { assignPaths, resolveSelectors, Resolver } from './store-resolve';
import { changeFingerprint, storeChanges, type ChangeRow } from './store-changes';
import { configEvent, deletedEvent, type DeletedItem } from './store-events';

// A scrape is stored in steps with their own modules: the plan of each item (store-plan.ts), references
// between items (store-resolve.ts), change rows (store-changes.ts) and the events (store-events.ts).
export { deletedEvent, type DeletedItem } from './store-events';

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
