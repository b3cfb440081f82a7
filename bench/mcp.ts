// Machine interfaces (issue 24, docs/MCP.md and docs/KUBECTL.md): a real `watchkeeper serve` on an embedded
// PostgreSQL seeded in SQL with a demo-scale catalog (items config items of 10 types with tags, 2 changes per
// item over 30 days, open insights on one item in 10, ~0.5 relationships per item) and `canaries` canaries of
// 3 checks each. Measured through the real HTTP endpoints:
//   1. the default MCP tool list as `tools/list` answers it (name, description, input schema, annotations of
//      every tool, as JSON), counted with gpt-tokenizer (o200k_base; cl100k_base too)     target ≤ 5,000 tokens
//   2. MCP tool-call latency with the SDK's own client (streamable HTTP, an API token with the mcp scope),
//      the search tool (search_catalog or search_resources, whichever tools/list answers) over a mix of
//      queries, and get_config of random items                                             target p95 ≤ 100 ms
//   3. `kubectl get canaries -A` (the real /usr/bin/kubectl, through an https proxy: kubectl sends a token
//      only over https), wall time of the kubectl process, discovery cached by a first run     target ≤ 1 s
// The server runs from the build as `npm start` does (rebuilt when older than the sources); BENCH_SOURCES=1
// runs it from its sources through tsx instead (no build; the same request code). BENCH_DATA=<dir> keeps the
// seeded embedded data directory between runs (seeded only when it has no config items yet).
// Run: npx tsx bench/mcp.ts [items=100000] [canaries=1000]   Knobs: BENCH_CALLS=200 BENCH_KUBECTL_RUNS=7
// Exits 1 when a figure misses its target.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import type pg from 'pg';
import { presetScopes } from '../common/rbac';
import { createIdentity } from '../server/features/identity/identities';
import { createAccessToken } from '../server/features/identity/tokens';
import { ROOT } from '../test/cli';
import { quantile, withEmbedded } from './_db';
import { startServer, stats } from './_http';
import { startTlsProxy } from '../test/tls-proxy';

const count = (raw: string | undefined, fallback: number, what: string): number => {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`${what}: "${raw}" must be a whole number ≥ 1\n`);
    process.exit(2);
  }
  return value;
};

const ITEMS = count(process.argv[2], 100_000, 'items');
const CANARIES = count(process.argv[3], 1_000, 'canaries');
const CALLS = count(process.env.BENCH_CALLS, 200, 'BENCH_CALLS');
const KUBECTL_RUNS = count(process.env.BENCH_KUBECTL_RUNS, 7, 'BENCH_KUBECTL_RUNS');
const KUBECTL = process.env.KUBECTL ?? '/usr/bin/kubectl';
const TOKENS_TARGET = 5_000;
const LATENCY_TARGET_MS = 100;
const KUBECTL_TARGET_MS = 1_000;

const APPS = ['checkout', 'cart', 'payments', 'search', 'catalog', 'auth', 'orders', 'shipping', 'inventory', 'gateway', 'billing', 'profile', 'reviews', 'ads', 'email', 'frontend', 'recommend', 'currency', 'quote', 'fraud'];
const TYPES: Array<[type: string, short: string]> = [
  ['Kubernetes::Pod', 'pod'],
  ['Kubernetes::Pod', 'pod'],
  ['Kubernetes::Pod', 'pod'],
  ['Kubernetes::ReplicaSet', 'rs'],
  ['Kubernetes::Deployment', 'deploy'],
  ['Kubernetes::Service', 'svc'],
  ['Kubernetes::ConfigMap', 'cm'],
  ['Kubernetes::Secret', 'secret'],
  ['AWS::EC2::Instance', 'i'],
  ['AWS::S3::Bucket', 'bucket'],
];

const out = (line = '') => process.stdout.write(`${line}\n`);
const ms = (value: number) => `${value.toFixed(1)} ms`;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
const sqlArray = (values: readonly string[]) => `ARRAY[${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(',')}]`;

/** The catalog and the canaries, in bulk SQL. */
async function seed(pool: pg.Pool): Promise<void> {
  const started = Date.now();
  const client = await pool.connect();
  try {
    await client.query(`
      INSERT INTO config_items (type, config_class, name, namespace, health, status, tags, labels, external_id, config, created_at, updated_at)
      SELECT t.type, split_part(t.type, '::', array_length(string_to_array(t.type, '::'), 1)),
             a.app || '-' || t.short || '-' || g, 'ns-' || (g % 50),
             (ARRAY['healthy','healthy','healthy','healthy','healthy','healthy','warning','unhealthy','unknown'])[1 + g % 9],
             (ARRAY['Running','Running','Running','Pending','CrashLoopBackOff','Active'])[1 + g % 6],
             jsonb_build_object('cluster', 'prod-' || (g % 3), 'namespace', 'ns-' || (g % 50), 'account', 'acct-' || (g % 5)),
             jsonb_build_object('app', a.app, 'tier', (ARRAY['web','api','data'])[1 + g % 3]),
             ARRAY[t.type || '/' || g],
             jsonb_build_object('metadata', jsonb_build_object('name', a.app || '-' || g, 'namespace', 'ns-' || (g % 50)), 'spec', jsonb_build_object('replicas', 1 + g % 5, 'image', 'registry.example.com/' || a.app || ':1.' || (g % 40))),
             now() - (g % 90) * interval '1 day', now() - (g % 30) * interval '1 hour'
      FROM generate_series(1, $1::int) g
      JOIN unnest(${sqlArray(TYPES.map(([type]) => type))}, ${sqlArray(TYPES.map(([, short]) => short))}) WITH ORDINALITY AS t(type, short, o) ON t.o = 1 + g % ${TYPES.length}
      JOIN unnest(${sqlArray(APPS)}) WITH ORDINALITY AS a(app, o) ON a.o = 1 + (g / ${TYPES.length}) % ${APPS.length}`,
      [ITEMS],
    );
    await client.query('CREATE TEMP TABLE bench_items AS SELECT row_number() OVER (ORDER BY id) AS k, id, type FROM config_items');
    await client.query('CREATE UNIQUE INDEX ON bench_items (k)');
    await client.query(`
      INSERT INTO config_changes (config_id, config_type, change_type, severity, source, summary, patches, count, first_observed, created_at)
      SELECT i.id, i.type, (ARRAY['diff','diff','Pulled','BackOff','Scaled','Killing'])[1 + x.g % 6],
             (ARRAY['info','info','info','low','medium','high'])[1 + x.g % 6], 'bench', 'spec.replicas changed',
             jsonb_build_object('spec', jsonb_build_object('replicas', 1 + x.g % 5)), 1, x.at, x.at
      FROM (SELECT g, 1 + floor(random() * $1::int)::int AS k, now() - random() * interval '30 days' AS at FROM generate_series(1, $1::int * 2) g) x
      JOIN bench_items i ON i.k = x.k
      ORDER BY x.at`,
      [ITEMS],
    );
    await client.query(`
      INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, status, message, summary, source, first_observed, last_observed)
      SELECT i.id, (ARRAY['oom-killed','privileged','no-limits','public-bucket'])[1 + i.k % 4], (ARRAY['reliability','security','cost','security'])[1 + i.k % 4],
             (ARRAY['high','medium','low'])[1 + i.k % 3], 'open', 'found by the bench', 'bench', 'bench', now() - interval '3 days', now() - (i.k % 72) * interval '1 hour'
      FROM bench_items i WHERE i.k % 10 = 0`,
    );
    // Every other item relates to an item a tenth of the way down the list (a Deployment owns its pods, and so on).
    await client.query(`
      INSERT INTO config_relationships (config_id, related_id, relation, selector_id)
      SELECT p.id, c.id, (ARRAY['owns','routes to','uses'])[1 + c.k % 3], 'bench'
      FROM bench_items c JOIN bench_items p ON p.k = 1 + c.k / 10 WHERE c.k % 2 = 0 AND p.k <> c.k`,
    );
    // Canaries without a schedule (they never run here), 3 checks each with a last result.
    await client.query(`
      INSERT INTO canaries (name, namespace, labels, spec, schedule, source)
      SELECT 'canary-' || g, 'team-' || (g % 10), jsonb_build_object('team', 'team-' || (g % 10), 'tier', (ARRAY['gold','silver'])[1 + g % 2]),
             jsonb_build_object('tcp', jsonb_build_array(jsonb_build_object('name', 'db', 'endpoint', '10.0.' || (g % 250) || '.1:5432')),
                                'http', jsonb_build_array(jsonb_build_object('name', 'api', 'url', 'https://api-' || g || '.example.com/health'), jsonb_build_object('name', 'web', 'url', 'https://web-' || g || '.example.com/'))),
             NULL, 'bench'
      FROM generate_series(1, $1::int) g`,
      [CANARIES],
    );
    await client.query(`
      INSERT INTO checks (canary_id, key, type, name, namespace, status, last_runtime, spec)
      SELECT c.id, k.type || '/' || c.name || '-' || k.name, k.type, c.name || '-' || k.name, c.namespace,
             CASE WHEN random() < 0.9 THEN 'healthy' ELSE 'unhealthy' END, now() - random() * interval '10 minutes', '{}'::jsonb
      FROM canaries c CROSS JOIN (VALUES ('tcp', 'db'), ('http', 'api'), ('http', 'web')) AS k(type, name)`,
    );
  } finally {
    client.release();
  }
  await pool.query('VACUUM ANALYZE config_items, config_changes, config_analysis, config_relationships, canaries, checks');
  const { rows } = await pool.query<{ items: number; changes: number; insights: number; relationships: number; canaries: number; checks: number }>(
    `SELECT (SELECT count(*) FROM config_items)::int AS items, (SELECT count(*) FROM config_changes)::int AS changes,
            (SELECT count(*) FROM config_analysis)::int AS insights, (SELECT count(*) FROM config_relationships)::int AS relationships,
            (SELECT count(*) FROM canaries)::int AS canaries, (SELECT count(*) FROM checks)::int AS checks`,
  );
  const c = rows[0];
  if (!c) throw new Error('the seed counts answered no row');
  out(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s: ${c.items.toLocaleString('en')} config items, ${c.changes.toLocaleString('en')} changes, ${c.insights.toLocaleString('en')} insights, ${c.relationships.toLocaleString('en')} relationships, ${c.canaries.toLocaleString('en')} canaries, ${c.checks.toLocaleString('en')} checks`);
}

interface Figure {
  line: string;
  ok: boolean;
}

/** Milliseconds of one tool call; throws when the tool answered an error. */
async function timedCall(client: Client, name: string, args: Record<string, unknown>): Promise<number> {
  const started = performance.now();
  const result = await client.callTool({ name, arguments: args });
  const elapsed = performance.now() - started;
  if (result.isError === true) {
    const content = Array.isArray(result.content) ? (result.content as Array<{ text?: string }>) : [];
    throw new Error(`${name} ${JSON.stringify(args)} answered an error: ${content[0]?.text ?? '(no text)'}`);
  }
  return elapsed;
}

async function mcpFigures(base: string, token: string, pool: pg.Pool): Promise<Figure[]> {
  const client = new Client({ name: 'bench-mcp', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  const figures: Figure[] = [];
  try {
    const { tools } = await client.listTools();
    const text = JSON.stringify(tools);
    const tokens = o200k(text);
    const heaviest = tools.map((tool) => ({ name: tool.name, tokens: o200k(JSON.stringify(tool)) })).sort((a, b) => b.tokens - a.tokens).slice(0, 3);
    // The narrower count (descriptions and input schemas alone, no names, annotations or JSON around them).
    const bare = o200k(tools.map((tool) => `${tool.description ?? ''}\n${JSON.stringify(tool.inputSchema)}`).join('\n'));
    out(`  tools/list: ${tools.length} tools, ${text.length.toLocaleString('en')} characters of JSON; descriptions and input schemas alone ${bare.toLocaleString('en')} tokens; heaviest ${heaviest.map((tool) => `${tool.name} ${tool.tokens}`).join(', ')}`);
    figures.push({
      line: `tool list tokens ${tokens.toLocaleString('en')} (o200k_base; cl100k_base ${cl100k(text).toLocaleString('en')})   target ≤ ${TOKENS_TARGET.toLocaleString('en')}   ${verdict(tokens <= TOKENS_TARGET)}`,
      ok: tokens <= TOKENS_TARGET,
    });

    const search = tools.find((tool) => tool.name === 'search_resources') ?? tools.find((tool) => tool.name === 'search_catalog');
    if (!search) throw new Error(`tools/list has no search tool (search_resources or search_catalog): ${tools.map((tool) => tool.name).join(', ')}`);
    const accepts = new Set(Object.keys(search.inputSchema.properties ?? {}));
    // A mix of what an assistant asks: a word, a narrower word, key=value terms, a type and a tag selector,
    // a word that matches nothing (every row looked at), no filter at all. Only the arguments the tool takes.
    const variants: Array<{ label: string; args: Record<string, unknown> }> = [
      { label: 'word', args: { query: 'checkout' } },
      { label: 'narrow word', args: { query: 'payments-pod-12' } },
      { label: 'key=value', args: { query: 'health=unhealthy namespace=ns-7' } },
      { label: 'type+tags', args: { type: 'Kubernetes::Deployment', tags: 'cluster=prod-2' } },
      { label: 'no match', args: { query: 'no-such-thing' } },
      { label: 'no filter', args: {} },
    ].filter((variant) => Object.keys(variant.args).every((key) => accepts.has(key)));
    const { rows: picked } = await pool.query<{ id: string }>('SELECT id FROM config_items ORDER BY random() LIMIT $1', [CALLS]);
    const ids = picked.map((row) => row.id);

    // Warm-up: the server's first calls compile and plan.
    for (const variant of variants) await timedCall(client, search.name, { ...variant.args, limit: 20 });
    for (const id of ids.slice(0, 5)) await timedCall(client, 'get_config', { id });

    const searchTimes: number[] = [];
    const byVariant = new Map<string, number[]>();
    const getTimes: number[] = [];
    for (let i = 0; i < CALLS; i += 1) {
      const variant = variants[i % variants.length];
      if (!variant) break;
      const elapsed = await timedCall(client, search.name, { ...variant.args, limit: 20 });
      searchTimes.push(elapsed);
      byVariant.set(variant.label, [...(byVariant.get(variant.label) ?? []), elapsed]);
      getTimes.push(await timedCall(client, 'get_config', { id: ids[i % ids.length] }));
    }
    // The fixed cost of a request (HTTP, auth, a server built for the caller), for reading the figures below.
    const pings: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      const started = performance.now();
      await client.ping();
      pings.push(performance.now() - started);
    }
    out(`  MCP ping (a request's fixed cost) p50 ${ms(stats(pings).p50)}, p95 ${ms(stats(pings).p95)}`);
    out(`  ${search.name} by query, p50/p95: ${[...byVariant].map(([label, samples]) => `${label} ${stats(samples).p50.toFixed(0)}/${stats(samples).p95.toFixed(0)}`).join(', ')} ms`);
    const s = stats(searchTimes);
    const g = stats(getTimes);
    figures.push({ line: `${search.name} p50 ${ms(s.p50)}, p95 ${ms(s.p95)} (${CALLS} calls)   target p95 ≤ ${LATENCY_TARGET_MS} ms   ${verdict(s.p95 <= LATENCY_TARGET_MS)}`, ok: s.p95 <= LATENCY_TARGET_MS });
    figures.push({ line: `get_config p50 ${ms(g.p50)}, p95 ${ms(g.p95)} (${CALLS} calls)   target p95 ≤ ${LATENCY_TARGET_MS} ms   ${verdict(g.p95 <= LATENCY_TARGET_MS)}`, ok: g.p95 <= LATENCY_TARGET_MS });
  } finally {
    await client.close();
  }
  return figures;
}

/** One kubectl run, without blocking this process (the https proxy lives here): wall time, status, output. */
function kubectl(env: NodeJS.ProcessEnv, args: string[]): Promise<{ ms: number; status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(KUBECTL, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - started, status, stdout, stderr });
    });
  });
}

async function kubectlFigure(base: string, token: string, canaries: number): Promise<Figure> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-bench-kubectl-'));
  const proxy = await startTlsProxy(base);
  try {
    const config = path.join(dir, 'kubeconfig');
    await fs.writeFile(
      config,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'watchkeeper', cluster: { server: `${proxy.url}/api/kubernetes`, 'certificate-authority-data': proxy.ca } }],
        users: [{ name: 'bench', user: { token } }],
        contexts: [{ name: 'watchkeeper', context: { cluster: 'watchkeeper', user: 'bench' } }],
        'current-context': 'watchkeeper',
      }),
    );
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, KUBECONFIG: config, KUBECACHEDIR: path.join(dir, 'cache') };
    const args = ['get', 'canaries', '-A', '--request-timeout=30s'];
    const runs: number[] = [];
    let first = 0;
    for (let run = 0; run <= KUBECTL_RUNS; run += 1) {
      const result = await kubectl(env, args);
      if (result.status !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${result.status}: ${result.stderr.slice(0, 500)}`);
      const lines = result.stdout.trim().split('\n');
      if (lines.length !== canaries + 1 || !/^NAMESPACE\s+NAME\s+STATUS/.test(lines[0] ?? '')) {
        throw new Error(`kubectl listed ${lines.length - 1} rows (wanted ${canaries}); header: ${lines[0]}`);
      }
      if (run === 0) first = result.ms;
      else runs.push(result.ms);
    }
    const sorted = [...runs].sort((a, b) => a - b);
    const median = quantile(sorted, 0.5);
    const max = sorted[sorted.length - 1] ?? NaN;
    out(`  kubectl: ${canaries.toLocaleString('en')} rows; the first run (discovery not cached yet) ${ms(first)}; runs ${runs.map((value) => value.toFixed(0)).join(', ')} ms`);
    return {
      line: `kubectl get canaries -A (${canaries.toLocaleString('en')} canaries) median ${ms(median)}, max ${ms(max)} (${KUBECTL_RUNS} runs)   target ≤ ${KUBECTL_TARGET_MS} ms (every run)   ${verdict(max <= KUBECTL_TARGET_MS)}`,
      ok: max <= KUBECTL_TARGET_MS,
    };
  } finally {
    await proxy.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  let built = false;
  if (process.env.BENCH_SOURCES !== '1') {
    // The figures come from the built server, as `npm start` runs it; build it when the sources are newer.
    built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'ensure-built.mjs')], { cwd: ROOT, stdio: 'inherit' }).status === 0;
  }
  const ok = await withEmbedded('mcp', async ({ pool, url, label }) => {
    out(`MCP and kubectl: ${ITEMS.toLocaleString('en')} config items, ${CANARIES.toLocaleString('en')} canaries; ${label}; server ${built ? 'built' : 'from its sources'}`);
    const { rows: present } = await pool.query<{ seeded: boolean }>("SELECT EXISTS (SELECT 1 FROM config_items) AS seeded");
    if (present[0]?.seeded) out(`the data of ${process.env.BENCH_DATA} as seeded before`);
    else await seed(pool);
    const { id } = await createIdentity(pool, { traits: { email: `bench-mcp-${Date.now()}@example.com`, name: { first: 'Bench', last: 'MCP' } }, roles: ['admin'], verified: true });
    const { token } = await createAccessToken(pool, { personId: id, name: 'bench-mcp', scopes: presetScopes('Admin'), expiresAt: null, createdBy: id });
    const { rows: counted } = await pool.query<{ canaries: number }>('SELECT count(*)::int AS canaries FROM canaries WHERE deleted_at IS NULL');
    const canaries = counted[0]?.canaries ?? 0;
    const server = await startServer(url, built);
    try {
      const figures = [...(await mcpFigures(server.url, token, pool))];
      // A kubectl failure is a failed figure, not the end of the report.
      figures.push(await kubectlFigure(server.url, token, canaries).catch((error: unknown) => ({ line: `kubectl get canaries -A: ${error instanceof Error ? error.message : String(error)}   FAIL`, ok: false })));
      // Latencies are wall times: on a shared machine they grow with its load, printed beside them.
      out(`  load average ${os.loadavg().map((value) => value.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
      for (const figure of figures) out(`  ${figure.line}`);
      return figures.every((figure) => figure.ok);
    } finally {
      await server.stop();
    }
  }, process.env.BENCH_DATA);
  if (!ok) process.exitCode = 1;
}

await main();
