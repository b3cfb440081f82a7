// Hosted-mode figures (issue 25, docs/HOSTED.md): the sign-in round trip through the local OpenID Connect
// provider (oidc-provider: login route → provider pages → callback → session), and the cost of the front's
// proxy: /api/db through the front (session cookie → organization token → keep-alive pool → backend)
// against the same request sent to the backend directly with the token. Target: p95 overhead ≤ 5 ms.
// Then an organization without a backend URL, served from the front's own database under row-level
// security (its connection switched to watchkeeper_tenant), against the same page read by the console's
// own administrator in the built-in mode on the same database (no policies apply to the owner), and the
// cost of writing in its scope: 10,000 config changes, each naming its item (the policy's check and the
// trigger that keeps foreign keys inside the organization), against the same rows written by the server.
// Run: npx tsx bench/hosted.ts [requests per side, default 400]
import fs from 'node:fs/promises';
import { Agent, request } from 'undici';
import { z } from 'zod';
import { buildApp } from '../server/app';
import { addOrganization, signInAtFront, startBackend } from '../server/features/hosted/testing/hosted';
import { createIdentity } from '../server/features/identity/identities';
import { createSession } from '../server/features/identity/sessions';
import { oidcEnv, startTestIssuer } from '../server/features/identity/oidc/testing/issuer';
import { loadConfig } from '../server/platform/config';
import { freePort } from '../server/platform/db/embedded';
import { createPool } from '../server/platform/db/pool';
import { inOrganization } from '../server/platform/db/tenant';
import { createLogger } from '../server/platform/logger';
import { withEmbedded, type BenchDatabase } from './_db';

const REQUESTS = Number(process.argv[2] ?? 400);
const SIGN_INS = 20;

function stats(samples: number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  return { median: at(0.5), p95: at(0.95) };
}
const ms = (value: number) => `${value.toFixed(2)} ms`;

async function main({ pool, url: databaseUrl, label }: BenchDatabase): Promise<void> {
  const issuer = await startTestIssuer();
  const port = await freePort();
  const frontUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: frontUrl,
    ...oidcEnv(issuer),
  });
  const { app } = await buildApp({ config, pool, log: createLogger('silent') });
  await app.listen({ port, host: '127.0.0.1' });
  issuer.start(frontUrl);
  const organization = await addOrganization(pool, 'org_bench', null);
  const backend = await startBackend(frontUrl, organization);
  try {
    await addOrganization(pool, 'org_bench', backend.url);
    process.stdout.write(`front: in-process on ${label}; backend: watchkeeper serve --auth trusted-front on its own embedded database\n`);

    // Sign-in round trips (the first person becomes the front's administrator: the load below uses them).
    const signIns: number[] = [];
    let session = '';
    for (let i = 0; i < SIGN_INS; i += 1) {
      issuer.accounts.set(`bench${i}`, { email: `bench${i}@example.com`, email_verified: true, name: `Bench ${i}`, organizations: ['org_bench'] });
      const started = performance.now();
      const token = await signInAtFront(frontUrl, `bench${i}`);
      signIns.push(performance.now() - started);
      if (i === 0) session = token;
    }
    const s = stats(signIns);
    process.stdout.write(`sign-in round trip (${SIGN_INS} people: login route, provider pages, callback; the first reads discovery and keys): median ${ms(s.median)}, p95 ${ms(s.p95)}\n`);

    const client = new Agent({ keepAliveTimeout: 30_000, connections: 1 });
    const tokenAnswer = await request(`${frontUrl}/api/auth/organization-token`, { headers: { cookie: `watchkeeper_session=${session}` }, dispatcher: client });
    const { token } = z.object({ token: z.string() }).parse(await tokenAnswer.body.json());
    const path = '/api/db/properties?select=name,value&limit=20';
    const once = async (url: string, headers: Record<string, string>) => {
      const started = performance.now();
      const answer = await request(url, { headers, dispatcher: client });
      const body = await answer.body.text();
      if (answer.statusCode !== 200) throw new Error(`${url}: HTTP ${answer.statusCode}: ${body.slice(0, 300)}`);
      return performance.now() - started;
    };
    const direct: number[] = [];
    const proxied: number[] = [];
    // Warm both paths (plans, pools, the token cache), then interleave so both see the same machine load.
    for (let i = 0; i < 50; i += 1) {
      await once(`${backend.url}${path}`, { authorization: `Bearer ${token}` });
      await once(`${frontUrl}${path}`, { cookie: `watchkeeper_session=${session}` });
    }
    for (let i = 0; i < REQUESTS; i += 1) {
      direct.push(await once(`${backend.url}${path}`, { authorization: `Bearer ${token}` }));
      proxied.push(await once(`${frontUrl}${path}`, { cookie: `watchkeeper_session=${session}` }));
    }
    const d = stats(direct);
    const p = stats(proxied);
    const overhead = p.p95 - d.p95;
    process.stdout.write(`GET ${path}, ${REQUESTS} sequential requests each:\n`);
    process.stdout.write(`  direct to the backend (bearer): median ${ms(d.median)}, p95 ${ms(d.p95)}\n`);
    process.stdout.write(`  through the front (cookie):     median ${ms(p.median)}, p95 ${ms(p.p95)}\n`);
    process.stdout.write(`  proxy overhead: median ${ms(p.median - d.median)}, p95 ${ms(overhead)}  target ≤ 5 ms ${overhead <= 5 ? 'OK' : 'MISSED'}\n`);

    // Row-level security: 10,000 items of an organization sharing the database beside 10,000 of the console's
    // own, their names interleaved (a page in name order reads past as many rows of the other as of its own).
    const shared = await addOrganization(pool, 'org_shared', null);
    issuer.accounts.set('shared0', { email: 'shared0@example.com', email_verified: true, name: 'Shared 0', organizations: ['org_shared'] });
    const sharedSession = await signInAtFront(frontUrl, 'shared0');
    await pool.query("INSERT INTO config_items (type, name, organization_id) SELECT 'Bench::Item', 'item-' || lpad(g::text, 5, '0') || '-shared', $1 FROM generate_series(1, 10000) g", [shared]);
    await pool.query("INSERT INTO config_items (type, name) SELECT 'Bench::Item', 'item-' || lpad(g::text, 5, '0') || '-own' FROM generate_series(1, 10000) g");
    await pool.query('ANALYZE config_items');
    const builtinPort = await freePort();
    // Its own pool: an app's authenticator is kept per pool, and this one is in the built-in mode.
    const builtinPool = createPool(databaseUrl, createLogger('silent'));
    const builtin = await buildApp({ config: loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', PUBLIC_URL: `http://127.0.0.1:${builtinPort}` }), pool: builtinPool, log: createLogger('silent') });
    await builtin.app.listen({ port: builtinPort, host: '127.0.0.1' });
    try {
      const { id } = await createIdentity(pool, { traits: { email: 'owner@example.com', name: { first: 'Console', last: 'Owner' } }, roles: ['admin'], verified: true });
      const { token: ownerToken } = await createSession(pool, id, { method: 'password', aal: 'aal1' }, { ip: '127.0.0.1', userAgent: 'bench' });
      const page = "/api/db/config_items?select=id,name&type=eq.Bench::Item&order=name&limit=50";
      const owner: number[] = [];
      const scoped: number[] = [];
      for (let i = 0; i < 50; i += 1) {
        await once(`http://127.0.0.1:${builtinPort}${page}`, { 'x-session-token': ownerToken });
        await once(`${frontUrl}${page}`, { cookie: `watchkeeper_session=${sharedSession}` });
      }
      for (let i = 0; i < REQUESTS; i += 1) {
        owner.push(await once(`http://127.0.0.1:${builtinPort}${page}`, { 'x-session-token': ownerToken }));
        scoped.push(await once(`${frontUrl}${page}`, { cookie: `watchkeeper_session=${sharedSession}` }));
      }
      const o = stats(owner);
      const r = stats(scoped);
      process.stdout.write(`GET ${page} (the first 50 by name), ${REQUESTS} sequential requests each:\n`);
      process.stdout.write(`  built-in mode, the console's administrator (all 20,000 rows, no policy): median ${ms(o.median)}, p95 ${ms(o.p95)}\n`);
      process.stdout.write(`  an organization sharing the database (its 10,000 rows, row-level security): median ${ms(r.median)}, p95 ${ms(r.p95)}\n`);
      process.stdout.write(`  row-level security difference: median ${ms(r.median - o.median)}, p95 ${ms(r.p95 - o.p95)}\n`);

      const change = "INSERT INTO config_changes (config_id, config_type, change_type, summary) SELECT id, type, 'BenchWrite', 'bench' FROM config_items WHERE type = 'Bench::Item'";
      const writes: Array<{ server: number; scoped: number }> = [];
      for (let round = 0; round < 3; round += 1) {
        let started = performance.now();
        const own = await pool.query(`${change} AND organization_id IS NULL`);
        const server = performance.now() - started;
        started = performance.now();
        // In the organization's scope the same statement sees its 10,000 items only.
        const theirs = await inOrganization(shared, () => pool.query(change));
        if (own.rowCount !== 10_000 || theirs.rowCount !== 10_000) throw new Error(`wrote ${own.rowCount} and ${theirs.rowCount} changes, not 10,000 each`);
        writes.push({ server, scoped: performance.now() - started });
        await pool.query("DELETE FROM config_changes WHERE change_type = 'BenchWrite'");
      }
      const best = (pick: (write: { server: number; scoped: number }) => number) => Math.min(...writes.map(pick));
      process.stdout.write('INSERT 10,000 config_changes, one per item (best of 3):\n');
      process.stdout.write(`  as the server (the console's own items): ${ms(best((w) => w.server))}\n`);
      process.stdout.write(`  in an organization's scope (policy check, parent of the same organization): ${ms(best((w) => w.scoped))}\n`);
    } finally {
      await builtin.app.close();
      await builtinPool.end();
    }
    await client.close();
  } finally {
    await backend.stop();
    await fs.rm(backend.dataDir, { recursive: true, force: true });
    await app.close();
    await issuer.close();
  }
}

await withEmbedded('hosted', main);
