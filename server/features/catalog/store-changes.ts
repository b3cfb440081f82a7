import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Json } from './changes';
import { chunks } from './store-plan';

/** The change rows a scrape records: one identical to a recent change of the same item counts up that row. */

/** Identical changes within this window are one row with a count. */
const REPEAT_MILLIS = 3_600_000;

export function changeFingerprint(changeType: string, patches: Json): string {
  return createHash('sha256').update(changeType).update('\u0000').update(JSON.stringify(patches)).digest('hex');
}

export interface ChangeRow {
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

export interface InsertedChange {
  id: string;
  config_id: string;
  change_type: string;
  summary: string | null;
  severity: string;
  source: string | null;
  created_at: Date;
}

/** Inserts changes; one identical to a change of the same item within the hour counts up that row instead. */
export async function storeChanges(client: pg.PoolClient, rows: ChangeRow[], now: Date): Promise<{ count: number; inserted: InsertedChange[] }> {
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
