// Agents at scale (issue 23, docs/AGENTS.md "Measured"): one upstream `watchkeeper serve` and BENCH_AGENTS
// agent `serve --upstream` processes on this machine, each with its own database on the PostgreSQL at
// 127.0.0.1:5432 (created here, dropped at the end), each running BENCH_CHECKS tcp checks every 30 s
// against a small HTTP server of this process and a file scraper of BENCH_CONFIGS config items, applied
// with `watchkeeper apply`. Measures:
//   1. latency from a check result's time on the agent to its arrival upstream (upstream DB polled every
//      300 ms), p50/p95/max over a steady window — target p95 ≤ 10 s;
//   2. the time until every agent's config items are upstream;
//   3. an outage: the upstream is stopped (SIGTERM) for BENCH_OUTAGE_SECONDS and restarted; once every
//      agent's queue is empty, each agent's rows are compared with the upstream's — target 0 lost,
//      0 duplicated (and the upstream's rollups must count each result once);
//   4. push throughput (results per second, steady and during catch-up) and the upstream's CPU per 1,000
//      results.
// Run: npx tsx bench/agents.ts
// Knobs: BENCH_AGENTS=5 BENCH_CHECKS=500 BENCH_CONFIGS=5000 BENCH_STEADY_SECONDS=120 BENCH_OUTAGE_SECONDS=300
//        BENCH_PG_URL=postgres://postgres@127.0.0.1:5432 (a server where this user may CREATE DATABASE: the
//        upstream's database), BENCH_AGENT_DB=embedded|shared (each agent on its own embedded PostgreSQL in
//        os.tmpdir(), the default, or a database of its own on BENCH_PG_URL as well)
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { stringify } from 'yaml';
import { createIdentity } from '../server/features/identity/identities';
import { createSession } from '../server/features/identity/sessions';
import { ensureEmbedded, freePort } from '../server/platform/db/embedded';
import { migrate } from '../server/platform/db/migrate';
import { createLogger } from '../server/platform/logger';
import { ROOT } from '../test/cli';
import { quantile } from './_db';

const num = (name: string, fallback: number, min: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) {
    process.stderr.write(`${name}=${raw}: must be a number ≥ ${min}\n`);
    process.exit(2);
  }
  return Math.floor(value);
};

const AGENTS = num('BENCH_AGENTS', 5, 1);
const CHECKS = num('BENCH_CHECKS', 500, 1);
const CONFIGS = num('BENCH_CONFIGS', 5_000, 1);
const STEADY_SECONDS = num('BENCH_STEADY_SECONDS', 120, 10);
const OUTAGE_SECONDS = num('BENCH_OUTAGE_SECONDS', 300, 0);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
/**
 * Where the agents' databases live: 'embedded' (default: each agent its own embedded PostgreSQL, as an agent
 * runs in the field) or 'shared' (a database per agent on BENCH_PG_URL too). Six consoles with pools of 20
 * exceed a max_connections of 100, so 'shared' suits only a few agents or a larger server.
 */
const AGENT_DB = process.env.BENCH_AGENT_DB === 'shared' ? 'shared' : 'embedded';
const CHECKS_PER_CANARY = 50;
const INTERVAL_SECONDS = 30;
const POLL_MS = 300;
/** Results older than this when first seen upstream are not picked up by the latency poll (counted as missing). */
const LOOKBACK_MS = 120_000;
const LATENCY_TARGET_MS = 10_000;
const NIL = '00000000-0000-0000-0000-000000000000';
const TICKS = 100; // getconf CLK_TCK on Linux
const RUN = `wk_bench_agents_${process.pid}`;

const log = createLogger('error');
const quiet = createLogger('warn');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const out = (line = '') => process.stdout.write(`${line}\n`);
const elapsed = (() => {
  const started = Date.now();
  return () => `[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s]`;
})();
const note = (line: string) => out(`${elapsed()} ${line}`);
const load = () => os.loadavg().map((value) => value.toFixed(2)).join(' ');

// ---------------------------------------------------------------------------------------------------------
// Cleanup: every resource registers its undo; run in reverse order at the end, on failure and on Ctrl-C.

const cleanups: Array<{ what: string; undo: () => Promise<unknown> }> = [];
let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const { what, undo } of cleanups.reverse()) {
      try {
        await undo();
      } catch (error) {
        process.stderr.write(`cleanup (${what}): ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    process.stderr.write(`\n${signal}: stopping the processes and dropping the bench databases…\n`);
    void cleanup().finally(() => process.exit(130));
  });
}

/** Waits until `check` answers a value (not undefined), or throws naming `what` after `timeoutMs`. */
async function until<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>, everyMs = 500): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${secs(timeoutMs)}: ${what}`);
    await sleep(everyMs);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Databases

function dbUrl(name: string): string {
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function createDatabase(admin: pg.Client, name: string): Promise<string> {
  await admin.query(`CREATE DATABASE ${name}`);
  cleanups.push({
    what: `drop database ${name}`,
    undo: async () => {
      const client = new pg.Client({ connectionString: dbUrl('postgres') });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  });
  return dbUrl(name);
}

function benchPool(url: string, max = 4): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, application_name: 'bench-agents', idleTimeoutMillis: 10_000 });
  pool.on('error', () => undefined);
  cleanups.push({ what: 'bench pool', undo: () => pool.end() });
  return pool;
}

/** Migrates, and makes an admin with a session token (as bench/health.ts does). */
async function prepare(pool: pg.Pool, email: string): Promise<string> {
  await migrate(pool, quiet);
  const { id } = await createIdentity(pool, { traits: { email, name: { first: 'Bench', last: 'Agents' } }, roles: ['admin'], verified: true });
  const { token } = await createSession(pool, id, { method: 'password', aal: 'aal1' }, { ip: '127.0.0.1', userAgent: 'bench-agents' });
  return token;
}

// ---------------------------------------------------------------------------------------------------------
// Processes: `watchkeeper serve` (and `apply`) from the sources through tsx, as bench/_http.ts does.

const serves: Serve[] = [];

interface Serve {
  name: string;
  url: string;
  child: ChildProcess;
  tail(): string;
  stop(): Promise<void>;
}

function tsx(args: string[], env: Record<string, string>): { child: ChildProcess; tail: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server', 'main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, tail: () => output };
}

async function startServe(name: string, port: number, env: Record<string, string>, args: string[] = []): Promise<Serve> {
  const { child, tail } = tsx(['serve', ...args], { HOST: '127.0.0.1', PORT: String(port), ...env });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  };
  cleanups.push({ what: `stop ${name}`, undo: stop });
  serves.push({ name, url, child, tail, stop });
  await until(`${name} healthy on ${url}`, 120_000, async () => {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${tail()}`);
    return (await fetch(`${url}/health`).then((res) => res.status === 200, () => false)) ? true : undefined;
  }, 200);
  return { name, url, child, tail, stop };
}

async function runApply(dir: string, env: Record<string, string>): Promise<string> {
  const { child, tail } = tsx(['apply', '-f', dir], env);
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.once('exit', (status) => {
      clearTimeout(timer);
      resolve(status);
    });
  });
  if (code !== 0) throw new Error(`watchkeeper apply -f ${dir} exited with ${code}:\n${tail()}`);
  return tail().trim().split('\n').pop() ?? '';
}

async function api<T>(base: string, token: string, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { 'x-session-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(300_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: HTTP ${res.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/** utime + stime of a process in milliseconds (/proc/<pid>/stat fields 14 and 15), or undefined when gone. */
async function cpuMs(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  } catch {
    return undefined;
  }
}

/** CPU of the upstream's node process and of the PostgreSQL backends serving its pool (those alive now). */
async function upstreamCpu(upstream: Serve, pool: pg.Pool, db: string): Promise<{ node: number; backends: Map<number, number> }> {
  const node = (await cpuMs(upstream.child.pid)) ?? NaN;
  const { rows } = await pool.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name <> 'bench-agents'", [db]);
  const backends = new Map<number, number>();
  for (const { pid } of rows) {
    const ms = await cpuMs(pid);
    if (ms !== undefined) backends.set(pid, ms);
  }
  return { node, backends };
}

function cpuDelta(from: { node: number; backends: Map<number, number> }, to: { node: number; backends: Map<number, number> }): { node: number; backends: number; counted: number } {
  let backends = 0;
  let counted = 0;
  for (const [pid, ms] of to.backends) {
    const before = from.backends.get(pid);
    if (before === undefined) continue;
    backends += ms - before;
    counted += 1;
  }
  return { node: to.node - from.node, backends, counted };
}

// ---------------------------------------------------------------------------------------------------------
// The latency poll: new check_statuses keys upstream, each with the time it was first seen.

interface Sample {
  /** The result's time (when the check started, on the agent). */
  time: number;
  /** When the poll that first saw it started (the row was committed before; error ≤ one poll interval). */
  seen: number;
}

class Poller {
  readonly samples: Sample[] = [];
  /** (ms, total check_statuses rows upstream) every poll. */
  readonly counts: Array<{ at: number; total: number }> = [];
  private readonly seen = new Map<string, number>();
  private stopped = false;
  private loop: Promise<void> | undefined;
  maxPollMs = 0;

  constructor(private readonly pool: pg.Pool) {}

  start(): void {
    this.loop = (async () => {
      while (!this.stopped) {
        const started = Date.now();
        try {
          await this.poll(started);
        } catch (error) {
          process.stderr.write(`latency poll: ${error instanceof Error ? error.message : String(error)}\n`);
        }
        this.maxPollMs = Math.max(this.maxPollMs, Date.now() - started);
        await sleep(Math.max(0, POLL_MS - (Date.now() - started)));
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  private async poll(started: number): Promise<void> {
    const { rows } = await this.pool.query<{ k: string; t: string; total: string }>(
      `SELECT s.check_id::text || '/' || (extract(epoch FROM s.time) * 1000000)::bigint AS k, (extract(epoch FROM s.time) * 1000)::float8::text AS t,
              (SELECT count(*) FROM check_statuses)::text AS total
         FROM check_statuses s WHERE s.time > $1
       UNION ALL SELECT NULL, NULL, (SELECT count(*) FROM check_statuses)::text`,
      [new Date(started - LOOKBACK_MS)],
    );
    for (const row of rows) {
      if (row.k === null) {
        this.counts.push({ at: started, total: Number(row.total) });
        continue;
      }
      if (this.seen.has(row.k)) continue;
      const time = Number(row.t);
      this.seen.set(row.k, time);
      this.samples.push({ time, seen: started });
    }
    if (this.seen.size > 200_000) for (const [key, time] of this.seen) if (time < started - LOOKBACK_MS - 60_000) this.seen.delete(key);
  }

  /** Rows that arrived upstream between two instants (from the counts). */
  arrivedBetween(from: number, to: number): number {
    const at = (instant: number) => {
      let best = this.counts[0]?.total ?? 0;
      for (const point of this.counts) if (point.at <= instant) best = point.total;
      return best;
    };
    return at(to) - at(from);
  }

  /** The highest arrival rate over any `windowMs` between two instants (rows per second). */
  peakRate(from: number, to: number, windowMs = 5_000): number {
    const points = this.counts.filter((point) => point.at >= from && point.at <= to);
    let peak = 0;
    let j = 0;
    for (let i = 0; i < points.length; i += 1) {
      const end = points[i] as { at: number; total: number };
      while (j < i && end.at - (points[j] as { at: number }).at > windowMs) j += 1;
      const start = points[j] as { at: number; total: number };
      if (end.at - start.at >= windowMs / 2) peak = Math.max(peak, ((end.total - start.total) * 1000) / (end.at - start.at));
    }
    return peak;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Resources applied to each agent: canaries of tcp checks, and a file scraper over a generated JSON file.

async function writeResources(dir: string, targetPort: number, agent: number): Promise<void> {
  await fs.mkdir(path.join(dir, 'resources'), { recursive: true });
  const docs: unknown[] = [];
  for (let c = 0, made = 0; made < CHECKS; c += 1) {
    const tcp = [];
    for (let i = 0; i < CHECKS_PER_CANARY && made < CHECKS; i += 1, made += 1) tcp.push({ name: `port-${String(made).padStart(4, '0')}`, endpoint: `127.0.0.1:${targetPort}`, thresholdMillis: 5000 });
    docs.push({ apiVersion: 'canaries.flanksource.com/v1', kind: 'Canary', metadata: { name: `bench-${String(c).padStart(2, '0')}`, namespace: 'bench' }, spec: { schedule: `@every ${INTERVAL_SECONDS}s`, tcp } });
  }
  const items = Array.from({ length: CONFIGS }, (_, i) => ({
    id: `host-${agent}-${String(i).padStart(5, '0')}`,
    name: `host-${String(i).padStart(5, '0')}`,
    datacenter: `dc-${i % 7}`,
    rack: `r-${i % 40}`,
    os: { family: 'linux', release: `6.${i % 12}` },
    cpus: 2 + (i % 30),
    memory_gb: 4 * (1 + (i % 16)),
    up: i % 50 !== 0,
  }));
  await fs.writeFile(path.join(dir, 'items.json'), JSON.stringify(items));
  docs.push({
    apiVersion: 'configs.flanksource.com/v1',
    kind: 'ScrapeConfig',
    metadata: { name: 'bench-hosts', namespace: 'bench' },
    spec: { schedule: '@never', file: [{ paths: [path.join(dir, 'items.json')], type: 'Bench::Host', id: '$.id', name: '$.name' }] },
  });
  await fs.writeFile(path.join(dir, 'resources', 'bench.yaml'), docs.map((doc) => stringify(doc)).join('---\n'));
}

// ---------------------------------------------------------------------------------------------------------

interface Agent {
  index: number;
  name: string;
  id: string;
  db: string;
  url: string;
  pool: pg.Pool;
  token: string;
  dir: string;
  serve: Serve;
  env: Record<string, string>;
}

interface Status {
  queue_depth: number;
  last_success_at: string | null;
  last_error: string | null;
  pushed_total: number;
  pushes_total: number;
  failures_total: number;
}

const agentStatus = (agent: Agent) => api<Status>(agent.serve.url, agent.token, 'GET', '/api/agent/status');

function latencyStats(samples: Sample[], expected: number): { n: number; missing: number; p50: number; p95: number; max: number } {
  const latencies = samples.map((sample) => sample.seen - sample.time).sort((a, b) => a - b);
  const missing = Math.max(0, expected - latencies.length);
  // Results not seen (yet) count as later than any seen, for the quantiles.
  const all = [...latencies, ...Array.from({ length: missing }, () => Infinity)];
  return { n: latencies.length, missing, p50: quantile(all, 0.5), p95: quantile(all, 0.95), max: missing > 0 ? Infinity : (latencies.at(-1) ?? NaN) };
}

async function main(): Promise<void> {
  out(`settings: BENCH_AGENTS=${AGENTS} BENCH_CHECKS=${CHECKS} (tcp, every ${INTERVAL_SECONDS} s, ${CHECKS_PER_CANARY} per canary) BENCH_CONFIGS=${CONFIGS} BENCH_STEADY_SECONDS=${STEADY_SECONDS} BENCH_OUTAGE_SECONDS=${OUTAGE_SECONDS}`);
  out(`machine: ${os.cpus().length} cores, load average ${load()} at start; upstream database on PostgreSQL ${new URL(PG_URL).host}, agents' on ${AGENT_DB === 'shared' ? 'the same server' : 'an embedded PostgreSQL each'}; upstream and agents run the sources through tsx`);

  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-bench-agents-'));
  cleanups.push({ what: `remove ${tmp}`, undo: () => fs.rm(tmp, { recursive: true, force: true }) });

  // The target of the checks: a small HTTP server (the tcp checks connect to its port).
  const target = http.createServer((_req, res) => res.end('ok'));
  target.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  cleanups.push({ what: 'target server', undo: () => new Promise((resolve) => target.close(() => resolve(undefined))) });
  const targetPort = (target.address() as { port: number }).port;

  const admin = new pg.Client({ connectionString: dbUrl('postgres') });
  await admin.connect();
  const upstreamDb = `${RUN}_upstream`;
  const upstreamUrl = await createDatabase(admin, upstreamDb);
  const agentDbs: string[] = [];
  for (let i = 1; i <= AGENTS; i += 1) agentDbs.push(`${RUN}_agent_${i}`);
  const agentUrls: string[] = [];
  if (AGENT_DB === 'shared') for (const name of agentDbs) agentUrls.push(await createDatabase(admin, name));
  await admin.end();
  if (AGENT_DB === 'embedded') {
    for (let i = 1; i <= AGENTS; i += 1) {
      const dataDir = path.join(tmp, `bench-${i}`, 'postgres-data');
      await fs.mkdir(dataDir, { recursive: true });
      // When running as root the engine runs as "postgres", which must be able to enter the directories.
      await fs.chmod(tmp, 0o755);
      await fs.chmod(path.dirname(dataDir), 0o755);
      await fs.chmod(dataDir, 0o755);
      const embedded = await ensureEmbedded({ dataDir, log: quiet });
      embedded.takeOwnership();
      cleanups.push({ what: `stop the embedded PostgreSQL of bench-${i}`, undo: () => embedded.stop() });
      agentUrls.push(embedded.url);
    }
  }

  const upPool = benchPool(upstreamUrl, 4);
  note(AGENT_DB === 'shared' ? `created ${1 + AGENTS} databases (${RUN}_*); migrating` : `created ${upstreamDb} and ${AGENTS} embedded PostgreSQL servers for the agents; migrating`);
  const upToken = await prepare(upPool, 'bench-upstream@example.com');
  const agentPools = agentUrls.map((url) => benchPool(url, 3));
  const agentTokens: string[] = [];
  for (const pool of agentPools) agentTokens.push(await prepare(pool, 'bench-agent@example.com'));

  const upPort = await freePort();
  const upEnv = { DATABASE_URL: upstreamUrl, WATCHKEEPER_DATA: path.join(tmp, 'upstream'), PUBLIC_URL: `http://127.0.0.1:${upPort}` };
  let upstream = await startServe('upstream', upPort, upEnv);
  note(`upstream serving on ${upstream.url} (pid ${upstream.child.pid})`);

  const agents: Agent[] = [];
  for (let i = 0; i < AGENTS; i += 1) {
    const name = `bench-${i + 1}`;
    const generated = await api<{ id: string; access_token: string }>(upstream.url, upToken, 'POST', '/api/agent/generate', { name, properties: { bench: true } });
    const dir = path.join(tmp, name);
    await writeResources(dir, targetPort, i + 1);
    const env = { DATABASE_URL: agentUrls[i] as string, WATCHKEEPER_DATA: path.join(dir, 'data') };
    const port = await freePort();
    const serve = await startServe(name, port, env, ['--upstream', upstream.url, '--token', generated.access_token, '--agent-name', name]);
    agents.push({ index: i, name, id: generated.id, db: agentDbs[i] as string, url: agentUrls[i] as string, pool: agentPools[i] as pg.Pool, token: agentTokens[i] as string, dir, serve, env });
  }
  note(`${AGENTS} agents serving (pids ${agents.map((agent) => agent.serve.child.pid).join(', ')})`);

  const poller = new Poller(upPool);
  poller.start();
  cleanups.push({ what: 'latency poll', undo: () => poller.stop() });

  // Resources, with `watchkeeper apply` on each agent's database (the running agent queues what it writes).
  const applied = await Promise.all(agents.map((agent) => runApply(path.join(agent.dir, 'resources'), agent.env)));
  note(`applied on each agent: ${applied[0]}`);

  // (2) Configs: each agent's scraper runs now; the time until all items are upstream.
  const scraperIds = await Promise.all(agents.map(async (agent) => (await agent.pool.query<{ id: string }>("SELECT id FROM config_scrapers WHERE name = 'bench-hosts'")).rows[0]?.id as string));
  const configsStarted = Date.now();
  const scrapeMs: number[] = [];
  const scrapes = agents.map(async (agent, i) => {
    const started = Date.now();
    const summary = await api<{ created: number; errors: unknown[] }>(agent.serve.url, agent.token, 'POST', `/api/config/run/${scraperIds[i]}`);
    scrapeMs[i] = Date.now() - started;
    if (summary.created !== CONFIGS || summary.errors.length > 0) throw new Error(`${agent.name}: the scrape created ${summary.created} items (expected ${CONFIGS}), errors ${JSON.stringify(summary.errors).slice(0, 300)}`);
  });
  const configTimes = new Map<string, number>();
  const configsDone = until(`all ${AGENTS} × ${CONFIGS} config items upstream`, 600_000, async () => {
    const { rows } = await upPool.query<{ agent_id: string; n: string }>('SELECT agent_id::text, count(*)::text AS n FROM config_items WHERE agent_id <> $1 AND deleted_at IS NULL GROUP BY agent_id', [NIL]);
    for (const row of rows) if (Number(row.n) >= CONFIGS && !configTimes.has(row.agent_id)) configTimes.set(row.agent_id, Date.now() - configsStarted);
    return configTimes.size === AGENTS ? Date.now() - configsStarted : undefined;
  }, 250);
  await Promise.all(scrapes);
  const configsMs = await configsDone;
  note(`config items upstream: all ${AGENTS * CONFIGS} in ${secs(configsMs)}`);

  // Every agent's checks report upstream before the steady window starts.
  await until('every agent has check results upstream', 120_000, async () => {
    const { rows } = await upPool.query<{ n: string }>('SELECT count(DISTINCT c.agent_id)::text AS n FROM check_statuses s JOIN checks c ON c.id = s.check_id');
    return Number(rows[0]?.n) >= AGENTS ? true : undefined;
  });
  note(`every agent's checks report upstream; one more interval (${INTERVAL_SECONDS} s) before the steady window`);
  await sleep(INTERVAL_SECONDS * 1000);

  // (1) Steady window.
  const statusesBefore = await Promise.all(agents.map(agentStatus));
  const steadyFrom = Date.now();
  const cpuFrom = await upstreamCpu(upstream, upPool, upstreamDb);
  note(`steady window: ${STEADY_SECONDS} s (load ${load()})`);
  await sleep(STEADY_SECONDS * 1000);
  const steadyTo = Date.now();
  const cpuTo = await upstreamCpu(upstream, upPool, upstreamDb);
  const statusesAfter = await Promise.all(agents.map(agentStatus));
  const steadyLoad = load();
  // Results of the window still on their way get 15 s more to be seen (anything later counts as missing).
  await sleep(15_000);
  let expected = 0;
  for (const agent of agents) {
    const { rows } = await agent.pool.query<{ n: string }>('SELECT count(*)::text AS n FROM check_statuses WHERE time >= $1 AND time < $2', [new Date(steadyFrom), new Date(steadyTo)]);
    expected += Number(rows[0]?.n);
  }
  const windowSamples = poller.samples.filter((sample) => sample.time >= steadyFrom && sample.time < steadyTo);
  const latency = latencyStats(windowSamples, expected);
  const steadyArrived = poller.arrivedBetween(steadyFrom, steadyTo);
  const steadyCpu = cpuDelta(cpuFrom, cpuTo);
  const steadyRows = statusesAfter.reduce((sum, s, i) => sum + s.pushed_total - (statusesBefore[i] as Status).pushed_total, 0);
  const steadyPushes = statusesAfter.reduce((sum, s, i) => sum + s.pushes_total - (statusesBefore[i] as Status).pushes_total, 0);
  note(`steady: ${latency.n} results seen (of ${expected}), p95 ${secs(latency.p95)}`);

  // (3) Outage.
  const catchupCounts = new Map<string, number>();
  let outageFrom = Date.now();
  let restartedAt = outageFrom;
  let healthyAt = outageFrom;
  let caughtUpAt = outageFrom;
  const caughtUp = new Map<string, { ms: number }>();
  let catchupCpu = { node: NaN, backends: NaN, counted: 0 };
  let catchupLoad = '';
  let maxQueue = 0;
  let catchupPushed = 0;
  if (OUTAGE_SECONDS > 0) {
    note(`stopping the upstream (SIGTERM) for ${OUTAGE_SECONDS} s`);
    outageFrom = Date.now();
    await upstream.stop();
    const stoppedMs = Date.now() - outageFrom;
    await sleep(OUTAGE_SECONDS * 1000);
    const queued = await Promise.all(agents.map(agentStatus));
    maxQueue = Math.max(...queued.map((s) => s.queue_depth));
    const pushedBefore = queued.reduce((sum, s) => sum + s.pushed_total, 0);
    note(`restarting the upstream (stopped in ${secs(stoppedMs)}; queues now ${queued.map((s) => s.queue_depth).join(', ')})`);
    restartedAt = Date.now();
    upstream = await startServe('upstream (restarted)', upPort, upEnv);
    healthyAt = Date.now();
    const cpuStart = await upstreamCpu(upstream, upPool, upstreamDb);
    note(`upstream healthy again in ${secs(healthyAt - restartedAt)}; waiting for every agent's queue to be empty`);
    await until('every agent queue empty after the restart', Math.max(600_000, OUTAGE_SECONDS * 2000), async () => {
      await Promise.all(
        agents.map(async (agent) => {
          if (caughtUp.has(agent.name)) return;
          const status = await agentStatus(agent);
          if (status.queue_depth === 0 && status.last_success_at && Date.parse(status.last_success_at) >= restartedAt) {
            caughtUp.set(agent.name, { ms: Date.now() - healthyAt });
            catchupCounts.set(agent.name, status.pushed_total);
          }
        }),
      );
      return caughtUp.size === AGENTS ? true : undefined;
    });
    caughtUpAt = Date.now();
    const cpuEnd = await upstreamCpu(upstream, upPool, upstreamDb);
    catchupCpu = cpuDelta(cpuStart, cpuEnd);
    catchupLoad = load();
    catchupPushed = [...catchupCounts.values()].reduce((sum, n) => sum + n, 0) - pushedBefore;
    note(`caught up in ${secs(caughtUpAt - healthyAt)} after the upstream was healthy`);
  }

  // Compare each agent's rows with the upstream's: everything written on the agent before its queue was
  // seen empty (less 30 s, more than a result takes from its time to its row) must be upstream, once.
  await sleep(5_000);
  out();
  const compare: string[] = [];
  let lostTotal = 0;
  let extraTotal = 0;
  let doubleTotal = 0;
  for (const agent of agents) {
    const emptyAt = await until(`${agent.name}: queue empty for the comparison`, 120_000, async () => ((await agentStatus(agent)).queue_depth === 0 ? Date.now() : undefined), 200);
    const cutoff = new Date(emptyAt - 30_000);
    const key = "check_id::text || '/' || (extract(epoch FROM time) * 1000000)::bigint AS k";
    const local = new Set((await agent.pool.query<{ k: string }>(`SELECT ${key} FROM check_statuses WHERE time < $1`, [cutoff])).rows.map((row) => row.k));
    const upRows = (await upPool.query<{ k: string }>(`SELECT ${key.replace(/check_id|time/g, (m) => `s.${m}`)} FROM check_statuses s JOIN checks c ON c.id = s.check_id WHERE c.agent_id = $1 AND s.time < $2`, [agent.id, cutoff])).rows.map((row) => row.k);
    const upSet = new Set(upRows);
    const lost = [...local].filter((k) => !upSet.has(k)).length;
    const extra = [...upSet].filter((k) => !local.has(k)).length + (upRows.length - upSet.size);
    const localItems = new Set((await agent.pool.query<{ id: string }>('SELECT id::text FROM config_items WHERE created_at < $1', [cutoff])).rows.map((row) => row.id));
    const upItems = new Set((await upPool.query<{ id: string }>('SELECT id::text FROM config_items WHERE agent_id = $1 AND created_at < $2', [agent.id, cutoff])).rows.map((row) => row.id));
    const itemsLost = [...localItems].filter((id) => !upItems.has(id)).length;
    const itemsExtra = [...upItems].filter((id) => !localItems.has(id)).length;
    // The rollups count each result once: totals and the latest hourly row (cumulative) equal the number of
    // results, per check, upstream (one snapshot).
    const { rows: rollup } = await upPool.query<{ checks: string; statuses: string; totals: string; hourly: string }>(
      `WITH mine AS (SELECT id FROM checks WHERE agent_id = $1),
            s AS (SELECT check_id, count(*) AS n FROM check_statuses WHERE check_id IN (SELECT id FROM mine) GROUP BY check_id),
            t AS (SELECT check_id, passed + failed AS n FROM check_totals WHERE check_id IN (SELECT id FROM mine)),
            h AS (SELECT DISTINCT ON (check_id) check_id, passed + failed AS n FROM check_rollups_hourly WHERE check_id IN (SELECT id FROM mine) ORDER BY check_id, bucket DESC)
       SELECT (SELECT count(*) FROM mine)::text AS checks, coalesce((SELECT sum(n) FROM s), 0)::text AS statuses,
              coalesce((SELECT sum(n) FROM t), 0)::text AS totals, coalesce((SELECT sum(n) FROM h), 0)::text AS hourly`,
      [agent.id],
    );
    const { rows: perCheck } = await upPool.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM checks c
         LEFT JOIN (SELECT check_id, count(*) AS n FROM check_statuses GROUP BY check_id) s ON s.check_id = c.id
         LEFT JOIN check_totals t ON t.check_id = c.id
        WHERE c.agent_id = $1 AND coalesce(s.n, 0) <> coalesce(t.passed + t.failed, 0)`,
      [agent.id],
    );
    const r = rollup[0] as { checks: string; statuses: string; totals: string; hourly: string };
    const double = Number(perCheck[0]?.n ?? 0) + (r.totals === r.statuses && r.hourly === r.statuses ? 0 : 1);
    const status = await agentStatus(agent);
    lostTotal += lost + itemsLost;
    extraTotal += extra + itemsExtra;
    doubleTotal += double;
    compare.push(
      `  ${agent.name.padEnd(8)} results ${String(local.size).padStart(6)} on agent, ${String(upSet.size).padStart(6)} upstream: lost ${lost}, extra ${extra} | configs ${String(localItems.size).padStart(5)}/${String(upItems.size).padStart(5)}: lost ${itemsLost}, extra ${itemsExtra} | upstream rollups: ${r.statuses} results, totals ${r.totals}, hourly ${r.hourly}, checks off ${perCheck[0]?.n} | dead letters ${status.failures_total}` +
        (caughtUp.has(agent.name) ? ` | caught up ${secs(caughtUp.get(agent.name)?.ms ?? NaN)}` : ''),
    );
  }

  // ---- Figures
  const steadyS = (steadyTo - steadyFrom) / 1000;
  const catchupS = (caughtUpAt - healthyAt) / 1000;
  const catchupArrived = OUTAGE_SECONDS > 0 ? poller.arrivedBetween(healthyAt, caughtUpAt) : 0;
  const perThousand = (ms: number, results: number) => (results > 0 ? `${((ms * 1000) / results).toFixed(0)} ms` : 'n/a');
  const met = (ok: boolean) => (ok ? 'met' : 'NOT MET');
  out(`=== Figures (${AGENTS} agents × ${CHECKS} checks every ${INTERVAL_SECONDS} s, ${CONFIGS} config items each) ===`);
  out(`(1) latency, result time on the agent → seen upstream (poll every ${POLL_MS} ms), steady window of ${steadyS.toFixed(0)} s:`);
  out(`    ${latency.n} results seen of ${expected} written on the agents in the window (${latency.missing} not seen within 15 s after it)`);
  out(`    p50 ${secs(latency.p50)}   p95 ${secs(latency.p95)}   max ${secs(latency.max)}   target p95 ≤ ${LATENCY_TARGET_MS / 1000} s: ${met(latency.p95 <= LATENCY_TARGET_MS)}`);
  out(`(2) configs: ${AGENTS} × ${CONFIGS} items upstream ${secs(configsMs)} after the scrapes started (scrape on the agents: ${scrapeMs.map((ms) => secs(ms)).join(', ')}; per agent upstream at ${[...configTimes.values()].map((ms) => secs(ms)).join(', ')})`);
  if (OUTAGE_SECONDS > 0) {
    out(`(3) outage: upstream stopped ${OUTAGE_SECONDS} s (largest agent queue ${maxQueue} rows), healthy ${secs(healthyAt - restartedAt)} after the restart;`);
    out(`    every queue empty ${secs(caughtUpAt - healthyAt)} after that (per agent: ${[...caughtUp.values()].map((v) => secs(v.ms)).join(', ')}; the agents' backoff grows to 30 s while the upstream is down)`);
  } else out('(3) outage: skipped (BENCH_OUTAGE_SECONDS=0)');
  out(`    comparison per agent (rows written before the queue was seen empty, less 30 s):`);
  for (const line of compare) out(line);
  out(`    lost ${lostTotal}, extra/duplicated ${extraTotal}, double-counted rollups ${doubleTotal} — target 0 lost, 0 duplicated: ${met(lostTotal === 0 && extraTotal === 0 && doubleTotal === 0)}`);
  out(`(4) throughput: steady ${(steadyArrived / steadyS).toFixed(1)} results/s upstream (${steadyArrived} in ${steadyS.toFixed(0)} s; all pushed rows ${(steadyRows / steadyS).toFixed(1)}/s in ${steadyPushes} pushes)`);
  if (OUTAGE_SECONDS > 0) {
    // From the first result that arrived after the restart (the agents' backoff decides when they retry).
    const before = poller.counts.filter((point) => point.at <= healthyAt).at(-1)?.total ?? 0;
    const firstArrival = poller.counts.find((point) => point.at > healthyAt && point.total > before)?.at ?? healthyAt;
    const draining = Math.max(0.001, (caughtUpAt - firstArrival) / 1000);
    out(`    catch-up ${(catchupArrived / catchupS).toFixed(1)} results/s from healthy to empty queues (${catchupArrived} in ${catchupS.toFixed(1)} s); ${(poller.arrivedBetween(firstArrival - 1, caughtUpAt) / draining).toFixed(1)} results/s from the first arrival (${secs(firstArrival - healthyAt)} after healthy); peak over 5 s ${poller.peakRate(healthyAt, caughtUpAt).toFixed(0)}/s; all pushed rows ${catchupPushed}`);
  }
  out(`    upstream CPU per 1,000 results: steady ${perThousand(steadyCpu.node, steadyArrived)} node process (${secs(steadyCpu.node)} CPU in ${steadyS.toFixed(0)} s)` +
      (OUTAGE_SECONDS > 0 ? `; catch-up ${perThousand(catchupCpu.node, catchupArrived)} (${secs(catchupCpu.node)} CPU)` : ''));
  out(`    PostgreSQL backends of the upstream's pool (those alive at both ends: ${steadyCpu.counted} steady${OUTAGE_SECONDS > 0 ? `, ${catchupCpu.counted} catch-up` : ''}): steady ${perThousand(steadyCpu.backends, steadyArrived)}` +
      (OUTAGE_SECONDS > 0 ? `, catch-up ${perThousand(catchupCpu.backends, catchupArrived)}` : '') + ' per 1,000 results');
  out(`    counted: utime+stime of the upstream node process (/proc/<pid>/stat) and of its PostgreSQL backends; not counted: agents, the agents' databases, PostgreSQL background processes (WAL writer, checkpointer, autovacuum)`);
  out(`load average (1/5/15 min): start see above, end of steady window ${steadyLoad}${OUTAGE_SECONDS > 0 ? `, end of catch-up ${catchupLoad}` : ''}, now ${load()}; latency poll took at most ${poller.maxPollMs} ms`);
  if (latency.p95 > LATENCY_TARGET_MS || lostTotal + extraTotal + doubleTotal > 0) process.exitCode = 1;
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`\nbench/agents.ts failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    for (const serve of serves) process.stderr.write(`\n--- last output of ${serve.name} ---\n${serve.tail().slice(-3000)}\n`);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
