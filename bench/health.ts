// Health statistics at scale (issue 4): 10,000 checks with one day of one-minute raw results (14.4M rows),
// 7 days of hourly and 90 days of daily rollups. Prints the summary's p50/p95 for 1h, 24h, 30d and 90d,
// and the storage per check per day. Runs on the embedded engine, and also on an external PostgreSQL when
// BENCH_DATABASE_URL names an (empty, disposable) database.
// Run: npx tsx bench/health.ts [checks=10000]
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { checksSummary } from '../server/features/health/summary';
import { ensureEmbedded } from '../server/platform/db/embedded';
import { migrate } from '../server/platform/db/migrate';
import { createPool } from '../server/platform/db/pool';
import { createLogger } from '../server/platform/logger';

const CHECKS = Number(process.argv[2] ?? 10_000);
const RUNS = 15;

function stats(samples: number[]): { p50: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: at(0.5), p95: at(0.95) };
}

/**
 * Seeds with triggers off and the rollups computed in bulk (the same cumulative values the trigger keeps),
 * because 14.4M one-by-one trigger runs would take hours and measure the loader, not the reader.
 */
async function seed(pool: pg.Pool): Promise<void> {
  const started = Date.now();
  await pool.query(`INSERT INTO canaries (id, name, spec, schedule, next_run_at) SELECT gen_random_uuid(), 'canary-' || g, '{}', NULL, 'infinity' FROM generate_series(1, ${Math.ceil(CHECKS / 10)}) g`);
  await pool.query(`
    INSERT INTO checks (canary_id, key, type, name, namespace, labels, status, last_runtime)
    SELECT c.id, 'http/check-' || n, CASE WHEN n % 3 = 0 THEN 'tcp' ELSE 'http' END, 'check-' || n, 'ns-' || (n % 20),
           jsonb_build_object('team', 'team-' || (n % 7), 'env', CASE WHEN n % 2 = 0 THEN 'prod' ELSE 'staging' END),
           CASE WHEN n % 50 = 0 THEN 'unhealthy' ELSE 'healthy' END, now()
      FROM generate_series(1, ${CHECKS}) n
      JOIN LATERAL (SELECT id FROM canaries ORDER BY name OFFSET (n - 1) / 10 LIMIT 1) c ON true`);
  await pool.query('ALTER TABLE check_statuses DISABLE TRIGGER check_statuses_rollup');
  // One fixed instant for every batch (now() moves between statements).
  const base = `'${new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString()}'::timestamptz`;
  // One day of one-minute results, hour by hour (bounded transactions).
  for (let hour = 0; hour < 24; hour += 1) {
    await pool.query(`
      INSERT INTO check_statuses (check_id, time, status, duration)
      SELECT c.id, ${base} - make_interval(mins => m), random() > 0.01 + (c.n % 50 = 0)::int * 0.5, (20 + random() * 200 * (1 + c.n % 5))::int
        FROM generate_series(${hour * 60}, ${hour * 60 + 59}) m,
             (SELECT id, row_number() OVER (ORDER BY id) AS n FROM checks) c`);
  }
  await pool.query('ALTER TABLE check_statuses ENABLE TRIGGER check_statuses_rollup');
  // Rollups: per bucket counts and a histogram around each check's typical latency, then running totals.
  // Daily rows for 90 days, hourly for 7 and 10-minute ones for 2, as retention keeps them; the 10-minute
  // rows are made from the raw results where those exist, so exact ranges agree with them.
  for (const [table, seconds, count, per] of [['check_rollups_daily', 86_400, 90, 1440], ['check_rollups_hourly', 3600, 24 * 7, 60], ['check_rollups_10m', 600, 288, 10]] as const) {
    await pool.query(`
      INSERT INTO ${table} (check_id, bucket, passed, failed, duration_sum, hist_buckets, hist_counts, last_time)
      SELECT check_id, bucket,
             sum(passed) OVER w, sum(failed) OVER w, sum(dsum) OVER w,
             ARRAY[b0, b0 + 1, b0 + 2, b0 + 3],
             ARRAY[sum(h0) OVER w, sum(h1) OVER w, sum(h2) OVER w, sum(h3) OVER w], bucket
        FROM (
          SELECT c.id AS check_id, to_timestamp(floor(extract(epoch FROM now()) / ${seconds}) * ${seconds} - k * ${seconds}) AS bucket,
                 ${per} - (${per} / 100) AS passed, ${per} / 100 AS failed, ${per}::bigint * 120 AS dsum,
                 (45 + c.n % 5 * 7)::smallint AS b0, ${per} / 2 AS h0, ${per} / 4 AS h1, ${per} / 8 AS h2, ${per} - ${per} / 2 - ${per} / 4 - ${per} / 8 AS h3
            FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM checks) c, generate_series(0, ${count - 1}) k
        ) x
      WINDOW w AS (PARTITION BY check_id ORDER BY bucket)`);
  }
  await pool.query(`
    INSERT INTO check_totals (check_id, passed, failed, duration_sum, hist_buckets, hist_counts, last_time)
    SELECT DISTINCT ON (check_id) check_id, passed, failed, duration_sum, hist_buckets, hist_counts, last_time
      FROM check_rollups_daily ORDER BY check_id, bucket DESC`);
  await pool.query('VACUUM ANALYZE');
  process.stdout.write(`seeded ${CHECKS} checks, ${CHECKS * 1440} raw results, 90 days of daily and 7 days of hourly rollups in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}

async function measure(pool: pg.Pool, label: string): Promise<void> {
  process.stdout.write(`\n${label}\n`);
  for (const [name, ms] of [['1h', 3_600_000], ['24h', 86_400_000], ['30d', 30 * 86_400_000], ['90d', 90 * 86_400_000]] as const) {
    const samples: number[] = [];
    let source = '';
    let rows = 0;
    for (let i = 0; i < RUNS + 2; i += 1) {
      const to = new Date();
      const started = performance.now();
      const answer = await checksSummary(pool, { from: new Date(to.getTime() - ms), to, limit: 20_000, offset: 0 });
      if (i >= 2) samples.push(performance.now() - started);
      source = answer.source;
      rows = answer.total;
    }
    const s = stats(samples);
    process.stdout.write(`  summary of ${rows} checks over ${name.padEnd(3)} (${source.padEnd(6)}): p50 ${s.p50.toFixed(0).padStart(4)} ms, p95 ${s.p95.toFixed(0).padStart(4)} ms  target p95 ≤ 200 ms ${s.p95 <= 200 ? 'OK' : 'MISSED'}\n`);
  }
  const size = async (table: string) => Number((await pool.query<{ n: string }>(`SELECT pg_total_relation_size('${table}') AS n`)).rows[0]?.n ?? 0);
  const raw = await size('check_statuses');
  const daily = await size('check_rollups_daily');
  const hourly = await size('check_rollups_hourly');
  const tenMinutes = await size('check_rollups_10m');
  process.stdout.write(
    `  storage per check per day: raw ${(raw / CHECKS / 1024).toFixed(1)} KB (one result a minute, kept 30 days), daily rollups ${(daily / CHECKS / 90).toFixed(0)} B (kept 5 years)  target ≤ 1 KB ${daily / CHECKS / 90 <= 1024 ? 'OK' : 'MISSED'}\n` +
      `  fixed per check: hourly rollups ${(hourly / CHECKS / 1024).toFixed(1)} KB (7 days kept), 10-minute rollups ${(tenMinutes / CHECKS / 1024).toFixed(1)} KB (2 days kept)\n`,
  );
}

async function main(): Promise<void> {
  const log = createLogger('warn');
  // BENCH_DATA keeps the seeded embedded data directory between runs (seeding takes minutes).
  const kept = process.env.BENCH_DATA;
  const dataDir = kept ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'wk-bench-health-')));
  await fs.mkdir(dataDir, { recursive: true });
  await fs.chmod(dataDir, 0o755);
  const embedded = await ensureEmbedded({ dataDir, log });
  embedded.takeOwnership();
  const pool = createPool(embedded.url, createLogger('error'));
  try {
    await migrate(pool, log);
    const seeded = (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM checks')).rows[0]?.n ?? 0;
    if (seeded === 0) await seed(pool);
    await measure(pool, `embedded PostgreSQL (${(await pool.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version})`);
  } finally {
    await pool.end();
    await embedded.stop();
    if (!kept) await fs.rm(dataDir, { recursive: true, force: true });
  }
  const external = process.env.BENCH_DATABASE_URL;
  if (external) {
    const remote = createPool(external, createLogger('error'));
    try {
      await migrate(remote, log);
      await seed(remote);
      await measure(remote, `external PostgreSQL (${(await remote.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version})`);
    } finally {
      await remote.end();
    }
  } else {
    process.stdout.write('\n(set BENCH_DATABASE_URL to an empty database to measure an external PostgreSQL too)\n');
  }
}

await main();
