// Several instances on one database (issue 37, "Several instances"): N `watchkeeper serve` processes on the
// machine's PostgreSQL, in a database of their own that this bench creates and drops, share http checks
// written as a user writes them (canaries of 200 checks, `schedule: "@every 30s"`) against a local target
// on 127.0.0.1 that records when each request for /m/<n> arrived. Over the measuring window it prints the
// slots run twice and missed (from the target's side: each arrival counted in the slot whose planned
// instant is nearest, so a late run is late, not doubled), how far behind its instant each run started, the share of each instance (its canary runs from its /metrics,
// times the checks per canary), the database connections of each instance (its pool, from /metrics, and
// the database's backends), the CPU of each instance (utime + stime from /proc) and of the database's
// backends, and the load average. Then it stops one instance (SIGTERM) and prints how long that took, the
// longest gap of any check across the stop (one interval: nothing moved late), the slots missed or run twice
// through it and the shares of the instances left.
// Targets: 0 slots run twice, 0 missed; every instance's share within 20 % of the mean; a stopped instance's
// checks run by the others within one interval.
//
// Run: npx tsx bench/instances.ts [--checks=30000] [--instances=3] [--every=30s] [--per-canary=200]
//        [--warmup=60] [--measure=90] [--after-stop=90] [--built]
//   --built        runs the built server (rebuilt first when the sources are newer); default: the sources (tsx)
//   BENCH_ADMIN_URL  a PostgreSQL superuser URL (default postgres://postgres@127.0.0.1:5432/postgres): the
//                  bench creates its database there, and drops it at the end
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { saveCanary } from '../server/features/health/canaries';
import { checkTimes } from '../server/features/health/check-times';
import { freePort } from '../server/platform/db/embedded';
import { migrate } from '../server/platform/db/migrate';
import { createPool } from '../server/platform/db/pool';
import { parseDuration } from '../server/platform/jobs';
import { inTransaction } from '../server/platform/jobs/db';
import { createLogger } from '../server/platform/logger';
import { ROOT } from '../test/cli';
import { startServer } from './_http';
import { treeCpuSeconds } from './_proc';
import { startTarget, type Target } from './_target';

function option(name: string, fallback: string): string {
  const found = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return found ? found.slice(name.length + 3) : fallback;
}

const CHECKS = Number(option('checks', '30000'));
const INSTANCES = Number(option('instances', '3'));
const EVERY = option('every', '30s');
const INTERVAL_MS = parseDuration(EVERY) ?? NaN;
const PER_CANARY = Number(option('per-canary', '200'));
const WARMUP_S = Number(option('warmup', '60'));
const MEASURE_S = Number(option('measure', '90'));
const AFTER_STOP_S = Number(option('after-stop', '90'));
const BUILT = process.argv.includes('--built');
const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => os.loadavg()[0] ?? NaN;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

interface Instance {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * `serve` from the sources (tsx), as bench/_http.ts starts it, with a longer wait for its first 200 on
 * /health: three starting together on a busy 2-core machine take minutes. It joins `started` at once, so a
 * start that fails still stops the others.
 */
async function startFromSources(url: string, started: Instance[]): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server', 'main.ts'), 'serve'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const instance: Instance = {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
  started.push(instance);
  for (const deadline = Date.now() + 600_000; ; ) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}`);
    if (await fetch(`${instance.url}/health`).then((res) => res.status === 200, () => false)) return instance;
    if (Date.now() > deadline) throw new Error('serve did not become healthy in 10 minutes');
    await sleep(500);
  }
}

async function metric(instance: Instance, pattern: RegExp): Promise<number> {
  const text = await fetch(`${instance.url}/metrics`).then((res) => res.text(), () => '');
  let total = 0;
  for (const match of text.matchAll(pattern)) total += Number(match[1]);
  return total;
}
const canaryRuns = (instance: Instance) => metric(instance, /^watchkeeper_job_runs_total\{[^}]*name="Canary"[^}]*\} (\S+)$/gm);
const poolConnections = (instance: Instance) => metric(instance, /^watchkeeper_db_pool_connections\{state="total"\} (\S+)$/gm);

/** CPU of the database's backends serving the bench database, sampled each second (as bench/check-precision.ts). */
function backendCpu(pool: pg.Pool): { sample(): Promise<void>; seconds(): number; reset(): void } {
  const base = new Map<number, number>();
  const last = new Map<number, number>();
  let first = true;
  return {
    async sample() {
      const { rows } = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      for (const { pid } of rows) {
        const used = await treeCpuSeconds(pid, undefined);
        if (!base.has(pid)) base.set(pid, first ? used : 0);
        last.set(pid, used);
      }
      first = false;
    },
    seconds: () => [...last].reduce((sum, [pid, used]) => sum + used - (base.get(pid) ?? 0), 0),
    reset() {
      base.clear();
      last.clear();
      first = true;
    },
  };
}

async function applyCanaries(pool: pg.Pool, target: Target): Promise<number> {
  const started = Date.now();
  for (let first = 0, canary = 0; first < CHECKS; first += PER_CANARY, canary += 1) {
    const http: Array<Record<string, unknown>> = [];
    for (let n = first; n < Math.min(CHECKS, first + PER_CANARY); n += 1) http.push({ name: `endpoint-${n}`, url: `http://127.0.0.1:${target.port}/m/${n}`, responseCodes: [200] });
    await inTransaction(pool, (client) =>
      saveCanary(client, { name: `shared-${String(canary).padStart(4, '0')}`, namespace: 'instances', labels: { bench: 'instances' }, spec: { schedule: `@every ${EVERY}`, http }, source: 'ConfigFile' }),
    );
  }
  return Date.now() - started;
}

/** A window of `seconds` on the given instances: what each ran, its CPU and connections, and the load. */
async function window(instances: Instance[], pool: pg.Pool, seconds: number): Promise<{ from: number; to: number; runs: number[]; cpu: number[]; connections: number[][]; backends: number[]; dbCpu: number; loads: number[] }> {
  const db = backendCpu(pool);
  await db.sample();
  const before = await Promise.all(instances.map(canaryRuns));
  const cpuBefore = await Promise.all(instances.map((instance) => treeCpuSeconds(instance.pid, undefined)));
  const from = Date.now();
  const loads: number[] = [];
  const connections: number[][] = instances.map(() => []);
  const backends: number[] = [];
  for (let second = 0; Date.now() < from + seconds * 1000; second += 1) {
    loads.push(load());
    await db.sample();
    if (second % 5 === 0) {
      const counts = await Promise.all(instances.map(poolConnections));
      counts.forEach((count, i) => connections[i]?.push(count));
      backends.push(Number((await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows[0]?.n ?? 0));
    }
    await sleep(1000 - ((Date.now() - from) % 1000));
  }
  const to = Date.now();
  await db.sample();
  const runs = (await Promise.all(instances.map(canaryRuns))).map((count, i) => count - (before[i] ?? 0));
  const cpu = (await Promise.all(instances.map((instance) => treeCpuSeconds(instance.pid, undefined)))).map((used, i) => used - (cpuBefore[i] ?? 0));
  return { from, to, runs, cpu, connections, backends, dbCpu: db.seconds(), loads };
}

/**
 * Runs per check and slot, from the target's side: each arrival is put in the slot whose planned instant
 * (the canary's slot grid plus the check's offset, check-times.ts) is nearest, so a run late by less than
 * half an interval still counts in its own slot. Twice: two arrivals in one slot; missed: a slot wholly
 * inside [from, to) with none.
 */
async function slotRuns(pool: pg.Pool, target: Target, from: number, to: number): Promise<{ twice: number; missed: number; runs: number; lateMs: number[] }> {
  const { rows } = await pool.query<{ canary_id: string; key: string; name: string; next_run_at: Date; schedule: string; checks: number }>(
    `SELECT c.canary_id, c.key, c.name, k.next_run_at, k.schedule, count(*) OVER (PARTITION BY c.canary_id)::int AS checks
       FROM checks c JOIN canaries k ON k.id = c.canary_id WHERE k.namespace = 'instances' AND c.deleted_at IS NULL AND k.deleted_at IS NULL`,
  );
  let twice = 0;
  let missed = 0;
  let runs = 0;
  const lateMs: number[] = [];
  for (const row of rows) {
    const n = Number(/endpoint-(\d+)/.exec(row.name)?.[1] ?? NaN);
    const times = checkTimes(row.canary_id, row.schedule, row.next_run_at, row.checks);
    const planned = times.startOf(row.key) % INTERVAL_MS;
    const slots = new Map<number, number>();
    for (const at of target.arrivals.get(n) ?? []) {
      if (at < from || at >= to) continue;
      const slot = Math.round((at - planned) / INTERVAL_MS);
      slots.set(slot, (slots.get(slot) ?? 0) + 1);
      lateMs.push(at - (slot * INTERVAL_MS + planned));
      runs += 1;
    }
    for (let slot = Math.ceil((from - planned) / INTERVAL_MS) + 1; slot * INTERVAL_MS + planned < to - INTERVAL_MS; slot += 1) {
      const count = slots.get(slot) ?? 0;
      if (count === 0) missed += 1;
      else if (count > 1) twice += count - 1;
    }
  }
  return { twice, missed, runs, lateMs: lateMs.sort((a, b) => a - b) };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

function shares(runs: number[]): string {
  const checks = runs.map((count) => count * PER_CANARY);
  const average = mean(checks);
  const worst = Math.max(...checks.map((count) => Math.abs(count - average) / (average || 1)));
  return `${checks.map((count) => count.toLocaleString('en')).join(' / ')} check runs (${runs.join(' / ')} canary runs); furthest from the mean ${(worst * 100).toFixed(1)} %  target ≤ 20 % ${worst <= 0.2 ? 'OK' : 'MISSED'}`;
}

async function run(url: string, pool: pg.Pool): Promise<void> {
  const target = await startTarget(0);
  const instances: Instance[] = [];
  try {
    const applyMs = await applyCanaries(pool, target);
    const version = (await pool.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version;
    process.stdout.write(
      `PostgreSQL ${version} on this machine: ${CHECKS.toLocaleString('en')} http checks in ${Math.ceil(CHECKS / PER_CANARY)} canaries of ≤ ${PER_CANARY}, @every ${EVERY}, applied in ${(applyMs / 1000).toFixed(1)} s; ${INSTANCES} instances (${BUILT ? 'built' : 'sources, tsx'})\n`,
    );
    const startedAt = Date.now();
    if (BUILT) for (let i = 0; i < INSTANCES; i += 1) instances.push(await startServer(url, true, { LOG_LEVEL: 'warn' }));
    else await Promise.all(Array.from({ length: INSTANCES }, () => startFromSources(url, instances)));
    process.stdout.write(`  started in ${((Date.now() - startedAt) / 1000).toFixed(1)} s (pids ${instances.map((instance) => instance.pid).join(', ')}); warming up ${WARMUP_S} s (load ${load().toFixed(1)})\n`);
    await sleep(WARMUP_S * 1000);

    const all = Array.from({ length: CHECKS }, (_, n) => n);
    const shared = await window(instances, pool, MEASURE_S);
    const sharedErrors = await slotRuns(pool, target, shared.from, shared.to);
    const ran = all.filter((n) => (target.arrivals.get(n) ?? []).some((at) => at >= shared.from && at < shared.to)).length;
    const line = (w: Awaited<ReturnType<typeof window>>, count: number) =>
      `  CPU per instance (node): ${w.cpu.map((used) => `${used.toFixed(1)}`).join(' / ')} CPU-s in ${((w.to - w.from) / 1000).toFixed(0)} s; database backends ${w.dbCpu.toFixed(1)} CPU-s\n` +
      `  DB connections per instance (pool, max seen): ${w.connections.slice(0, count).map((seen) => Math.max(0, ...seen)).join(' / ')}; backends on the database: max ${Math.max(0, ...w.backends)}\n` +
      `  load average ${mean(w.loads).toFixed(1)} (from ${w.loads[0]?.toFixed(1)} to ${w.loads.at(-1)?.toFixed(1)}, ${os.cpus().length} cores)\n`;
    process.stdout.write(
      `window of ${MEASURE_S} s with ${INSTANCES} instances:\n` +
        `  checks run at least once: ${ran} of ${CHECKS}; ${sharedErrors.runs} runs; slots run twice ${sharedErrors.twice}, missed ${sharedErrors.missed}  target 0 / 0 ${sharedErrors.twice === 0 && sharedErrors.missed === 0 && ran === CHECKS ? 'OK' : 'MISSED'}\n` +
        `  start behind the planned instant: p50 ${quantile(sharedErrors.lateMs, 0.5).toFixed(0)} ms, p99 ${quantile(sharedErrors.lateMs, 0.99).toFixed(0)} ms, max ${(sharedErrors.lateMs.at(-1) ?? NaN).toFixed(0)} ms\n` +
        `  share per instance: ${shares(shared.runs)}\n` +
        line(shared, INSTANCES),
    );

    // Stop the first instance; the others take its canaries.
    const stopped = instances.shift();
    if (!stopped) return;
    const stopAt = Date.now();
    await stopped.stop();
    const exitedAt = Date.now();
    const after = await window(instances, pool, AFTER_STOP_S);
    const through = await slotRuns(pool, target, shared.from, after.to);
    // The longest gap between two runs of one check that spans the stop: one interval when nothing moved late.
    let longest = 0;
    let lateChecks = 0;
    for (const n of all) {
      const seen = (target.arrivals.get(n) ?? []).filter((at) => at >= stopAt - 2 * INTERVAL_MS && at < after.to).sort((a, b) => a - b);
      const before = seen.filter((at) => at < stopAt).at(-1);
      const next = seen.find((at) => at >= stopAt);
      if (before === undefined || next === undefined) {
        lateChecks += 1;
        continue;
      }
      const gap = next - before;
      longest = Math.max(longest, gap);
      if (gap > INTERVAL_MS * 1.5) lateChecks += 1;
    }
    process.stdout.write(
      `stopped one instance (SIGTERM): it exited in ${((exitedAt - stopAt) / 1000).toFixed(1)} s\n` +
        `  longest gap of any check across the stop: ${(longest / 1000).toFixed(2)} s (interval ${INTERVAL_MS / 1000} s: its share moved ${longest <= INTERVAL_MS * 1.5 ? 'within one interval  OK' : 'late  MISSED'}); checks without a run within 1.5 intervals: ${lateChecks}\n` +
        `  through the stop (${((after.to - shared.from) / 1000).toFixed(0)} s): slots run twice ${through.twice}, missed ${through.missed}  target 0 / 0 ${through.twice === 0 && through.missed === 0 ? 'OK' : 'MISSED'}; start behind the planned instant p99 ${quantile(through.lateMs, 0.99).toFixed(0)} ms, max ${(through.lateMs.at(-1) ?? NaN).toFixed(0)} ms\n` +
        `  share per instance left (${AFTER_STOP_S} s after the stop): ${shares(after.runs)}\n` +
        line(after, instances.length),
    );
  } finally {
    for (const instance of instances) await instance.stop();
    await target.close();
  }
}

async function main(): Promise<void> {
  if (!Number.isFinite(INTERVAL_MS)) throw new Error(`--every=${EVERY}: not a duration such as 30s`);
  if (BUILT) {
    const build = spawnSync('flock', ['/tmp/wk-build.lock', process.execPath, 'scripts/ensure-built.mjs'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('the build failed (run without --built to use the TypeScript sources)');
  }
  const name = `wk_bench_instances_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(name)}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const pool = createPool(url.toString(), createLogger('error'), { max: 4 });
  try {
    await migrate(pool, createLogger('warn'));
    await run(url.toString(), pool);
  } finally {
    await pool.end();
    await admin.query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(name)} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
