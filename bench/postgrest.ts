// /api/db read throughput (with authentication and authorization) against a bare pg pool doing the same
// SQL without them, on 100k job_history rows.
// Targets: p95 ≤ 25 ms, throughput ratio (/api/db ÷ bare) ≥ 0.5. Run: npx tsx bench/postgrest.ts [seconds]
import http from 'node:http';
import autocannon from 'autocannon';
import { buildApp } from '../server/app';
import { createIdentity } from '../server/features/identity/identities';
import { createSession } from '../server/features/identity/sessions';
import { loadConfig } from '../server/platform/config';
import { createPool } from '../server/platform/db/pool';
import { createLogger } from '../server/platform/logger';
import { withEmbedded, type BenchDatabase } from './_db';

const SECONDS = Number(process.argv[2] ?? 10);
const CONNECTIONS = 10;
const ROWS = 100_000;
const COLUMNS = 'id,name,status,time_start,duration_millis';
const VIEW_COLUMNS = 'id,name,agent_id,agent,resource_type,resource_id,resource_name,status,success_count,error_count,details,hostname,duration_millis,time_start,time_end,created_at';

interface Figures {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** autocannon reports p90/p97.5 but not p95, so every response time is kept and ranked here. */
function measure(url: string, headers: Record<string, string>, seconds: number): Promise<Figures> {
  const times: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, headers, connections: CONNECTIONS, duration: seconds }, (error, result) => {
      if (error) return reject(error);
      times.sort((a, b) => a - b);
      resolve({ rps: result.requests.average, p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99), non2xx: result.non2xx });
    });
    instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  });
}

async function seed(pool: ReturnType<typeof createPool>): Promise<void> {
  await pool.query(`
    INSERT INTO job_history (name, status, resource_type, resource_id, success_count, error_count, duration_millis, time_start, time_end, details)
    SELECT 'Job' || (i % 40),
           (ARRAY['SUCCESS','SUCCESS','SUCCESS','SUCCESS','SUCCESS','WARNING','FAILED','SKIPPED','STOPPED','SUCCESS'])[1 + i % 10],
           (ARRAY['canary','config_scraper','topology','playbook'])[1 + i % 4], md5(i::text), i % 7, i % 3,
           (random() * 5000)::int, now() - (i || ' seconds')::interval, now() - (i || ' seconds')::interval + interval '2 seconds',
           jsonb_build_object('i', i)
    FROM generate_series(1, $1::int) AS i`, [ROWS]);
  // What autovacuum does after a bulk load: statistics, and the visibility map index-only scans rely on.
  await pool.query('VACUUM ANALYZE job_history');
}

/** The bare baseline: node:http, one pool, the same page and count queries, JSON out. */
function bareServer(pool: ReturnType<typeof createPool>): http.Server {
  return http.createServer((req, res) => {
    if (req.url?.includes('view')) {
      // /api/db drops NULLS LAST on the NOT NULL time_start (so the index serves the order); /naive keeps it.
      const nulls = req.url.includes('naive') ? ' NULLS LAST' : '';
      Promise.all([
        pool.query(`SELECT ${VIEW_COLUMNS} FROM job_histories ORDER BY time_start DESC${nulls} LIMIT 50`),
        pool.query<{ n: number }>("SELECT n::int FROM relation_counts WHERE relation = 'job_history'"),
      ]).then(
        ([page, count]) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-range': `0-${page.rows.length - 1}/${count.rows[0]?.n ?? 0}` });
          res.end(JSON.stringify(page.rows));
        },
        () => {
          res.writeHead(500);
          res.end();
        },
      );
      return;
    }
    const failed = req.url?.includes('failed') ?? false;
    const where = failed ? "WHERE status = 'FAILED'" : '';
    // The same count source /api/db uses: the trigger-kept counter when nothing filters, else count(*).
    const count = failed || req.url?.includes('scan') ? `SELECT count(*)::int AS n FROM job_history ${where}` : "SELECT n::int FROM relation_counts WHERE relation = 'job_history'";
    Promise.all([pool.query(`SELECT ${COLUMNS} FROM job_history ${where} ORDER BY time_start DESC LIMIT 50`), pool.query<{ n: number }>(count)]).then(
      ([page, count]) => {
        const body = JSON.stringify(page.rows);
        res.writeHead(200, { 'content-type': 'application/json', 'content-range': `0-${page.rows.length - 1}/${count.rows[0]?.n ?? 0}` });
        res.end(body);
      },
      () => {
        res.writeHead(500);
        res.end();
      },
    );
  });
}

function line(label: string, figures: Figures): string {
  return `${label.padEnd(34)} ${figures.rps.toFixed(0).padStart(6)} req/s   p50 ${figures.p50.toFixed(1).padStart(5)} ms   p95 ${figures.p95.toFixed(1).padStart(5)} ms   p99 ${figures.p99.toFixed(1).padStart(5)} ms${figures.non2xx ? `   non-2xx ${figures.non2xx}` : ''}`;
}

async function main({ pool: appPool, url }: BenchDatabase): Promise<void> {
  // A quiet pool: stopping the engine at the end closes its idle connections.
  const barePool = createPool(url, createLogger('error'));
  try {
    const started = Date.now();
    await seed(appPool);
    process.stdout.write(`seeded ${ROWS} job_history rows in ${((Date.now() - started) / 1000).toFixed(1)} s; ${CONNECTIONS} connections, ${SECONDS} s per run\n`);

    const { app } = await buildApp({ config: loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' }), pool: appPool, log: createLogger('silent') });
    const appUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    const bare = bareServer(barePool);
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const address = bare.address();
    if (address === null || typeof address === 'string') throw new Error('the baseline server has no TCP address');
    const bareUrl = `http://127.0.0.1:${address.port}`;

    // /api/db needs a signed-in caller: an admin's session token, so the figures include authorization.
    const { id } = await createIdentity(appPool, { traits: { email: 'bench@example.com', name: { first: 'Bench', last: '' } }, roles: ['admin'] });
    const { token } = await createSession(appPool, id, { method: 'password', aal: 'aal1' }, { ip: '127.0.0.1', userAgent: 'bench' });
    const headers = { prefer: 'count=exact', 'x-session-token': token };
    // For scale: the same page with count(*) over the whole table, as it was before migration 0003.
    await measure(`${bareUrl}/scan`, headers, 2);
    process.stdout.write(`\n${line('bare pool, latest 50 + count(*)', await measure(`${bareUrl}/scan`, headers, SECONDS))}\n`);
    // And the UI's page with NULLS LAST kept, which sorts the whole view instead of reading the index.
    process.stdout.write(`${line('bare pool, view page, NULLS LAST', await measure(`${bareUrl}/view-naive`, headers, SECONDS))}\n`);
    const cases = [
      { label: 'latest 50', db: `${appUrl}/api/db/job_history?select=${COLUMNS}&order=time_start.desc&limit=50`, bare: `${bareUrl}/latest` },
      { label: 'status=eq.FAILED, latest 50', db: `${appUrl}/api/db/job_history?select=${COLUMNS}&status=eq.FAILED&order=time_start.desc&limit=50`, bare: `${bareUrl}/failed` },
      // The Jobs History page's own request (web/features/settings/jobs/query.ts): the view, every column, nulls last.
      { label: 'job_histories page (UI request)', db: `${appUrl}/api/db/job_histories?select=${VIEW_COLUMNS}&order=time_start.desc.nullslast&offset=0&limit=50`, bare: `${bareUrl}/view` },
    ];
    let worstP95 = 0;
    let worstRatio = Infinity;
    for (const c of cases) {
      await measure(c.db, headers, 2); // warm-up: JIT, plan cache, buffers
      await measure(c.bare, headers, 2);
      const db = await measure(c.db, headers, SECONDS);
      const baseline = await measure(c.bare, headers, SECONDS);
      const ratio = db.rps / baseline.rps;
      worstP95 = Math.max(worstP95, db.p95);
      worstRatio = Math.min(worstRatio, ratio);
      process.stdout.write(`\n${c.label}\n${line('  /api/db (count=exact)', db)}\n${line('  bare pool (same SQL)', baseline)}\n  ratio ${ratio.toFixed(2)}\n`);
    }
    process.stdout.write(`\nworst p95 ${worstP95.toFixed(1)} ms (target ≤ 25 ms) ${worstP95 <= 25 ? 'OK' : 'MISSED'}; worst ratio ${worstRatio.toFixed(2)} (target ≥ 0.5) ${worstRatio >= 0.5 ? 'OK' : 'MISSED'}\n`);
    await app.close();
    await new Promise((resolve) => bare.close(resolve));
  } finally {
    await barePool.end();
  }
}

await withEmbedded('pgrst', main);
