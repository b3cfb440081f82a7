import type pg from 'pg';
import { restoreSecrets } from '../../platform/peers/credentials';
import { AppError } from '../../platform/http/errors';
import { isRecord } from '../../platform/errors';
import { inTransaction, type Queryable } from '../../platform/jobs/db';
import { firstRunAt } from '../../platform/jobs/schedule';
import { publishMany } from '../../platform/jobs/event-queue';
import { parseScraperSpec, type SpecProblem } from './spec';
import { deletedEvent, type DeletedItem } from './store';

export interface ScraperInput {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  description?: string | undefined;
  spec: Record<string, unknown>;
  source: string;
  createdBy?: string | undefined;
}

export interface SavedScraper {
  id: string;
  action: 'created' | 'updated' | 'unchanged';
  warnings: string[];
}

export class ScraperInvalid extends AppError {
  constructor(readonly problems: SpecProblem[]) {
    super('invalid_request', problems.map((p) => `${p.path}: ${p.message}`).join('; '), problems);
  }
}

interface ExistingScraper {
  /** The agent that runs this resource and pushes it here (not one defined here for it), else null. */
  pushed_by?: string | null;
  id: string;
  source: string;
  spec: unknown;
  labels: unknown;
  description: string | null;
}

/**
 * Creates or updates a scraper in the caller's transaction, after checking its whole spec. A new or
 * rescheduled scraper runs first within its interval (spread by name); one created in the console is
 * never taken over by a file or CRD of the same name.
 */
export async function saveScraper(client: pg.PoolClient, input: ScraperInput, options: { id?: string; createOnly?: boolean } = {}): Promise<SavedScraper> {
  const parsed = parseScraperSpec(input.spec);
  if (parsed.errors.length > 0) throw new ScraperInvalid(parsed.errors);
  const found = options.id
    ? await client.query<ExistingScraper>("SELECT id, source, spec, labels, description, (SELECT a.name FROM agents a WHERE a.id = agent_id AND NOT upstream_origin AND agent_id <> '00000000-0000-0000-0000-000000000000') AS pushed_by FROM config_scrapers WHERE id = $1 AND deleted_at IS NULL FOR UPDATE", [options.id])
    : await client.query<ExistingScraper>(
        "SELECT id, source, spec, labels, description FROM config_scrapers WHERE agent_id = agent_target($3::jsonb) AND namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL FOR UPDATE",
        // The agent its label watchkeeper.io/agent names (docs/AGENTS.md), else this console.
        [input.namespace, input.name, JSON.stringify(input.labels)],
      );
  const existing = found.rows[0];
  if (options.id && !existing) throw new AppError('not_found', `scraper ${options.id} not found`);
  if (options.createOnly && existing) {
    throw new AppError('conflict', `metadata.name: a scraper "${input.name}" already exists in the namespace "${input.namespace}"; choose another name or edit that one`);
  }
  if (existing && !options.id && existing.source === 'UI' && input.source !== 'UI') {
    throw new AppError('conflict', `metadata.name: a scraper "${input.namespace}/${input.name}" was created in the console; rename one of them (a console scraper is never taken over)`);
  }
  if (existing?.pushed_by) throw new AppError('conflict', `this scraper runs on the agent "${existing.pushed_by}", which pushes it here: change it on that agent`);
  if (existing && options.id && existing.source !== 'UI' && input.source === 'UI') {
    throw new AppError('conflict', `this scraper comes from ${existing.source}: change it there`);
  }
  const nextRun = parsed.schedule ? firstRunAt(parsed.schedule, new Date(), `${input.namespace}/${input.name}`) : null;
  if (existing) {
    // The editor was shown masked secrets (config_scrapers_shown): a mask saved back keeps the stored secret.
    input = { ...input, spec: restoreSecrets(input.spec, existing.spec) as Record<string, unknown> };
    const same =
      JSON.stringify(existing.spec) === JSON.stringify(input.spec) && JSON.stringify(existing.labels) === JSON.stringify(input.labels) && (existing.description ?? null) === (input.description ?? null);
    await client.query(
      `UPDATE config_scrapers SET name = $2, namespace = $3, labels = $4, spec = $5, schedule = $6, source = $7, description = $9, updated_by = $10,
         next_run_at = CASE WHEN schedule IS DISTINCT FROM $6 THEN coalesce($8::timestamptz, 'infinity') ELSE next_run_at END
       WHERE id = $1`,
      [existing.id, input.name, input.namespace, JSON.stringify(input.labels), JSON.stringify(input.spec), parsed.schedule, input.source, nextRun, input.description ?? null, input.createdBy || null],
    );
    return { id: existing.id, action: same ? 'unchanged' : 'updated', warnings: parsed.warnings };
  }
  const inserted = await client.query<{ id: string }>(
    `INSERT INTO config_scrapers (name, namespace, labels, spec, schedule, source, created_by, updated_by, next_run_at, description)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7, coalesce($8::timestamptz, 'infinity'), $9) RETURNING id`,
    [input.name, input.namespace, JSON.stringify(input.labels), JSON.stringify(input.spec), parsed.schedule, input.source, input.createdBy || null, nextRun, input.description ?? null],
  );
  const row = inserted.rows[0];
  if (!row) throw new Error('scraper insert returned no row');
  return { id: row.id, action: 'created', warnings: parsed.warnings };
}

/**
 * Deletes a scraper (soft); its items are deleted with it (delete_reason SCRAPER_DELETED), their history
 * kept, and a config.deleted published for each, in one transaction.
 */
export async function deleteScraper(pool: pg.Pool, id: string): Promise<boolean> {
  return inTransaction(pool, async (db) => {
    const result = await db.query('UPDATE config_scrapers SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL', [id]);
    if ((result.rowCount ?? 0) === 0) return false;
    const items = await db.query<DeletedItem>(
      `UPDATE config_items SET deleted_at = now(), delete_reason = 'SCRAPER_DELETED' WHERE scraper_id = $1 AND deleted_at IS NULL
       RETURNING id, name, type, namespace, config_class, health, status`,
      [id],
    );
    await publishMany(db, items.rows.map((row) => deletedEvent(row, 'SCRAPER_DELETED')));
    return true;
  });
}

export interface ScraperForRun {
  id: string;
  name: string;
  namespace: string;
  spec: Record<string, unknown>;
  /** Who last saved the spec from the console or the API (null: a file, the system): its capabilities are checked at run. */
  updated_by: string | null;
}

export async function loadScraper(db: Queryable, id: string): Promise<ScraperForRun | undefined> {
  const { rows } = await db.query<{ id: string; name: string; namespace: string; spec: unknown; updated_by: string | null }>(
    'SELECT id, name, namespace, spec, updated_by FROM config_scrapers WHERE id = $1 AND deleted_at IS NULL',
    [id],
  );
  const row = rows[0];
  return row ? { ...row, spec: isRecord(row.spec) ? row.spec : {} } : undefined;
}
