// Health statistics at scale (issue 4): 10,000 checks with one day of one-minute raw results (14.4M rows),
// 7 days of hourly and 90 days of daily rollups. Prints the summary's p50/p95 for 1h, 24h, 30d and 90d,
// and the storage per check per day. Runs on the embedded engine, and also on an external PostgreSQL when
// BENCH_DATABASE_URL names an (empty, disposable) database.
// Run: npx tsx bench/health.ts [checks=10000]
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type pg from 'pg';
import { checksSummary } from '../server/features/health/summary';
import { createIdentity } from '../server/features/identity/identities';
import { createSession } from '../server/features/identity/sessions';
import { freePort } from '../server/platform/db/embedded';
import { createPool } from '../server/platform/db/pool';
import { createLogger } from '../server/platform/logger';
import { ROOT, startServe } from '../test/cli';
import { quantile, withEmbedded, withExternal } from './_db';

const CHECKS = Number(process.argv[2] ?? 10_000);
const RUNS = 40;

function stats(samples: number[]): { p50: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) };
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
  // Rollups hold running totals since the check began, as the trigger keeps them: here one result a minute
  // since an origin 90 days back, so every tier agrees with the others at any instant. Daily rows for 90
  // days, hourly for 7 and 10-minute ones for 2, as retention keeps them. Each histogram has 30 latency
  // buckets (from x to 17x, as a check with varied latency collects).
  const origin = `(${base} - interval '90 days')`;
  const minutesAt = (at: string) => `floor(extract(epoch FROM (${at}) - ${origin}) / 60)::bigint`;
  const totals = (m: string) => `${m} - ${m} / 100, ${m} / 100, ${m} * 120,
             ARRAY(SELECT (b0 + i)::smallint FROM generate_series(0, 29) i),
             ARRAY(SELECT (${m} * (i + 1) / 465)::bigint FROM generate_series(0, 29) i)`;
  for (const [table, seconds, count] of [['check_rollups_daily', 86_400, 90], ['check_rollups_hourly', 3600, 24 * 7], ['check_rollups_10m', 600, 288]] as const) {
    await pool.query(`
      INSERT INTO ${table} (check_id, bucket, passed, failed, duration_sum, hist_buckets, hist_counts, last_time)
      SELECT check_id, bucket, ${totals('m')}, LEAST(bucket + interval '${seconds} seconds', ${base})
        FROM (
          SELECT c.id AS check_id, b.bucket, (45 + c.n % 5 * 7)::smallint AS b0, ${minutesAt(`LEAST(b.bucket + interval '${seconds} seconds', ${base})`)} AS m
            FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM checks) c,
                 (SELECT to_timestamp(floor(extract(epoch FROM ${base}) / ${seconds}) * ${seconds} - k * ${seconds}) AS bucket FROM generate_series(0, ${count - 1}) k) b
        ) x`);
  }
  await pool.query(`
    INSERT INTO check_totals (check_id, passed, failed, duration_sum, hist_buckets, hist_counts, last_time)
    SELECT check_id, ${totals('m')}, ${base}
      FROM (SELECT id AS check_id, (45 + row_number() OVER (ORDER BY id) % 5 * 7)::smallint AS b0, ${minutesAt(base)} AS m FROM checks) x`);
  await pool.query('VACUUM ANALYZE');
  process.stdout.write(`seeded ${CHECKS} checks, ${CHECKS * 1440} raw results, 90 days of daily and 7 days of hourly rollups in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}

const RANGES = [['1h', 3_600_000], ['24h', 86_400_000], ['30d', 30 * 86_400_000], ['90d', 90 * 86_400_000]] as const;

/**
 * Per range: the first request on a fresh pool (nothing in memory yet), then RUNS requests (after two
 * more) as the Health page makes them on refresh: in this process, and over HTTP from a running server
 * (session check, JSON, brotli, and the client reading it all: curl, and Node's fetch).
 */
async function measure(pool: pg.Pool, url: string, label: string): Promise<void> {
  process.stdout.write(`\n${label}\n`);
  // Over HTTP: a real `watchkeeper serve` on the same database.
  const server = await startServe({ DATABASE_URL: url, LOG_LEVEL: 'warn' }, await freePort());
  const base = server.url;
  const { id } = await createIdentity(pool, { traits: { email: `bench-${Date.now()}@example.com`, name: { first: 'Bench', last: '' } }, roles: ['viewer'] });
  const { token } = await createSession(pool, id, { method: 'password', aal: 'aal1' }, { ip: '127.0.0.1', userAgent: 'bench' });
  try {
    for (const [name, ms] of RANGES) {
      const fresh = createPool(url, createLogger('error'));
      const summary = (on: pg.Pool) => {
        const to = new Date();
        return checksSummary(on, { from: new Date(to.getTime() - ms), to, limit: 20_000, offset: 0 });
      };
      const coldStarted = performance.now();
      const first = await summary(fresh);
      const cold = performance.now() - coldStarted;
      await fresh.end();
      const inProcess: number[] = [];
      for (let i = 0; i < RUNS + 2; i += 1) {
        const started = performance.now();
        await summary(pool);
        if (i >= 2) inProcess.push(performance.now() - started);
      }
      // Over HTTP, read by curl (a C client that decodes brotli as a browser does) and by Node's fetch
      // (whose decoding in this process is slower than the server's work: reported, not the target).
      const address = `${base}/api/canary/api/summary?start=${name}&limit=20000`;
      const overHttp: number[] = [];
      let bytes = 0;
      for (let i = 0; i < RUNS + 2; i += 1) {
        const curl = spawnSync('curl', ['-s', '--compressed', '-o', '/dev/null', '-H', `x-session-token: ${token}`, '-w', '%{http_code} %{time_total} %{size_download}', address], { encoding: 'utf8' });
        const [code, seconds, size] = curl.stdout.split(' ');
        if (curl.status !== 0 || code !== '200') throw new Error(`curl: ${curl.error?.message ?? `exit ${curl.status}, HTTP ${code}`}`);
        bytes = Number(size);
        if (i >= 2) overHttp.push(Number(seconds) * 1000);
      }
      const withFetch: number[] = [];
      let decoded = 0;
      for (let i = 0; i < RUNS + 2; i += 1) {
        const started = performance.now();
        const res = await fetch(address, { headers: { 'x-session-token': token, 'accept-encoding': 'br' } });
        decoded = (await res.arrayBuffer()).byteLength;
        if (res.status !== 200) throw new Error(`the summary answered ${res.status}`);
        if (i >= 2) withFetch.push(performance.now() - started);
      }
      const a = stats(inProcess);
      const h = stats(overHttp);
      const f = stats(withFetch);
      process.stdout.write(
        `  summary of ${first.total} checks over ${name.padEnd(3)} (${first.source.padEnd(6)}): first ${cold.toFixed(0).padStart(4)} ms; then in process p50 ${a.p50.toFixed(0).padStart(4)} ms, p95 ${a.p95.toFixed(0).padStart(4)} ms; ` +
          `over HTTP (curl) p50 ${h.p50.toFixed(0).padStart(4)} ms, p95 ${h.p95.toFixed(0).padStart(4)} ms  target p95 ≤ 200 ms ${h.p95 <= 200 ? 'OK' : 'MISSED'}; ` +
          `Node fetch p50 ${f.p50.toFixed(0).padStart(4)} ms, p95 ${f.p95.toFixed(0).padStart(4)} ms (${(decoded / 1_000_000).toFixed(1)} MB of JSON, ${(bytes / 1000).toFixed(0)} KB with brotli)\n`,
      );
    }
    // The /api/db view of the same (last 24 whole hours, computed in the database), as scripts read it.
    const view: number[] = [];
    let rows = 0;
    for (let i = 0; i < 5; i += 1) {
      const started = performance.now();
      const res = await fetch(`${base}/api/db/check_summary?select=id,uptime,latency`, { headers: { 'x-session-token': token, 'accept-encoding': 'br' } });
      if (res.status !== 200) throw new Error(`/api/db/check_summary answered ${res.status}`);
      const body: unknown = await res.json();
      rows = Array.isArray(body) ? body.length : 0;
      if (i >= 1) view.push(performance.now() - started);
    }
    const v = stats(view);
    process.stdout.write(`  /api/db/check_summary of ${rows} checks (24 h, in SQL): p50 ${v.p50.toFixed(0)} ms, p95 ${v.p95.toFixed(0)} ms\n`);
  } finally {
    await server.stop();
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

/** Seeds the database unless it already holds this bench's data from the last hour. */
async function prepare(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ n: number; fresh: boolean }>("SELECT count(*)::int AS n, coalesce(max(last_time) > now() - interval '1 hour', false) AS fresh FROM check_totals");
  if (rows[0]?.n === CHECKS && rows[0]?.fresh) return;
  await pool.query('TRUNCATE canaries, checks, check_statuses, check_rollups_10m, check_rollups_hourly, check_rollups_daily, check_totals CASCADE');
  await seed(pool);
}

async function main(): Promise<void> {
  // The HTTP figures come from the built server, as `npm start` runs it; build it when the sources are newer.
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'ensure-built.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the build failed');
  // BENCH_DATA keeps the seeded embedded data directory between runs (seeding takes minutes); data older
  // than an hour are seeded again, as the ranges measured end now. BENCH_DATABASE_URL's database too.
  await withEmbedded(
    'health',
    async ({ pool, url, label }) => {
      await prepare(pool);
      await measure(pool, url, label);
    },
    process.env.BENCH_DATA,
  );
  await withExternal(async ({ pool, url, label }) => {
    await prepare(pool);
    await measure(pool, url, label);
  });
}

await main();
