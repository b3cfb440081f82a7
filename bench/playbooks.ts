// Playbooks, measured (docs/PLAYBOOKS.md, server/features/playbooks/runner.ts). Targets from the issue:
//  1. burst: BURST runs (default 100) of a 3-action playbook (exec `echo one`, `echo two`, `echo three`)
//     queued at once, in one transaction through createRun (as POST /api/playbook/run does, NOTIFY included),
//     one runner started as `serve` starts it (createRunner defaults: concurrency 100, lease 30 s, poll 2 s,
//     its own pool of the default size). Start lag = start_time − created_at of each run (created_at is the
//     queuing transaction's start; start_time is set when the run is claimed): p50/p95/max, target p95 ≤ 1 s.
//     Also, stricter, when each run's first action started; the lag from the COMMIT; and the time until all
//     of them completed (COMMIT → last end_time).
//  2. steady: runs of the same playbook queued one at a time (each its own transaction) at 1,000 runs/h
//     (one every 3.6 s) for STEADY_SECONDS (default 120), then at 10× (one every 360 ms) for FAST_SECONDS
//     (default 60), same runner. Completion lag = end_time − created_at: p50/p95/max; runs completed of runs
//     queued; this process's RSS (process.memoryUsage().rss; the runner runs in this process) at the start,
//     the middle and the end of each phase, and the heap in use after a full GC at its start and end.
//     Target: every run completed and the lag bounded — PASS when the p95 completion lag of the last third
//     of the runs is at most that of the first third + 500 ms (no growth).
//  3. kill -9: a second instance (bench/_playbooks-instance.ts: createRunner with leaseMillis LEASE_MILLIS, in
//     its own tsx process) runs KILL_RUNS runs (default 20) of a playbook with `timeout: 60s` and two actions:
//       a  `sleep 3; echo a`                            (no retry)
//       b  `sleep 3; echo b`, retry {limit: 2, duration: 1s}
//     (each script also appends a line to a marker file when it starts and when it reaches its end)
//     Half the runs are queued first and the other half once those are in action b, so at the kill half
//     the instance's runs are in the non-retryable action and half in the retryable one. The child is killed
//     with SIGKILL while all of them are running (attempt row 'running', script started); a runner in this
//     process (leaseMillis LEASE_MILLIS) takes them over once their leases run out. Figures: final states;
//     stuck runs (not final within the run timeout, target 0); non-retryable actions run twice (more than one
//     playbook_run_actions row for a (run, action) of `a`, or its script started more than once: target 0); the interrupted attempts
//     recorded 'failed' with "the instance running it stopped" (target: all of them); the retryable
//     interrupted attempts retried (info); the killed instance's scripts that ran on to their end anyway
//     (info: an exec action's process group outlives its instance); kill → takeover and kill → all final.
// Run: npx tsx bench/playbooks.ts [burst runs, default 100] [steady seconds at 1,000/h, default 120]
//      [seconds at 10,000/h, default 60] [runs killed, default 20]
// (LEASE_MILLIS, default 3000: the lease of both instances in scenario 3.) About 3.5 minutes at the defaults;
// exits 1 when a figure with a target fails.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import type pg from 'pg';
import { createRunner } from '../server/features/playbooks/index';
import { savePlaybook } from '../server/features/playbooks/playbooks';
import { DEFAULT_CONCURRENCY } from '../server/features/playbooks/runner';
import type { PlaybookRunner } from '../server/features/playbooks/runner';
import { INSTANCE_STOPPED } from '../server/features/playbooks/runner';
import { createRun, FINAL_STATUSES } from '../server/features/playbooks/runs';
import { loadConfig, type Config } from '../server/platform/config';
import { createPool } from '../server/platform/db/pool';
import { inTransaction } from '../server/platform/jobs/db';
import { createLogger } from '../server/platform/logger';
import { initSecrets, secretStore } from '../server/platform/secrets';
import { quantile, withEmbedded, type BenchDatabase } from './_db';

const BURST_RUNS = Number(process.argv[2] ?? 100);
const STEADY_SECONDS = Number(process.argv[3] ?? 120);
const FAST_SECONDS = Number(process.argv[4] ?? 60);
const KILL_RUNS = Number(process.argv[5] ?? 20);
const LEASE_MILLIS = Number(process.env.LEASE_MILLIS ?? 3_000);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Row {
  figure: string;
  value: string;
  target: string;
  verdict: 'PASS' | 'FAIL' | 'info';
}
const summary: Row[] = [];
const out = (line: string) => process.stdout.write(`${line}\n`);
const ms = (value: number) => (Number.isNaN(value) ? 'n/a' : value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${value < 100 ? value.toFixed(1) : Math.round(value).toString()} ms`);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const n = (value: number) => value.toLocaleString('en-US');
const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis));
const log = createLogger('warn');
const FINAL = FINAL_STATUSES as readonly string[];
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
/** The heap in use after a full collection: what this process keeps (RSS alone also counts garbage not yet collected). */
const heapAfterGc = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

function spread(samples: number[]): { p50: number; p95: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), max: sorted[sorted.length - 1] ?? NaN };
}

async function until(what: string, timeoutMillis: number, check: () => Promise<boolean>, everyMillis = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMillis;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(everyMillis);
  }
  out(`  (gave up waiting for ${what} after ${(timeoutMillis / 1000).toFixed(0)} s)`);
  return false;
}

async function savedPlaybook(pool: pg.Pool, name: string, spec: Record<string, unknown>): Promise<string> {
  return inTransaction(pool, async (client) => (await savePlaybook(client, { name, namespace: 'default', labels: {}, spec, source: 'UI' })).id);
}

async function queue(pool: pg.Pool, playbookId: string, count: number): Promise<string[]> {
  const secrets = secretStore(pool);
  return inTransaction(pool, async (client) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) ids.push((await createRun(client, secrets, { playbookId, request: { trigger: 'manual' } })).id);
    return ids;
  });
}

interface RunTimes {
  id: string;
  status: string;
  lag_start: number | null;
  lag_end: number | null;
  start_ms: number | null;
  end_ms: number | null;
  claimed_by: string | null;
}

async function runTimes(pool: pg.Pool, ids: string[]): Promise<RunTimes[]> {
  const { rows } = await pool.query<RunTimes>(
    `SELECT id, status, claimed_by,
            extract(epoch FROM start_time - created_at) * 1000 AS lag_start,
            extract(epoch FROM end_time - created_at) * 1000 AS lag_end,
            extract(epoch FROM start_time) * 1000 AS start_ms,
            extract(epoch FROM end_time) * 1000 AS end_ms
       FROM playbook_runs WHERE id = ANY($1::uuid[]) ORDER BY created_at, id`,
    [ids],
  );
  return rows.map((row) => ({
    ...row,
    lag_start: row.lag_start === null ? null : Number(row.lag_start),
    lag_end: row.lag_end === null ? null : Number(row.lag_end),
    start_ms: row.start_ms === null ? null : Number(row.start_ms),
    end_ms: row.end_ms === null ? null : Number(row.end_ms),
  }));
}

async function finalCount(pool: pg.Pool, ids: string[]): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM playbook_runs WHERE id = ANY($1::uuid[]) AND status = ANY($2::text[])', [ids, FINAL]);
  return rows[0]?.n ?? 0;
}

async function statusCounts(pool: pg.Pool, ids: string[]): Promise<string> {
  const { rows } = await pool.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM playbook_runs WHERE id = ANY($1::uuid[]) GROUP BY status ORDER BY status', [ids]);
  return rows.map((row) => `${row.status} ${row.n}`).join(', ') || 'none';
}

/** A runner as `serve` starts one: createRunner over its own pool (default size), with `options` on top. */
async function startRunner(url: string, config: Config, options: Parameters<typeof createRunner>[1] = {}): Promise<{ runner: PlaybookRunner; stop(): Promise<void> }> {
  const pool = createPool(url, log);
  const runner = createRunner({ pool, log, config }, options);
  await runner.start();
  return {
    runner,
    async stop() {
      await runner.stop();
      await pool.end();
    },
  };
}

const QUICK_SPEC = {
  title: 'Bench: three quick actions',
  actions: [
    { name: 'one', exec: { script: 'echo one' } },
    { name: 'two', exec: { script: 'echo two' } },
    { name: 'three', exec: { script: 'echo three' } },
  ],
};

// ── 1. A burst of runs queued at once ───────────────────────────────────────────────────────────────

async function burst(pool: pg.Pool, playbookId: string): Promise<void> {
  const started = Date.now();
  let committed = 0;
  const ids = await inTransaction(pool, async (client) => {
    const secrets = secretStore(pool);
    const list: string[] = [];
    for (let i = 0; i < BURST_RUNS; i += 1) list.push((await createRun(client, secrets, { playbookId, request: { trigger: 'manual' } })).id);
    return list;
  });
  committed = Date.now();
  const queuedMillis = committed - started;
  await until(`the ${BURST_RUNS} runs to end`, 300_000, async () => (await finalCount(pool, ids)) >= ids.length, 50);
  const times = await runTimes(pool, ids);
  const startLag = spread(times.flatMap((row) => (row.lag_start === null ? [] : [row.lag_start])));
  const fromCommit = spread(times.flatMap((row) => (row.start_ms === null ? [] : [row.start_ms - committed])));
  const endLag = spread(times.flatMap((row) => (row.lag_end === null ? [] : [row.lag_end])));
  const lastEnd = Math.max(...times.map((row) => row.end_ms ?? NaN));
  const allDone = lastEnd - committed;
  const completed = times.filter((row) => row.status === 'completed').length;
  const { rows: actionRows } = await pool.query<{ millis: number }>(
    'SELECT extract(epoch FROM end_time - start_time) * 1000 AS millis FROM playbook_run_actions WHERE playbook_run_id = ANY($1::uuid[])',
    [ids],
  );
  const actionTime = spread(actionRows.map((row) => Number(row.millis)));
  // The stricter figure: when each run's first action began (its script started), not when the run was claimed.
  const { rows: firstRows } = await pool.query<{ lag: number }>(
    `SELECT extract(epoch FROM min(a.start_time) - r.created_at) * 1000 AS lag FROM playbook_runs r
       JOIN playbook_run_actions a ON a.playbook_run_id = r.id AND a.action_index = 0 WHERE r.id = ANY($1::uuid[]) GROUP BY r.id, r.created_at`,
    [ids],
  );
  const firstAction = spread(firstRows.map((row) => Number(row.lag)));
  out(`1. burst: ${n(BURST_RUNS)} runs of a 3-action exec playbook queued in one transaction (${queuedMillis} ms from BEGIN to COMMIT); one runner, createRunner defaults (concurrency ${DEFAULT_CONCURRENCY})`);
  out(`   start lag (start_time − created_at)  p50 ${ms(startLag.p50)}  p95 ${ms(startLag.p95)}  max ${ms(startLag.max)}`);
  out(`   first action started − created_at  p50 ${ms(firstAction.p50)}  p95 ${ms(firstAction.p95)}  max ${ms(firstAction.max)}`);
  out(`   start − COMMIT                        p50 ${ms(fromCommit.p50)}  p95 ${ms(fromCommit.p95)}  max ${ms(fromCommit.max)}`);
  out(`   end − created_at                      p50 ${ms(endLag.p50)}  p95 ${ms(endLag.p95)}  max ${ms(endLag.max)}`);
  out(`   COMMIT → all ended ${ms(allDone)}; states: ${await statusCounts(pool, ids)}; one exec action (start → end) p50 ${ms(actionTime.p50)} p95 ${ms(actionTime.p95)}`);
  summary.push({ figure: `burst ${BURST_RUNS}: start lag p95`, value: ms(startLag.p95), target: '≤ 1 s', verdict: startLag.p95 <= 1_000 && completed === ids.length ? 'PASS' : 'FAIL' });
  summary.push({ figure: `burst ${BURST_RUNS}: start lag p50 / max`, value: `${ms(startLag.p50)} / ${ms(startLag.max)}`, target: '', verdict: 'info' });
  summary.push({ figure: `burst ${BURST_RUNS}: first action started, p95 / max`, value: `${ms(firstAction.p95)} / ${ms(firstAction.max)}`, target: '', verdict: 'info' });
  summary.push({ figure: `burst ${BURST_RUNS}: COMMIT → all completed`, value: `${ms(allDone)} (${completed}/${ids.length} completed)`, target: '', verdict: completed === ids.length ? 'info' : 'FAIL' });
}

// ── 2. Steady rates ─────────────────────────────────────────────────────────────────────────────────

async function steady(pool: pg.Pool, playbookId: string, label: string, everyMillis: number, seconds: number): Promise<void> {
  const count = Math.max(1, Math.floor((seconds * 1000) / everyMillis));
  const heapStart = heapAfterGc();
  const rss: Array<[string, number]> = [['start', process.memoryUsage().rss]];
  let peak = rss[0]?.[1] ?? 0;
  const ids: string[] = [];
  const started = Date.now();
  for (let i = 0; i < count; i += 1) {
    const [id] = await queue(pool, playbookId, 1);
    ids.push(id as string);
    peak = Math.max(peak, process.memoryUsage().rss);
    if (i === Math.floor(count / 2)) rss.push(['middle', process.memoryUsage().rss]);
    const wait = started + (i + 1) * everyMillis - Date.now();
    if (wait > 0) await sleep(wait);
  }
  const queuedSeconds = (Date.now() - started) / 1000;
  await until(`the ${label} runs to end`, 120_000, async () => (await finalCount(pool, ids)) >= ids.length, 100);
  rss.push(['end', process.memoryUsage().rss]);
  peak = Math.max(peak, process.memoryUsage().rss);
  const heapEnd = heapAfterGc();
  const times = await runTimes(pool, ids);
  const lags = times.flatMap((row) => (row.lag_end === null ? [] : [row.lag_end]));
  const all = spread(lags);
  const third = Math.max(1, Math.floor(lags.length / 3));
  const first = spread(lags.slice(0, third));
  const last = spread(lags.slice(-third));
  const startLag = spread(times.flatMap((row) => (row.lag_start === null ? [] : [row.lag_start])));
  const completed = times.filter((row) => row.status === 'completed').length;
  const bounded = last.p95 <= first.p95 + 500;
  out(`   ${label}: ${n(ids.length)} runs, one every ${everyMillis} ms, queued over ${queuedSeconds.toFixed(1)} s; ${completed}/${ids.length} completed (${await statusCounts(pool, ids)})`);
  out(`     completion lag (end_time − created_at)  p50 ${ms(all.p50)}  p95 ${ms(all.p95)}  max ${ms(all.max)}; first third p95 ${ms(first.p95)}, last third p95 ${ms(last.p95)}`);
  out(`     start lag p50 ${ms(startLag.p50)} p95 ${ms(startLag.p95)}; RSS ${rss.map(([at, bytes]) => `${at} ${mb(bytes)}`).join(', ')}; peak seen ${mb(peak)}; heap after a full GC ${mb(heapStart)} → ${mb(heapEnd)}`);
  summary.push({ figure: `${label}: completion lag p95`, value: ms(all.p95), target: 'bounded', verdict: completed === ids.length && bounded ? 'PASS' : 'FAIL' });
  summary.push({ figure: `${label}: runs completed`, value: `${completed}/${ids.length}`, target: 'all', verdict: completed === ids.length ? 'PASS' : 'FAIL' });
  summary.push({ figure: `${label}: RSS start / middle / end`, value: rss.map(([, bytes]) => mb(bytes)).join(' / '), target: '', verdict: 'info' });
  summary.push({ figure: `${label}: heap after GC, start → end`, value: `${mb(heapStart)} → ${mb(heapEnd)}`, target: '', verdict: 'info' });
}

// ── 3. kill -9 during running runs ───────────────────────────────────────────────────────────────────

interface Child {
  process: ChildProcess;
  instanceId: string;
}

async function startChild(url: string, dataDir: string): Promise<Child> {
  // `node --import tsx` (not the tsx CLI, which runs the script in a grandchild): the pid killed is the runner's.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', '_playbooks-instance.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, WATCHKEEPER_DATA: dataDir, LEASE_MILLIS: String(LEASE_MILLIS), LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const instanceId = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error('the second instance did not start within 60 s')), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const ready = /^ready (\S+)$/m.exec(text);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1] as string);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the second instance exited before it was ready (${code ?? signal})`));
    });
  });
  child.removeAllListeners('exit');
  return { process: child, instanceId };
}

async function runningOf(pool: pg.Pool, ids: string[], index: number, instanceId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    "SELECT count(DISTINCT a.playbook_run_id)::int AS n FROM playbook_run_actions a WHERE a.playbook_run_id = ANY($1::uuid[]) AND a.action_index = $2 AND a.status = 'running' AND a.claimed_by = $3",
    [ids, index, instanceId],
  );
  return rows[0]?.n ?? 0;
}

async function kill(db: BenchDatabase, config: Config, markers: string): Promise<void> {
  const { pool } = db;
  const marker = (index: number, at = '') => `echo "$$ $(date +%s.%N)" >> ${markers}/{{.run.id}}-${index}${at}`;
  const playbookId = await savedPlaybook(pool, 'bench-kill', {
    title: 'Bench: killed under way',
    timeout: '60s',
    actions: [
      { name: 'a', exec: { script: `${marker(0)}; sleep 3; ${marker(0, '-end')}; echo a` } },
      { name: 'b', exec: { script: `${marker(1)}; sleep 3; ${marker(1, '-end')}; echo b` }, retry: { limit: 2, duration: '1s' } },
    ],
  });
  const child = await startChild(db.url, config.dataDir);
  const exited = new Promise<void>((resolve) => child.process.once('exit', () => resolve()));
  let takeover: Awaited<ReturnType<typeof startRunner>> | undefined;
  try {
    const lines = async (id: string, index: number, at = '') => (await fs.readFile(path.join(markers, `${id}-${index}${at}`), 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
    // Running: the attempt row is 'running' on the child and its script has started (its start marker).
    const under = async (ids: string[], index: number) => {
      if ((await runningOf(pool, ids, index, child.instanceId)) < ids.length) return false;
      for (const id of ids) if ((await lines(id, index)) < 1) return false;
      return true;
    };
    const half = Math.ceil(KILL_RUNS / 2);
    // First half: into the retryable action b; then the second half: into the non-retryable action a.
    const inB = await queue(pool, playbookId, half);
    if (!(await until('the first half to be in action b', 30_000, () => under(inB, 1), 50))) throw new Error('the first half never reached action b');
    const inA = await queue(pool, playbookId, KILL_RUNS - half);
    if (!(await until('the second half to be in action a', 30_000, () => under(inA, 0), 50))) throw new Error('the second half never started action a');
    const ids = [...inB, ...inA];
    const { rows: interrupted } = await pool.query<{ id: string; action_index: number }>(
      "SELECT id, action_index FROM playbook_run_actions WHERE playbook_run_id = ANY($1::uuid[]) AND status = 'running' AND claimed_by = $2",
      [ids, child.instanceId],
    );
    const runningRuns = (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM playbook_runs WHERE id = ANY($1::uuid[]) AND status = 'running' AND claimed_by = $2", [ids, child.instanceId])).rows[0]?.n ?? 0;
    const killedAt = Date.now();
    process.kill(child.process.pid as number, 'SIGKILL');
    await exited;
    out(`\n3. kill -9: ${ids.length} runs running on a second instance (a tsx process, lease ${LEASE_MILLIS} ms): ${runningRuns} runs claimed by it, ${interrupted.filter((row) => row.action_index === 0).length} in action a (no retry), ${interrupted.filter((row) => row.action_index === 1).length} in action b (retry limit 2); SIGKILL`);

    takeover = await startRunner(db.url, config, { leaseMillis: LEASE_MILLIS });
    let firstClaim = NaN;
    const deadlineMillis = 60_000 + LEASE_MILLIS + 15_000;
    await until('every killed run to reach a final state', deadlineMillis, async () => {
      if (Number.isNaN(firstClaim)) {
        // The takeover's first write: an interrupted attempt no longer 'running'.
        const { rows } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM playbook_run_actions WHERE id = ANY($1::uuid[]) AND status <> 'running'", [interrupted.map((row) => row.id)]);
        if ((rows[0]?.n ?? 0) > 0) firstClaim = Date.now() - killedAt;
      }
      return (await finalCount(pool, ids)) >= ids.length;
    }, 50);
    const allFinal = Date.now() - killedAt;
    await sleep(4_000); // the orphaned scripts of the killed instance finish (sleep 3): their markers are written.

    const times = await runTimes(pool, ids);
    const stuck = times.filter((row) => !FINAL.includes(row.status));
    const overTimeout = times.filter((row) => row.start_ms !== null && row.end_ms !== null && row.end_ms - row.start_ms > 60_000 + 1_000);
    const { rows: actionRows } = await pool.query<{ id: string; playbook_run_id: string; action_index: number; retry_count: number; status: string; error: string | null }>(
      'SELECT id, playbook_run_id, action_index, retry_count, status, error FROM playbook_run_actions WHERE playbook_run_id = ANY($1::uuid[]) ORDER BY playbook_run_id, action_index, retry_count',
      [ids],
    );
    // Non-retryable action a: more than one attempt row, or its script started more than once.
    const rowsOfA = new Map<string, number>();
    for (const row of actionRows) if (row.action_index === 0) rowsOfA.set(row.playbook_run_id, (rowsOfA.get(row.playbook_run_id) ?? 0) + 1);
    const twiceByRows = [...rowsOfA.values()].filter((count) => count > 1).length;
    let twiceByMarkers = 0;
    let bStarts = 0;
    // Scripts of the killed instance keep running (their own process group): count the interrupted
    // attempts whose script still reached its end, and the runs whose b reached its end twice (orphan + retry).
    let aOrphansFinished = 0;
    let bEndedTwice = 0;
    for (const id of ids) {
      if ((await lines(id, 0)) > 1) twiceByMarkers += 1;
      bStarts += await lines(id, 1);
      if (inA.includes(id) && (await lines(id, 0, '-end')) > 0) aOrphansFinished += 1;
      if (inB.includes(id) && (await lines(id, 1, '-end')) > 1) bEndedTwice += 1;
    }
    const byId = new Map(actionRows.map((row) => [row.id, row]));
    const recorded = interrupted.filter((row) => byId.get(row.id)?.status === 'failed' && byId.get(row.id)?.error === INSTANCE_STOPPED);
    const wrongA = interrupted.filter((row) => row.action_index === 0 && !recorded.includes(row));
    const interruptedB = interrupted.filter((row) => row.action_index === 1);
    const retriedB = interruptedB.filter((row) => {
      const before = byId.get(row.id);
      return before && actionRows.some((other) => other.playbook_run_id === before.playbook_run_id && other.action_index === 1 && other.retry_count === before.retry_count + 1 && other.status === 'completed');
    });
    const expected = (id: string) => (inB.includes(id) ? 'completed' : 'failed');
    const unexpected = times.filter((row) => row.status !== expected(row.id));
    out(`   final states: ${await statusCounts(pool, ids)} (expected: the ${inB.length} killed in b completed after a retry, the ${inA.length} killed in a failed); other than expected ${unexpected.length}`);
    out(`   kill → first takeover write ${ms(firstClaim)}; kill → all final ${ms(allFinal)}; stuck ${stuck.length}; ended later than the 60 s timeout ${overTimeout.length}`);
    out(`   action a (no retry): runs with more than one attempt row ${twiceByRows}; scripts started more than once (markers) ${twiceByMarkers}; interrupted attempts recorded failed "${INSTANCE_STOPPED}" ${interrupted.filter((row) => row.action_index === 0).length - wrongA.length}/${interrupted.filter((row) => row.action_index === 0).length}`);
    out(`   action b (retry): interrupted ${interruptedB.length}, recorded failed "${INSTANCE_STOPPED}" ${interruptedB.filter((row) => recorded.includes(row)).length}, retried and completed ${retriedB.length}; b scripts started in all ${bStarts} (${interruptedB.length} interrupted + ${retriedB.length} retries)`);
    out(`   the killed instance's scripts ran on (own process group): interrupted a scripts that still reached their end ${aOrphansFinished}/${inA.length} (recorded failed all the same); runs whose b reached its end twice (orphan + retry) ${bEndedTwice}/${inB.length}`);
    summary.push({ figure: 'kill -9: final states', value: await statusCounts(pool, ids), target: '', verdict: unexpected.length === 0 ? 'info' : 'FAIL' });
    summary.push({ figure: 'kill -9: stuck runs', value: String(stuck.length + overTimeout.length), target: '0', verdict: stuck.length + overTimeout.length === 0 ? 'PASS' : 'FAIL' });
    summary.push({ figure: 'kill -9: non-retryable actions run twice', value: String(Math.max(twiceByRows, twiceByMarkers)), target: '0', verdict: twiceByRows === 0 && twiceByMarkers === 0 ? 'PASS' : 'FAIL' });
    summary.push({ figure: 'kill -9: interrupted recorded "instance stopped"', value: `${recorded.length}/${interrupted.length}`, target: 'all', verdict: recorded.length === interrupted.length && interrupted.length > 0 ? 'PASS' : 'FAIL' });
    summary.push({ figure: 'kill -9: retryable interrupted, retried ok', value: `${retriedB.length}/${interruptedB.length}`, target: '', verdict: retriedB.length === interruptedB.length ? 'info' : 'FAIL' });
    summary.push({ figure: 'kill -9: orphaned a / b scripts that finished', value: `${aOrphansFinished}/${inA.length} / ${bEndedTwice}/${inB.length}`, target: '', verdict: 'info' });
    summary.push({ figure: 'kill -9: kill → takeover / all final', value: `${ms(firstClaim)} / ${ms(allFinal)}`, target: '', verdict: 'info' });
  } finally {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    await takeover?.stop();
  }
}

async function main(db: BenchDatabase): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-bench-playbooks-data-'));
  const markers = path.join(dataDir, 'markers');
  await fs.mkdir(markers, { recursive: true });
  initSecrets(dataDir);
  const config = loadConfig({ DATABASE_URL: db.url, WATCHKEEPER_DATA: dataDir });
  out(`database: ${db.label}; Node ${process.version}; ${os.cpus().length} cores; runners of scenarios 1–2 in this process (createRunner defaults, pool of 20)\n`);
  try {
    const quick = await savedPlaybook(db.pool, 'bench-quick', QUICK_SPEC);
    const instance = await startRunner(db.url, config);
    try {
      // Warm-up (not measured): the runner's first claim, the first exec spawn, code paths compiled.
      const warm = await queue(db.pool, quick, 3);
      await until('the warm-up runs', 30_000, async () => (await finalCount(db.pool, warm)) >= warm.length);
      await burst(db.pool, quick);
      out('\n2. steady rate: runs queued one at a time (each its own transaction), the same runner');
      if (STEADY_SECONDS > 0) await steady(db.pool, quick, '1,000 runs/h', 3_600, STEADY_SECONDS);
      if (FAST_SECONDS > 0) await steady(db.pool, quick, '10,000 runs/h', 360, FAST_SECONDS);
    } finally {
      await instance.stop();
    }
    if (KILL_RUNS > 0) await kill(db, config, markers);
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const started = Date.now();
await withEmbedded('playbooks', main);

const width = Math.max(...summary.map((row) => row.figure.length));
const valueWidth = Math.max(...summary.map((row) => row.value.length));
out(`\nsummary (${((Date.now() - started) / 1000).toFixed(0)} s)`);
for (const row of summary) out(`  ${row.figure.padEnd(width)}  ${row.value.padStart(valueWidth)}  ${row.target.padEnd(8)} ${row.verdict}`);
process.exit(summary.some((row) => row.verdict === 'FAIL') ? 1 : 0);
