// Per-check schedule precision and cost (issue 37, "Precision" and "Cost"): N http checks written as a
// user writes them (canaries of 200 checks, `schedule: "@every 20s"`) against a local target on 127.0.0.1
// that answers 200 on /m/<n> and records when each request for <n> arrived. After a warm-up, over the
// measuring window it prints, from the target's side, each check's |interval − schedule| (p50, p99, max,
// and missed or doubled slots), the CPU of node and its PostgreSQL processes (utime + stime from /proc)
// per 1,000 checks per minute, the proportional set size of that tree, and the load average beside them.
// Targets: p99 ≤ 5 ms at 500 checks and ≤ 50 ms at 2,000 every 20 s, ≤ 100 ms at 10,000 every 30 s; CPU ≤
// 6.4 CPU-s per 1,000 checks per minute; tree PSS ≤ 400 MB at 10,000 checks. The targets are for a quiet
// machine (load ≤ ~1.5): on a busy one the figures say what the machine allowed, with its load beside them.
//
// It also prints the result writer's batches (write time of each, from /metrics: p99 ≤ 50 ms) and the
// depth of the event queue and the agent push queue every 30 s (no growth): the sustained run is
// --checks=10000 --every=30s --measure=1800.
//
// Run: npx tsx bench/check-precision.ts [--checks=500] [--every=20s] [--warmup=60] [--measure=180]
//        [--per-canary=200] [--slow=0] [--sources]
//   --slow=K      K checks of each canary ask /slow/<n>, which answers after 5 s (reported apart: the others
//                 must keep their time)
//   --sources     runs the server from its TypeScript sources (tsx) instead of the build
//   --profile=DIR runs it from its sources and writes its CPU profile (.cpuprofile) into DIR when it stops
//   BENCH_DATABASE_URL or TEST_DATABASE_URL: an external, empty and disposable PostgreSQL (its CPU is then
//   the sum of the backends of that database, sampled each second); otherwise an embedded one.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import type pg from 'pg';
import { saveCanary } from '../server/features/health/canaries';
import { checkTimes } from '../server/features/health/check-times';
import { parseDuration } from '../server/platform/jobs';
import { inTransaction } from '../server/platform/jobs/db';
import { ROOT } from '../test/cli';
import { quantile, withEmbedded, withExternal, type BenchDatabase } from './_db';
import { startServer } from './_http';
import { parentOf, treeCpuSeconds, treePssMb } from './_proc';
import { intervalErrors, startTarget } from './_target';

const SLOW_MILLIS = 5000;

function option(name: string, fallback: string): string {
  const found = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return found ? found.slice(name.length + 3) : fallback;
}

const CHECKS = Number(option('checks', '500'));
const EVERY = option('every', '20s');
const INTERVAL_MS = parseDuration(EVERY) ?? NaN;
const WARMUP_S = Number(option('warmup', '60'));
const MEASURE_S = Number(option('measure', '180'));
const PER_CANARY = Number(option('per-canary', '200'));
const SLOW_PER_CANARY = Number(option('slow', '0'));
const PROFILE_DIR = option('profile', '');
const FROM_SOURCES = process.argv.includes('--sources') || PROFILE_DIR !== '';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => os.loadavg()[0] ?? NaN;

/** The canaries as files would hold them: http checks to /m/<n> (and /slow/<n> for the slow ones). */
async function applyCanaries(pool: pg.Pool, port: number): Promise<{ slow: Set<number>; ms: number }> {
  const started = Date.now();
  const slow = new Set<number>();
  for (let first = 0, canary = 0; first < CHECKS; first += PER_CANARY, canary += 1) {
    const http: Array<Record<string, unknown>> = [];
    for (let n = first; n < Math.min(CHECKS, first + PER_CANARY); n += 1) {
      const isSlow = n - first < SLOW_PER_CANARY;
      if (isSlow) slow.add(n);
      http.push({ name: `endpoint-${n}`, url: `http://127.0.0.1:${port}/${isSlow ? 'slow' : 'm'}/${n}`, responseCodes: [200] });
    }
    await inTransaction(pool, (client) =>
      saveCanary(client, { name: `precision-${String(canary).padStart(3, '0')}`, namespace: 'precision', labels: { bench: 'precision' }, spec: { schedule: `@every ${EVERY}`, http }, source: 'ConfigFile' }),
    );
  }
  return { slow, ms: Date.now() - started };
}

/**
 * CPU of the database's side. Embedded: the postmaster and all its processes (exact). External: the
 * backends serving this database, sampled each second (a backend that ends between two samples loses
 * its last second; the server's shared processes, checkpointer and WAL writer, are left out).
 */
interface DbCpu {
  postmaster: number | undefined;
  sample(): Promise<void>;
  seconds(): number;
}

async function dbCpu(pool: pg.Pool, embedded: boolean): Promise<DbCpu> {
  const own = Number((await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid);
  if (embedded) return { postmaster: await parentOf(own), sample: async () => undefined, seconds: () => 0 };
  const base = new Map<number, number>();
  const last = new Map<number, number>();
  return {
    postmaster: undefined,
    async sample() {
      const { rows } = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      for (const { pid } of rows) {
        const used = await treeCpuSeconds(pid, undefined);
        if (!base.has(pid)) base.set(pid, last.size === 0 ? used : 0);
        last.set(pid, used);
      }
    },
    seconds: () => [...last].reduce((sum, [pid, used]) => sum + used - (base.get(pid) ?? 0), 0),
  };
}

/**
 * How late each request arrived behind the instant its check was planned for (docs/HEALTH.md "When a check
 * runs": the canary's slot on its grid, plus the check's own offset), with the offsets' first second apart:
 * lateness there means the slot was claimed late.
 */
async function startLags(pool: pg.Pool, arrivals: Map<number, number[]>, from: number, to: number): Promise<{ all: number[]; early: number[] }> {
  const { rows } = await pool.query<{ canary_id: string; key: string; name: string; next_run_at: Date; schedule: string; checks: number }>(
    `SELECT c.canary_id, c.key, c.name, k.next_run_at, k.schedule, count(*) OVER (PARTITION BY c.canary_id)::int AS checks
       FROM checks c JOIN canaries k ON k.id = c.canary_id WHERE k.namespace = 'precision' AND c.deleted_at IS NULL AND k.deleted_at IS NULL`,
  );
  const all: number[] = [];
  const early: number[] = [];
  for (const row of rows) {
    const n = Number(/endpoint-(\d+)/.exec(row.name)?.[1] ?? NaN);
    const times = checkTimes(row.canary_id, row.schedule, row.next_run_at, row.checks);
    const offset = times.startOf(row.key) - row.next_run_at.getTime();
    const phase = row.next_run_at.getTime() % INTERVAL_MS;
    for (const at of arrivals.get(n) ?? []) {
      if (at < from || at >= to) continue;
      const slot = Math.round((at - offset - phase) / INTERVAL_MS) * INTERVAL_MS + phase;
      const lag = at - (slot + offset);
      all.push(lag);
      if (offset < 1500) early.push(lag);
    }
  }
  return { all: all.sort((a, b) => a - b), early: early.sort((a, b) => a - b) };
}

/** The result writer's batches from /metrics: how many, and how many took at most each bucket's bound (seconds). */
async function resultWrites(base: string): Promise<{ count: number; buckets: Map<number, number> }> {
  const text = await fetch(`${base}/metrics`).then((res) => res.text(), () => '');
  const buckets = new Map<number, number>();
  for (const match of text.matchAll(/^watchkeeper_check_result_write_seconds_bucket\{le="([^"]+)"\} (\S+)$/gm)) {
    if (match[1] !== '+Inf') buckets.set(Number(match[1]), Number(match[2]));
  }
  const count = Number(/^watchkeeper_check_result_write_seconds_count (\S+)$/m.exec(text)?.[1] ?? 0);
  return { count, buckets };
}

/** The writes of a window (the difference of two readings): the share within 50 ms, and the bucket bound p99 falls within. */
function writeFigures(before: Awaited<ReturnType<typeof resultWrites>>, after: Awaited<ReturnType<typeof resultWrites>>): string {
  const count = after.count - before.count;
  if (count <= 0) return 'no result batches written';
  const within = (bound: number) => (after.buckets.get(bound) ?? 0) - (before.buckets.get(bound) ?? 0);
  const bounds = [...after.buckets.keys()].sort((a, b) => a - b);
  const p99 = bounds.find((bound) => within(bound) >= 0.99 * count);
  const share50 = (within(0.05) / count) * 100;
  return `${count} batches; ${share50.toFixed(2)} % within 50 ms; p99 ≤ ${p99 === undefined ? '> 1000' : (p99 * 1000).toFixed(0)} ms  target p99 ≤ 50 ms ${share50 >= 99 ? 'OK' : 'MISSED'}`;
}

/** Rows waiting in the event queue (not given up) and in the agent push queue. */
async function queueDepths(pool: pg.Pool): Promise<{ events: number; outbox: number }> {
  const { rows } = await pool.query<{ events: number; outbox: number }>(
    'SELECT (SELECT count(*) FROM event_queue WHERE attempts < max_attempts)::int AS events, (SELECT count(*) FROM agent_push_queue)::int AS outbox',
  );
  return rows[0] ?? { events: NaN, outbox: NaN };
}

/** The server's V8 heap as its /metrics says (used of total, and memory outside the heap). */
async function heapOf(base: string): Promise<string> {
  const text = await fetch(`${base}/metrics`).then((res) => res.text(), () => '');
  const metric = (name: string) => Number(new RegExp(`^watchkeeper_process_${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / 1024 / 1024;
  return `${metric('nodejs_heap_size_used_bytes').toFixed(0)} of ${metric('nodejs_heap_size_total_bytes').toFixed(0)} MB used, external ${metric('nodejs_external_memory_bytes').toFixed(0)} MB`;
}

/** The queue depths sampled over the window: first, largest and last, and whether the last third holds more than the first. */
function depthLine(depths: ReadonlyArray<{ events: number; outbox: number }>): string {
  const third = Math.max(1, Math.floor(depths.length / 3));
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  const describe = (pick: (d: { events: number; outbox: number }) => number) => {
    const values = depths.map(pick);
    const early = mean(values.slice(0, third));
    const late = mean(values.slice(-third));
    return `${values[0]} → max ${Math.max(...values)} → ${values.at(-1)} (mean of the first third ${early.toFixed(0)}, last third ${late.toFixed(0)}: ${late <= early * 1.1 + 10 ? 'no growth' : 'GROWING'})`;
  };
  return `events ${describe((d) => d.events)}; push queue ${describe((d) => d.outbox)}`;
}

async function run(db: BenchDatabase, embedded: boolean): Promise<void> {
  const target = await startTarget(SLOW_MILLIS);
  const applied = await applyCanaries(db.pool, target.port);
  const canaries = Math.ceil(CHECKS / PER_CANARY);
  process.stdout.write(
    `${db.label}: ${CHECKS} http checks in ${canaries} canaries of ≤ ${PER_CANARY} (${applied.slow.size} slow, answering in ${SLOW_MILLIS / 1000} s), @every ${EVERY}, applied in ${(applied.ms / 1000).toFixed(1)} s\n`,
  );
  const flags = [...(PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []), ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean)];
  const server = await startServer(db.url, !FROM_SOURCES, {}, flags);
  const database = await dbCpu(db.pool, embedded);
  try {
    process.stdout.write(`  server ${FROM_SOURCES ? 'from sources (tsx)' : 'built'}, pid ${server.pid}; warming up ${WARMUP_S} s (load ${load().toFixed(1)})\n`);
    await sleep(WARMUP_S * 1000);
    await database.sample();
    const windowStart = Date.now();
    const cpuStart = await treeCpuSeconds(server.pid, database.postmaster);
    const nodeStart = await treeCpuSeconds(server.pid, undefined);
    const loads: number[] = [];
    const pss: Array<{ node: number; tree: number }> = [];
    const writesStart = await resultWrites(server.url);
    const depths: Array<{ events: number; outbox: number }> = [];
    for (let second = 0; Date.now() < windowStart + MEASURE_S * 1000; second += 1) {
      loads.push(load());
      if (second % 5 === 0) pss.push(await treePssMb(server.pid, database.postmaster));
      if (second % 30 === 0) depths.push(await queueDepths(db.pool));
      await database.sample();
      await sleep(1000 - ((Date.now() - windowStart) % 1000));
    }
    const windowEnd = Date.now();
    depths.push(await queueDepths(db.pool));
    const writesEnd = await resultWrites(server.url);
    await database.sample();
    const cpu = (await treeCpuSeconds(server.pid, database.postmaster)) - cpuStart + database.seconds();
    const nodeCpu = (await treeCpuSeconds(server.pid, undefined)) - nodeStart;
    // The runs of the window's last slots have arrived by now (arrivals are recorded when requests come in).
    const all = Array.from({ length: CHECKS }, (_, n) => n);
    const fast = intervalErrors(target.arrivals, all.filter((n) => !applied.slow.has(n)), INTERVAL_MS, windowStart, windowEnd);
    const slow = intervalErrors(target.arrivals, applied.slow, INTERVAL_MS, windowStart, windowEnd);
    const lags = await startLags(db.pool, target.arrivals, windowStart, windowEnd);
    const heap = await heapOf(server.url);
    const minutes = MEASURE_S / 60;
    const perThousand = cpu / (CHECKS / 1000) / minutes;
    const loadMean = loads.reduce((a, b) => a + b, 0) / loads.length;
    const peak = pss.reduce((a, b) => (b.tree > a.tree ? b : a), { node: 0, tree: 0 });
    const line = (name: string, r: ReturnType<typeof intervalErrors>) =>
      `  ${name}: ${r.errors.length} intervals, |interval − ${EVERY}| p50 ${quantile(r.errors, 0.5).toFixed(1)} ms, p99 ${quantile(r.errors, 0.99).toFixed(1)} ms, max ${(r.errors.at(-1) ?? NaN).toFixed(1)} ms; missed slots ${r.missed}, doubled ${r.doubled}\n`;
    const target99 = CHECKS <= 500 ? 5 : CHECKS <= 2000 ? 50 : 100;
    const p99 = quantile(fast.errors, 0.99);
    process.stdout.write(
      `  window ${MEASURE_S} s after ${WARMUP_S} s warm-up, load average ${loadMean.toFixed(1)} (from ${loads[0]?.toFixed(1)} to ${loads.at(-1)?.toFixed(1)}, ${os.cpus().length} cores)\n` +
        line(applied.slow.size > 0 ? 'checks (not slow)' : 'checks', fast) +
        (applied.slow.size > 0 ? line('slow checks', slow) : '') +
        `  start behind the planned instant: p50 ${quantile(lags.all, 0.5).toFixed(1)} ms, p99 ${quantile(lags.all, 0.99).toFixed(1)} ms, max ${(lags.all.at(-1) ?? NaN).toFixed(1)} ms; ` +
        `of checks planned in their slot's first 1.5 s: p99 ${quantile(lags.early, 0.99).toFixed(1)} ms (${lags.early.length} runs)\n` +
        `  precision target p99 ≤ ${target99} ms: ${p99 <= target99 ? 'OK' : 'MISSED'} (at load ${loadMean.toFixed(1)})\n` +
        `  CPU (node + PostgreSQL): ${cpu.toFixed(1)} CPU-s in ${MEASURE_S} s (node ${nodeCpu.toFixed(1)}) = ${perThousand.toFixed(2)} CPU-s per 1,000 checks per minute  target ≤ 6.4 ${perThousand <= 6.4 ? 'OK' : 'MISSED'} (at load ${loadMean.toFixed(1)})\n` +
        `  result writes: ${writeFigures(writesStart, writesEnd)}\n` +
        `  queues every 30 s (events waiting / agent push queue): ${depthLine(depths)}\n` +
        `  node heap at the end: ${heap}\n` +
        `  memory (PSS): node ${peak.node.toFixed(0)} MB, whole tree ${embedded ? peak.tree.toFixed(0) : '(external database: node only)'}${embedded ? ' MB' : ''} at its peak${CHECKS >= 10_000 && embedded ? `  target ≤ 400 MB ${peak.tree <= 400 ? 'OK' : 'MISSED'}` : ''}\n`,
    );
  } finally {
    await server.stop();
    await target.close();
    await db.pool.query("UPDATE checks SET deleted_at = now() WHERE canary_id IN (SELECT id FROM canaries WHERE namespace = 'precision' AND deleted_at IS NULL)");
    await db.pool.query("UPDATE canaries SET deleted_at = now() WHERE namespace = 'precision' AND deleted_at IS NULL");
  }
}

async function main(): Promise<void> {
  if (!Number.isFinite(INTERVAL_MS)) throw new Error(`--every=${EVERY}: not a duration such as 20s`);
  if (!FROM_SOURCES) {
    // The bench runs the built server, as `npm start` does; build it when the sources are newer (one build at a time).
    const build = spawnSync('flock', ['/tmp/wk-build.lock', process.execPath, 'scripts/ensure-built.mjs'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('the build failed (run with --sources to use the TypeScript sources)');
  }
  const external = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (external) {
    process.env.BENCH_DATABASE_URL = external;
    await withExternal((db) => run(db, false));
  } else {
    await withEmbedded('check-precision', (db) => run(db, true));
  }
}

await main();
