import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/db';
import { migrate, readMigrations } from '../../../platform/db/migrate';
import { createPool } from '../../../platform/db/pool';
import { createLogger } from '../../../platform/logger';
import { installOutbox } from '../../agents';
import { checkGraph } from '../graph';
import { listPartitions } from '../partitions';
import { checksSummary } from '../summary';

/**
 * The migration that partitions check_statuses (…_check_statuses_partitions.sql) on a database that already
 * holds results: migrated to the migration before it, filled with results over several days (and one far
 * back, one ahead), as an agent (its push triggers installed) with an organization's check; then migrated
 * to the end. Every row must be there, the rollups the same, the reads answer the same, and new results
 * roll up once.
 */
const log = createLogger('silent');
let db: TestDatabase;
let dir: string;
const canary = '11111111-1111-4111-8111-111111111111';
const checks = ['22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333'];
const organization = '44444444-4444-4444-8444-444444444444';
const TARGET = /_check_statuses_partitions$/;

/** Every row of the raw history, in key order, as text. */
const fingerprint = async (pool: pg.Pool) =>
  (await pool.query<{ rows: string; n: number }>(
    `SELECT count(*)::int AS n, md5(string_agg(s::text, '|' ORDER BY s.check_id, s.time)) AS rows
       FROM (SELECT check_id, time, status, invalid, duration, message, error, details, created_at, organization_id FROM check_statuses) s`,
  )).rows[0];

const rollups = async (pool: pg.Pool) => {
  const out: Record<string, unknown> = {};
  for (const table of ['check_totals', 'check_rollups_10m', 'check_rollups_hourly', 'check_rollups_daily']) {
    out[table] = (await pool.query(`SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) AS h, count(*)::int AS n FROM ${table} t`)).rows[0];
  }
  return out;
};

/** The health reads over the raw results: a day's summary of both checks and a check's two-day graph. */
async function reads(url: string, now: Date) {
  // A pool of its own: the summary keeps totals in memory per pool.
  const pool = createPool(url, log, { max: 4 });
  try {
    const from = new Date(now.getTime() - 86_400_000);
    const summary = await checksSummary(pool, { from, to: now, limit: 10, offset: 0, checkIds: checks });
    const graph = await checkGraph(pool, checks[0] as string, new Date(now.getTime() - 2 * 86_400_000), now);
    const history = (await pool.query('SELECT time, status, duration FROM check_statuses WHERE check_id = $1 ORDER BY time DESC LIMIT 50', [checks[1]])).rows;
    return {
      summary: summary.checks_summary.map((check) => ({ id: check.id, uptime: check.uptime, latency: check.latency })),
      source: summary.source,
      graph: { status: graph.status, uptime: graph.uptime, latency: graph.latency },
      history,
    };
  } finally {
    await pool.end();
  }
}

beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-partitions-'));
  const all = await readMigrations();
  const target = all.findIndex((migration) => TARGET.test(migration.name));
  expect(target).toBeGreaterThan(0);
  for (const migration of all.slice(0, target)) await fs.writeFile(path.join(dir, `${migration.name}.sql`), migration.sql);
});

afterAll(async () => {
  await db?.drop();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe('partitioning an existing check history', () => {
  it('keeps every row, the rollups, the grants, the triggers and the answers; new results roll up once', async () => {
    await migrate(db.pool, log, dir);
    expect((await db.pool.query("SELECT relkind::text FROM pg_class WHERE oid = 'check_statuses'::regclass")).rows[0]?.relkind).toBe('r');
    await db.pool.query(`INSERT INTO canaries (id, name) VALUES ($1, 'before-partitions')`, [canary]);
    await db.pool.query(`INSERT INTO checks (id, canary_id, key, type, name) VALUES ($1, $3, 'http/a', 'http', 'a'), ($2, $3, 'tcp/b', 'tcp', 'b')`, [...checks, canary]);
    await db.pool.query('UPDATE checks SET organization_id = $2 WHERE id = $1', [checks[1], organization]);
    // An agent: its push triggers are on check_statuses and must stay (else its next start pushes everything again).
    await installOutbox(db.pool, { upstream: 'http://upstream.test', agentName: 'edge-1' });
    await db.pool.query('DELETE FROM agent_push_queue');
    // One result 40 days back, five days of results every 10 minutes for both checks (in time order, through the
    // rollup trigger), one with a message and details, and one a day ahead (a clock ahead).
    await db.pool.query(
      `INSERT INTO check_statuses (check_id, time, status, duration, message, error, details)
       SELECT c, t, s, d, m, e, x FROM (
         SELECT $1::uuid AS c, date_trunc('minute', now()) - interval '40 days' AS t, true AS s, 12 AS d, NULL AS m, NULL AS e, NULL::jsonb AS x
         UNION ALL
         SELECT c.id, date_trunc('minute', now()) - interval '5 days' + g * interval '10 minutes', g % 7 <> 0, (10 + g % 90)::int,
                CASE WHEN g % 7 = 0 THEN 'failed ' || g END, CASE WHEN g % 7 = 0 THEN 'timeout' END,
                CASE WHEN g = 100 THEN jsonb_build_object('code', 503, 'body', 'busy') END
           FROM generate_series(0, 719) g, unnest($2::uuid[]) AS c(id)
         UNION ALL
         SELECT $1::uuid, now() + interval '1 day', false, 3, 'ahead', NULL, NULL
       ) r ORDER BY t`,
      [checks[0], checks],
    );
    const queued = (await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM agent_push_queue WHERE table_name = 'check_statuses'")).rows[0]?.n;
    expect(queued).toBe(1442);
    await db.pool.query('DELETE FROM agent_push_queue');
    const now = new Date((await db.pool.query<{ now: Date }>("SELECT date_trunc('minute', now()) AS now")).rows[0]!.now.getTime());
    const before = { rows: await fingerprint(db.pool), rollups: await rollups(db.pool), reads: await reads(db.url, now) };
    expect(before.rows?.n).toBe(1442);
    expect((before.reads.summary[0]?.uptime.passed ?? 0) + (before.reads.summary[0]?.uptime.failed ?? 0)).toBeGreaterThan(100);
    const orgRows = (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM check_statuses WHERE organization_id = $1', [organization])).rows[0]?.n;
    expect(orgRows).toBe(720);

    const applied = await migrate(db.pool, log);
    expect(applied.applied.some((name) => TARGET.test(name))).toBe(true);

    // Partitioned by day: a partition for every day with results and the week ahead, plus the default one (empty).
    expect((await db.pool.query("SELECT relkind::text FROM pg_class WHERE oid = 'check_statuses'::regclass")).rows[0]?.relkind).toBe('p');
    const partitions = await listPartitions(db.pool);
    const days = (await db.pool.query<{ name: string }>(
      `SELECT DISTINCT 'check_statuses_' || to_char(d, 'YYYYMMDD') AS name FROM (
         SELECT (time AT TIME ZONE 'UTC')::date AS d FROM check_statuses
         UNION SELECT generate_series((now() AT TIME ZONE 'UTC')::date, (now() AT TIME ZONE 'UTC')::date + 7, interval '1 day')::date) x ORDER BY 1`,
    )).rows.map((row) => row.name);
    expect(partitions.map((partition) => partition.name)).toEqual([...days, 'check_statuses_default']);
    for (const partition of partitions.slice(0, -1)) expect((partition.to?.getTime() ?? 0) - (partition.from?.getTime() ?? 0)).toBe(86_400_000);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM check_history.check_statuses_default')).rows[0]?.n).toBe(0);

    // Not a row lost or changed; the rollups untouched; the reads answer the same.
    expect(await fingerprint(db.pool)).toEqual(before.rows);
    expect(await rollups(db.pool)).toEqual(before.rollups);
    expect(await reads(db.url, now)).toEqual(before.reads);
    expect((await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM check_statuses WHERE organization_id = $1', [organization])).rows[0]?.n).toBe(720);

    // The key, the foreign key, the organization's policy and the tenant's grants are there again (PostgreSQL
    // 18 also lists NOT NULL as constraints, contype 'n': the columns' NOT NULL is the table's, not the migration's).
    const constraints = (await db.pool.query<{ conname: string }>("SELECT conname FROM pg_constraint WHERE conrelid = 'check_statuses'::regclass AND contype <> 'n' ORDER BY 1")).rows.map((row) => row.conname);
    expect(constraints).toEqual(['check_statuses_check_id_fkey', 'check_statuses_duration_check', 'check_statuses_pkey']);
    const policy = (await db.pool.query("SELECT relrowsecurity AS rls, EXISTS (SELECT 1 FROM pg_policy WHERE polrelid = c.oid AND polname = 'organization_rows') AS policy FROM pg_class c WHERE oid = 'check_statuses'::regclass")).rows[0];
    expect(policy).toEqual({ rls: true, policy: true });
    const grants = (await db.pool.query<{ ok: boolean }>("SELECT has_table_privilege('watchkeeper_tenant', 'check_statuses', 'SELECT, INSERT, UPDATE, DELETE') AS ok")).rows[0]?.ok;
    expect(grants).toBe(true);
    const triggers = (await db.pool.query<{ tgname: string }>("SELECT tgname FROM pg_trigger WHERE tgrelid = 'check_statuses'::regclass AND NOT tgisinternal ORDER BY 1")).rows.map((row) => row.tgname);
    expect(triggers).toEqual(['agent_push_delete', 'agent_push_insert', 'agent_push_update', 'check_statuses_rollup', 'organization_from_parent', 'organization_same_parent']);
    // The agent's next start finds its triggers complete: nothing is queued again.
    expect((await installOutbox(db.pool, { upstream: 'http://upstream.test', agentName: 'edge-1' })).refilled).toBe(0);

    // A new result: stored in today's partition, rolled up once, queued for the upstream once, its organization set.
    const totals = async () => (await db.pool.query<{ n: string }>('SELECT passed + failed AS n FROM check_totals WHERE check_id = $1', [checks[1]])).rows[0]?.n;
    const totalBefore = Number(await totals());
    await db.pool.query('INSERT INTO check_statuses (check_id, time, status, duration) VALUES ($1, now(), true, 7)', [checks[1]]);
    expect(Number(await totals())).toBe(totalBefore + 1);
    const stored = (await db.pool.query('SELECT tableoid::regclass::text AS part, organization_id FROM check_statuses WHERE check_id = $1 ORDER BY time DESC LIMIT 1', [checks[1]])).rows[0];
    expect(stored).toEqual({ part: `check_history.check_statuses_${new Date().toISOString().slice(0, 10).replace(/-/g, '')}`, organization_id: organization });
    expect((await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM agent_push_queue WHERE table_name = 'check_statuses'")).rows[0]?.n).toBe(1);
  });
});
