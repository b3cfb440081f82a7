// Identity figures (issue 3): the cost of one password check (argon2id), the sign-in round trip through
// the Kratos API, and the per-request cost of authorization on /api/db with 0 and 1,000 permission rows.
// Run: npx tsx bench/auth.ts [seconds per load run, default 5]
import autocannon from 'autocannon';
import { buildApp } from '../server/app';
import { IdentityAuthenticator } from '../server/features/identity/authenticate';
import { createIdentity } from '../server/features/identity/identities';
import { hashPassword, verifyPassword, ARGON2_OPTIONS } from '../server/features/identity/passwords';
import { createSession } from '../server/features/identity/sessions';
import { decide } from '../server/platform/auth/decide';
import { loadConfig } from '../server/platform/config';
import { createLogger } from '../server/platform/logger';
import { withEmbedded, type BenchDatabase } from './_db';

const SECONDS = Number(process.argv[2] ?? 5);
const PASSWORD = 'a benchmark passphrase, long enough';

function stats(samples: number[]): { median: number; p95: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  return { median: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? NaN };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

function load(url: string, headers: Record<string, string>): Promise<{ rps: number; p50: number; p95: number; non2xx: number }> {
  const times: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, headers, connections: 10, duration: SECONDS }, (error, result) => {
      if (error) return reject(error);
      const s = stats(times);
      resolve({ rps: result.requests.average, p50: s.median, p95: s.p95, non2xx: result.non2xx });
    });
    instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  });
}

async function main({ pool, url: databaseUrl }: BenchDatabase): Promise<void> {
  process.stdout.write(`argon2id: memory ${ARGON2_OPTIONS.memoryCost / 1024} MiB, ${ARGON2_OPTIONS.timeCost} passes, parallelism ${ARGON2_OPTIONS.parallelism}\n`);
  const hash = await hashPassword(PASSWORD);
  const verifies: number[] = [];
  for (let i = 0; i < 30; i += 1) {
    const started = performance.now();
    await verifyPassword(hash, PASSWORD);
    verifies.push(performance.now() - started);
  }
  const v = stats(verifies);
  process.stdout.write(`one password check: median ${ms(v.median)}, p95 ${ms(v.p95)}  target 50-150 ms ${v.median >= 50 && v.median <= 150 ? 'OK' : 'MISSED'}\n`);

  const { id } = await createIdentity(pool, { traits: { email: 'bench@example.com', name: { first: 'Bench', last: 'Mark' } }, passwordHash: hash, roles: ['editor'], verified: true });
  const { app } = await buildApp({ config: loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }), pool, log: createLogger('silent') });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });

  // Sign-in round trip as a native client does it: create a login flow, submit the password.
  const trips: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const started = performance.now();
    const flow = (await (await fetch(`${base}/api/.ory/self-service/login/api`)).json()) as { id: string };
    const res = await fetch(`${base}/api/.ory/self-service/login?flow=${flow.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'password', identifier: 'bench@example.com', password: PASSWORD }),
    });
    if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
    await res.arrayBuffer();
    trips.push(performance.now() - started);
  }
  const r = stats(trips);
  process.stdout.write(`sign-in round trip (create flow + submit password, sequential): median ${ms(r.median)}, p95 ${ms(r.p95)}\n`);

  await pool.query(`INSERT INTO job_history (name, status, time_start) SELECT 'Job' || (i % 20), 'SUCCESS', now() - (i || ' seconds')::interval FROM generate_series(1, 10000) AS i`);
  await pool.query('VACUUM ANALYZE job_history');
  const { token } = await createSession(pool, id, { method: 'password', aal: 'aal1' }, { ip: '127.0.0.1', userAgent: 'bench' });
  const url = `${base}/api/db/job_history?select=id,name,status,time_start&order=time_start.desc&limit=50`;
  const headers = { 'x-session-token': token, prefer: 'count=exact' };
  const authenticator = new IdentityAuthenticator(pool);

  /** The authorization work of one request, in-process: resolve the caller (one query) and decide. */
  const authorizeOnce = async () => {
    const { actor } = await authenticator.resolveCredential({ kind: 'session', token, source: 'header' });
    if (!actor || !decide(actor, 'database', 'read').allowed) throw new Error('not allowed');
  };

  const report = async (label: string) => {
    for (let i = 0; i < 200; i += 1) await authorizeOnce();
    const samples: number[] = [];
    for (let i = 0; i < 1000; i += 1) {
      const started = performance.now();
      await authorizeOnce();
      samples.push(performance.now() - started);
    }
    const a = stats(samples);
    await load(url, headers);
    const figures = await load(url, headers);
    process.stdout.write(
      `\n${label}\n  authorization alone (resolve + decide, 1000 calls): median ${ms(a.median)}, p95 ${ms(a.p95)}\n` +
        `  GET /api/db/job_history, 50 of 10k rows, count=exact, 10 connections: ${figures.rps.toFixed(0)} req/s, p50 ${ms(figures.p50)}, p95 ${ms(figures.p95)}${figures.non2xx ? `, non-2xx ${figures.non2xx}` : ''}\n`,
    );
  };

  await report('no permission rows');
  // 1,000 rows: 990 for other people, 10 for this person (allows on other objects, none on database).
  await pool.query(`
    INSERT INTO people (id, name) SELECT gen_random_uuid(), 'other ' || i FROM generate_series(1, 99) AS i;
    INSERT INTO permissions (subject, subject_type, object, action)
      SELECT p.id::text, 'person', 'canaries', 'read' FROM people p, generate_series(1, 10) WHERE p.name LIKE 'other %';
    INSERT INTO permissions (subject, subject_type, object, action) SELECT $$${id}$$, 'person', 'topology', 'read' FROM generate_series(1, 10);
  `);
  await report('1,000 permission rows, 10 of them for this person');
  await pool.query(`INSERT INTO permissions (subject, subject_type, object, action) SELECT 'editor', 'group', 'canaries', 'update' FROM generate_series(1, 990)`);
  await report('1,990 permission rows, 1,000 of them for this person (through the editor group)');
  await app.close();
}

await withEmbedded('auth', main);
