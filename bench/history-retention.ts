// History that stays cheap (issue 37): one UTC day of 10,000 checks every 30 s (28.8M raw results) is loaded
// into its daily partition of check_statuses, past the retention, beside an hour of today's results; then the
// retention job (CheckStatusRetention, the code the scheduler runs) is timed dropping that day. Prints the
// figure (in all, and the part that held locks others wait for), the sizes of check_statuses, its partitions and the database before and after (nothing of the day
// may be left, and nothing dead in what stays), and for comparison the old way, rows deleted 1,000 a statement,
// timed on a sample of the same day.
//
// The day is generated in the database (INSERT … SELECT generate_series) into a table that is then attached as
// the day's partition, as a bulk load would (the key and indexes are built once, the foreign key checked in
// one pass); today's hour goes through check_statuses with the rollup trigger off, as bench/health.ts seeds.
//
// Database: TEST_DATABASE_URL's server (a fresh database is made beside it, and dropped after), else the
// embedded engine in a temporary data directory.
// Run: npx tsx bench/history-retention.ts [checks=10000]
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { CHECK_STATUS_RETENTION, checkStatusRetentionJob } from '../server/features/health/retention';
import { listPartitions } from '../server/features/health/partitions';
import { migrate } from '../server/platform/db/migrate';
import { createPool } from '../server/platform/db/pool';
import type { JobRun } from '../server/platform/jobs/job-run';
import { createLogger } from '../server/platform/logger';
import { withEmbedded, type BenchDatabase } from './_db';

const CHECKS = Number(process.argv[2] ?? 10_000);
if (!Number.isInteger(CHECKS) || CHECKS < 1) {
  process.stderr.write(`checks must be a whole number of 1 or more, not ${JSON.stringify(process.argv[2])}\n`);
  process.exit(2);
}
const PER_DAY = 2880; // one result every 30 s
const SAMPLE_ROWS = Math.min(200_000, Math.max(10_000, Math.floor((CHECKS * PER_DAY) / 100)));
const TARGET_MS = 1000;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const duration = (s: number) => (s < 90 ? `${Math.round(s)} s` : `${Math.round(s / 60)} min`);
const out = (line = '') => process.stdout.write(`${line}\n`);

interface Sizes {
  heap: number;
  indexes: number;
  total: number;
  database: number;
  partitions: Array<{ name: string; total: number; rows: number | null }>;
}

async function sizes(pool: pg.Pool): Promise<Sizes> {
  const { rows } = await pool.query<{ heap: string; indexes: string; total: string; database: string }>(
    `SELECT sum(pg_table_size(relid))::text AS heap, sum(pg_indexes_size(relid))::text AS indexes, sum(pg_total_relation_size(relid))::text AS total,
            pg_database_size(current_database())::text AS database
       FROM pg_partition_tree('check_statuses') WHERE isleaf`,
  );
  const partitions = (await listPartitions(pool)).filter((partition) => partition.bytes > 16_384 * 4 || partition.name.endsWith('default'));
  const row = rows[0];
  return {
    heap: Number(row?.heap),
    indexes: Number(row?.indexes),
    total: Number(row?.total),
    database: Number(row?.database),
    partitions: partitions.map((partition) => ({ name: partition.name, total: partition.bytes, rows: partition.rowsEstimate })),
  };
}

function printSizes(label: string, s: Sizes): void {
  out(`${label}: check_statuses ${mb(s.total)} (tables ${mb(s.heap)}, indexes ${mb(s.indexes)}); database ${mb(s.database)}`);
  for (const partition of s.partitions) out(`  ${partition.name}: ${mb(partition.total)}${partition.rows === null ? '' : `, about ${partition.rows.toLocaleString('en-US')} rows`}`);
}

/** A JobRun for one run of the job in this process (no job history row: the figure is the job's own work). */
function benchRun(pool: pg.Pool): JobRun & { summaryValues: Record<string, unknown>; warnings: string[]; count: number } {
  const state = {
    name: 'CheckStatusRetention',
    pool,
    log: createLogger('warn'),
    signal: new AbortController().signal,
    scheduledFor: undefined,
    summaryValues: {} as Record<string, unknown>,
    warnings: [] as string[],
    count: 0,
    success(count = 1) {
      state.count += count;
    },
    error(error: unknown) {
      throw error;
    },
    warn(message: string) {
      state.warnings.push(message);
    },
    summary(values: Record<string, unknown>) {
      Object.assign(state.summaryValues, values);
    },
    skip(reason: string): never {
      throw new Error(`skipped: ${reason}`);
    },
  };
  return state;
}

async function seed(pool: pg.Pool): Promise<{ day: string; rows: number }> {
  await pool.query(`INSERT INTO canaries (name, schedule, source) SELECT 'bench-retention-' || g, NULL, 'bench' FROM generate_series(1, $1) g`, [Math.ceil(CHECKS / 10)]);
  await pool.query(
    `INSERT INTO checks (canary_id, key, type, name)
     SELECT c.id, 'http/check-' || n, 'http', 'check-' || n
       FROM generate_series(1, $1) n
       JOIN (SELECT id, row_number() OVER (ORDER BY name) AS r FROM canaries WHERE source = 'bench') c ON c.r = (n - 1) / 10 + 1`,
    [CHECKS],
  );
  // The day: two days past the default retention of 30 days (UTC).
  const day = (await pool.query<{ day: string }>(`SELECT to_char((now() AT TIME ZONE 'UTC')::date - $1::int, 'YYYY-MM-DD') AS day`, [CHECK_STATUS_RETENTION.defaultValue + 2])).rows[0]?.day as string;
  const part = `check_statuses_${day.replace(/-/g, '')}`;
  const started = Date.now();
  await pool.query(`CREATE TABLE check_history.${part} (LIKE check_statuses INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
  await pool.query(`ALTER TABLE check_history.${part} ADD CONSTRAINT ${part}_bounds CHECK (time >= '${day}T00:00:00Z' AND time < '${day}T00:00:00Z'::timestamptz + interval '1 day')`);
  // In time order, every check every 30 s (each check at its own offset in the 30 s), 2% failing with a message.
  await pool.query(
    `INSERT INTO check_history.${part} (check_id, time, status, duration, message, created_at)
     SELECT c.id, t.at + c.offset_ms * interval '1 millisecond', (c.n + t.k) % 50 <> 0, 20 + (c.n * 7 + t.k * 13) % 400,
            CASE WHEN (c.n + t.k) % 50 = 0 THEN 'connection refused' END, t.at + c.offset_ms * interval '1 millisecond'
       FROM generate_series(0, ${PER_DAY - 1}) AS t0(k)
       CROSS JOIN LATERAL (SELECT t0.k, '${day}T00:00:00Z'::timestamptz + t0.k * interval '30 seconds' AS at) t
       CROSS JOIN (SELECT id, row_number() OVER (ORDER BY id) AS n, (row_number() OVER (ORDER BY id) * 2999) % 30000 AS offset_ms FROM checks) c
      ORDER BY t.k, c.offset_ms`,
  );
  const loaded = Date.now();
  await pool.query(`ALTER TABLE check_statuses ATTACH PARTITION check_history.${part} FOR VALUES FROM ('${day}T00:00:00Z') TO ('${day}T00:00:00Z'::timestamptz + interval '1 day')`);
  await pool.query(`ALTER TABLE check_history.${part} DROP CONSTRAINT ${part}_bounds`);
  const attached = Date.now();
  // The last hour of today, through check_statuses (the rollups are not what is measured here).
  await pool.query('ALTER TABLE check_statuses DISABLE TRIGGER check_statuses_rollup');
  await pool.query('ALTER TABLE check_statuses DISABLE TRIGGER organization_from_parent');
  await pool.query(
    `INSERT INTO check_statuses (check_id, time, status, duration)
     SELECT c.id, date_trunc('minute', now()) - interval '1 hour' + k * interval '30 seconds', true, 25
       FROM generate_series(0, 119) k CROSS JOIN checks c ORDER BY k`,
  );
  await pool.query('ALTER TABLE check_statuses ENABLE TRIGGER organization_from_parent');
  await pool.query('ALTER TABLE check_statuses ENABLE TRIGGER check_statuses_rollup');
  await pool.query('VACUUM ANALYZE check_statuses');
  const rows = Number((await pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM check_history.${part}`)).rows[0]?.n);
  out(
    `loaded ${rows.toLocaleString('en-US')} results of ${day} (${CHECKS.toLocaleString('en-US')} checks every 30 s) in ${seconds(loaded - started)}, ` +
      `attached (key, indexes, foreign key) in ${seconds(attached - loaded)}; ${(CHECKS * 120).toLocaleString('en-US')} results in the last hour; all in ${seconds(Date.now() - started)}`,
  );
  return { day, rows };
}

/**
 * The old way on a sample of the day: rows deleted 1,000 a statement, as the retention job did before partitions
 * (on the day's table itself, as on the one table it was then).
 */
async function rowWiseSample(pool: pg.Pool, day: string): Promise<{ ms: number; rows: number; dead: number }> {
  const part = `check_statuses_${day.replace(/-/g, '')}`;
  // One connection, so that its statistics can be flushed before they are read.
  const client = await pool.connect();
  try {
    const started = Date.now();
    let rows = 0;
    while (rows < SAMPLE_ROWS) {
      const { rowCount } = await client.query(
        `DELETE FROM check_history.${part} WHERE (check_id, time) IN (
           SELECT check_id, time FROM check_history.${part} WHERE time < now() - interval '30 days' LIMIT 1000)`,
      );
      rows += rowCount ?? 0;
      if ((rowCount ?? 0) < 1000) break;
    }
    const ms = Date.now() - started;
    await client.query('SELECT pg_stat_force_next_flush()');
    await client.query('SELECT 1');
    const dead = Number((await client.query<{ n: string }>(`SELECT n_dead_tup::text AS n FROM pg_stat_user_tables WHERE schemaname = 'check_history' AND relname = $1`, [part])).rows[0]?.n ?? 0);
    return { ms, rows, dead };
  } finally {
    client.release();
  }
}

async function measure(db: BenchDatabase): Promise<void> {
  out(`database: ${db.label}`);
  const { day, rows } = await seed(db.pool);
  const before = await sizes(db.pool);
  printSizes('before', before);

  const sample = await rowWiseSample(db.pool, day);
  const perSecond = sample.rows / Math.max(0.001, sample.ms / 1000);
  out(
    `old way (DELETE 1,000 rows a statement), on a sample: ${sample.rows.toLocaleString('en-US')} rows in ${seconds(sample.ms)} ` +
      `(${Math.round(perSecond).toLocaleString('en-US')} rows/s; the whole day would take about ${duration(rows / perSecond)}) ` +
      `and left ${sample.dead.toLocaleString('en-US')} dead rows for vacuum`,
  );

  // The day is a month old when retention comes: its files were written out long ago. A checkpoint writes
  // them now, so that the figure does not count writing what the load just left in memory.
  await db.pool.query('CHECKPOINT');
  const run = benchRun(db.pool);
  const started = performance.now();
  await checkStatusRetentionJob().run(run);
  const ms = performance.now() - started;
  const after = await sizes(db.pool);
  printSizes('after', after);
  const deadLeft = Number((await db.pool.query<{ n: string }>(`SELECT coalesce(sum(n_dead_tup), 0)::text AS n FROM pg_stat_user_tables WHERE schemaname = 'check_history'`)).rows[0]?.n ?? 0);
  const leftOfDay = Number((await db.pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM check_statuses WHERE time >= $1::date AND time < $1::date + 1`, [day])).rows[0]?.n ?? 0);
  out(`retention summary: ${JSON.stringify(run.summaryValues)}${run.warnings.length ? `; warnings: ${run.warnings.join('; ')}` : ''}`);
  const lockMs = Number(run.summaryValues.lock_ms ?? NaN);
  out(
    `RETENTION of one day (${(rows - sample.rows).toLocaleString('en-US')} rows, ${mb(before.total - after.total)} freed): ${ms.toFixed(0)} ms in all ` +
      `(target <= ${TARGET_MS} ms: ${ms <= TARGET_MS ? 'met' : 'MISSED'}), of which ${lockMs} ms held locks others wait for (detaching the day ` +
      `from check_statuses, dropping its foreign key to checks); the rest is dropping the detached table, the file system freeing its files; rows of the day left: ${leftOfDay}; dead rows left in the partitions: ${deadLeft}`,
  );
}

/** TEST_DATABASE_URL's server: a fresh database beside it for this run, dropped after. */
async function withTestServer(url: string, work: (db: BenchDatabase) => Promise<void>): Promise<void> {
  const admin = new URL(url);
  const name = `${admin.pathname.slice(1) || 'watchkeeper'}_bench_retention_${randomBytes(4).toString('hex')}`;
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const pool = createPool(target.toString(), createLogger('error'), { max: 4 });
  try {
    await migrate(pool, createLogger('warn'));
    const version = (await pool.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version;
    await work({ pool, url: target.toString(), label: `PostgreSQL ${version} of TEST_DATABASE_URL (database ${name})` });
  } finally {
    await pool.end();
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
    await client.end();
  }
}

const url = process.env.TEST_DATABASE_URL;
await (url ? withTestServer(url, measure) : withEmbedded('history-retention', measure));
