// The check scheduler under load (issue 4): 5,000 HTTP checks every 30 s (≈ 167 runs/s) against a local
// HTTP server, run by a real `watchkeeper serve`, for 5 minutes after one interval of warm-up. The peer
// records when each request arrives; the start lag of a run is its arrival minus its instant: the slot on
// the canary's grid (read from the database) plus the check's offset in it (check-times.ts); a slot of the
// window with no arrival is a missed run.
// Targets: start lag p99 ≤ 1 s, no missed run; the server's RSS and CPU are reported.
// Run: npx tsx bench/scheduler.ts [checks=5000]   (BENCH_SECONDS=300, BENCH_DATABASE_URL for an external
// PostgreSQL: an empty, disposable database; without it an embedded one runs in a temporary directory)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { saveCanary } from '../server/features/health/canaries';
import { checkTimes } from '../server/features/health/check-times';
import { freePort } from '../server/platform/db/embedded';
import { inTransaction } from '../server/platform/jobs/db';
import { ROOT, startServe } from '../test/cli';
import { quantile, withEmbedded, withExternal, type BenchDatabase } from './_db';

const CHECKS = Number(process.argv[2] ?? 5000);
const INTERVAL_MS = 30_000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 300);
const WARMUP_MS = INTERVAL_MS;

async function rssKb(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

/** User + system CPU seconds of a process so far. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The peer: answers every request at once and remembers when each canary's request arrived. */
async function startPeer(): Promise<{ port: number; arrivals: Map<number, number[]>; close: () => Promise<void> }> {
  const arrivals = new Map<number, number[]>();
  const server = http.createServer((req, res) => {
    const at = Date.now();
    const index = Number(/^\/c\/(\d+)/.exec(req.url ?? '')?.[1] ?? -1);
    let list = arrivals.get(index);
    if (!list) arrivals.set(index, (list = []));
    list.push(at);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  server.keepAliveTimeout = 60_000;
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, arrivals, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function createCanaries(pool: pg.Pool, peerPort: number): Promise<number> {
  const started = Date.now();
  const batch = 250;
  for (let first = 0; first < CHECKS; first += batch) {
    await inTransaction(pool, async (client) => {
      for (let i = first; i < Math.min(CHECKS, first + batch); i += 1) {
        await saveCanary(client, {
          name: `bench-${String(i).padStart(5, '0')}`,
          namespace: 'bench',
          labels: { team: `team-${i % 7}` },
          spec: { schedule: '@every 30s', http: [{ name: `endpoint ${i}`, url: `http://127.0.0.1:${peerPort}/c/${i}`, responseCodes: [200], thresholdMillis: 5000 }] },
          source: 'ConfigFile',
        });
      }
    });
  }
  return Date.now() - started;
}

async function run({ url: databaseUrl, pool, label }: BenchDatabase): Promise<void> {
  const peer = await startPeer();
  const createMs = await createCanaries(pool, peer.port);
  process.stdout.write(`${label}: ${CHECKS} canaries of one http check created in ${(createMs / 1000).toFixed(1)} s\n`);
  const serve = await startServe({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' }, await freePort());
  const pid = serve.child.pid ?? 0;
  try {
    await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
    const windowStart = Date.now();
    const cpuStart = await cpuSeconds(pid);
    const rss: number[] = [];
    while (Date.now() < windowStart + SECONDS * 1000) {
      rss.push(await rssKb(pid));
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const windowEnd = Date.now();
    const cpuUsed = (await cpuSeconds(pid)) - cpuStart;
    // Let the runs of the last slots arrive before counting.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const stored = Number(
      (await pool.query<{ n: string }>('SELECT count(*) AS n FROM check_statuses WHERE time >= $1 AND time < $2', [new Date(windowStart), new Date(windowEnd)])).rows[0]?.n ?? 0,
    );
    const { rows } = await pool.query<{ id: string; name: string; next_run_at: Date }>("SELECT id, name, next_run_at FROM canaries WHERE namespace = 'bench' AND deleted_at IS NULL");

    const lags: number[] = [];
    let slots = 0;
    let missed = 0;
    let doubled = 0;
    for (const row of rows) {
      const index = Number(row.name.slice('bench-'.length));
      // A check starts at its own instant within its canary's slot (docs/HEALTH.md "When a check runs"):
      // the lag is counted from there.
      const offset = checkTimes(row.id, '@every 30s', row.next_run_at, 1).startOf(`http/endpoint ${index}`) - row.next_run_at.getTime();
      const phase = (row.next_run_at.getTime() + offset) % INTERVAL_MS;
      // Every slot of the grid (phase + k·interval) inside the window.
      const firstSlot = Math.ceil((windowStart - phase) / INTERVAL_MS) * INTERVAL_MS + phase;
      const seen = new Map<number, number>();
      for (const at of peer.arrivals.get(index) ?? []) {
        const slot = Math.floor((at - phase) / INTERVAL_MS) * INTERVAL_MS + phase;
        if (slot < firstSlot || slot >= windowEnd) continue;
        seen.set(slot, (seen.get(slot) ?? 0) + 1);
        if (seen.get(slot) === 1) lags.push(at - slot);
      }
      for (let slot = firstSlot; slot < windowEnd; slot += INTERVAL_MS) {
        slots += 1;
        const count = seen.get(slot) ?? 0;
        if (count === 0) missed += 1;
        if (count > 1) doubled += 1;
      }
    }
    lags.sort((a, b) => a - b);
    const p99 = quantile(lags, 0.99);
    const peak = Math.max(...rss);
    process.stdout.write(
      `  ${SECONDS} s window after ${WARMUP_MS / 1000} s warm-up: ${slots} slots due, ${lags.length} runs started (${(lags.length / SECONDS).toFixed(1)} runs/s), ` +
        `${stored} results stored in it\n` +
        `  start lag: p50 ${quantile(lags, 0.5)} ms, p95 ${quantile(lags, 0.95)} ms, p99 ${p99} ms, max ${lags.at(-1)} ms  target p99 ≤ 1000 ms ${p99 <= 1000 ? 'OK' : 'MISSED'}\n` +
        `  missed runs: ${missed}, slots run twice: ${doubled}  target 0 ${missed === 0 && doubled === 0 ? 'OK' : 'MISSED'}\n` +
        `  server RSS: peak ${(peak / 1024).toFixed(0)} MB, end ${((rss.at(-1) ?? NaN) / 1024).toFixed(0)} MB; server CPU ${((cpuUsed / SECONDS) * 100).toFixed(0)}% of one core (${os.cpus().length} cores here)\n`,
    );
  } finally {
    await serve.stop();
    await peer.close();
  }
}

async function main(): Promise<void> {
  // The bench runs the built server, as `npm start` does; build it when the sources are newer.
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'ensure-built.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the build failed');
  // One database per run: the external one when BENCH_DATABASE_URL is set, else an embedded one.
  if (process.env.BENCH_DATABASE_URL) await withExternal((db) => run(db));
  else await withEmbedded('scheduler', (db) => run(db));
}

await main();
