// Topology at scale (issue 6). Seeds 10,000 config items (pods of 500 services in 10 systems) and 500
// checks, then measures:
//   a run of a topology of 5,011 components, depth 4 (root > 10 systems > 500 services > 4,500 pods looked
//   up from the catalog, each service with its check): first run and an unchanged re-run;
//   GET /api/canary/api/topology (the dashboard: the roots with their children) and one system with two
//   levels below it, p50/p95 over HTTP against a real `watchkeeper serve`      target p95 ≤ 150 ms
//   a run of a topology looking up all 10,000 configs: first run and re-run    target ≤ 10 s
// Run: npx tsx bench/topology.ts   (BENCH_DATABASE_URL for an external PostgreSQL as well)
import type pg from 'pg';
import { createIdentity } from '../server/features/identity/identities';
import { createSession } from '../server/features/identity/sessions';
import { runTopology } from '../server/features/topology/run';
import { saveTopology } from '../server/features/topology/topologies';
import { inTransaction } from '../server/platform/jobs/db';
import { createLogger } from '../server/platform/logger';
import { withEmbedded, withExternal, type BenchDatabase } from './_db';
import { curl, startServer, stats } from './_http';
import { bigSpec, PODS, seed } from './_topology-seed';

const RUNS = 30;
const log = createLogger('warn');

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

async function runOnce(pool: pg.Pool, id: string) {
  const [summary, ms] = await timed(() => runTopology(pool, id, { log }));
  if (summary.errors.length > 0) throw new Error(summary.errors.join('\n'));
  return { ms, summary };
}

async function save(pool: pg.Pool, name: string, spec: Record<string, unknown>): Promise<string> {
  return (await inTransaction(pool, (client) => saveTopology(client, { name, namespace: 'bench', labels: {}, spec, source: 'UI' }))).id;
}

const line = (label: string, ms: number, target?: number) =>
  process.stdout.write(`  ${label.padEnd(74)} ${ms.toFixed(0).padStart(7)} ms${target ? `   target ≤ ${target} ms ${ms <= target ? 'ok' : 'MISSED'}` : ''}\n`);

async function measure(db: BenchDatabase): Promise<boolean> {
  process.stdout.write(`\n${db.label}\n`);
  await seed(db.pool);
  let ok = true;

  const big = await save(db.pool, 'platform', bigSpec());
  const first = await runOnce(db.pool, big);
  const total = first.summary.components.length;
  line(`run, ${total} components (depth 4), first (created ${first.summary.created})`, first.ms);
  const again = await runOnce(db.pool, big);
  line(`run, ${total} components, re-run (unchanged ${again.summary.unchanged})`, again.ms);

  const server = await startServer(db.url, false);
  try {
    const { id } = await createIdentity(db.pool, { traits: { email: `bench-${Date.now()}@example.com`, name: { first: 'Bench', last: '' } }, roles: ['viewer'] });
    const { token } = await createSession(db.pool, id, { method: 'password', aal: 'aal1' }, { ip: '127.0.0.1', userAgent: 'bench' });
    const system = (await db.pool.query<{ id: string }>("SELECT id FROM components WHERE name = 'system-3' AND deleted_at IS NULL")).rows[0]?.id ?? '';
    const cases = [
      { label: 'GET /api/canary/api/topology (roots, children, live roll-up)', path: '/api/canary/api/topology', target: 150 },
      { label: 'GET /api/canary/api/topology?id=<system>&depth=2 (551 components)', path: `/api/canary/api/topology?id=${system}&depth=2`, target: 150 },
    ];
    for (const item of cases) {
      curl(server.url, token, { path: item.path }); // warm-up
      const samples: number[] = [];
      let size = 0;
      for (let i = 0; i < RUNS; i += 1) {
        const result = curl(server.url, token, { path: item.path });
        samples.push(result.ms);
        size = result.body.length;
      }
      const { p50, p95 } = stats(samples);
      line(`${item.label} p50`, p50);
      line(`${item.label} p95 (${(size / 1024).toFixed(0)} KiB)`, p95, item.target);
      if (p95 > item.target) ok = false;
    }

    const all = await save(db.pool, 'all-pods', { schedule: '@never', components: [{ name: 'pods', lookup: { configs: [{ type: 'Kubernetes::Pod' }] } }] });
    const lookupFirst = await runOnce(db.pool, all);
    line(`run over ${PODS} looked-up configs, first (created ${lookupFirst.summary.created})`, lookupFirst.ms, 10_000);
    const lookupAgain = await runOnce(db.pool, all);
    line(`run over ${PODS} looked-up configs, re-run (unchanged ${lookupAgain.summary.unchanged})`, lookupAgain.ms, 10_000);
    if (lookupFirst.ms > 10_000 || lookupAgain.ms > 10_000) ok = false;

    const samples: number[] = [];
    for (let i = 0; i < 10; i += 1) samples.push(curl(server.url, token, { path: '/api/canary/api/topology' }).ms);
    line(`GET /api/canary/api/topology with both topologies (15,013 components) p95`, stats(samples).p95);
  } finally {
    await server.stop();
  }
  return ok;
}

async function main(): Promise<void> {
  const embedded = await withEmbedded('topology', measure);
  const external = await withExternal(measure);
  process.exitCode = embedded && external !== false ? 0 : 1;
}

void main();
