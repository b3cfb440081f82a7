// Hosted-mode figures (issue 25, docs/HOSTED.md): the sign-in round trip through the local OpenID Connect
// provider (oidc-provider: login route → provider pages → callback → session), and the cost of the front's
// proxy: /api/db through the front (session cookie → organization token → keep-alive pool → backend)
// against the same request sent to the backend directly with the token. Target: p95 overhead ≤ 5 ms.
// Run: npx tsx bench/hosted.ts [requests per side, default 400]
import fs from 'node:fs/promises';
import { Agent, request } from 'undici';
import { z } from 'zod';
import { buildApp } from '../server/app';
import { addOrganization, signInAtFront, startBackend } from '../server/features/hosted/testing/hosted';
import { oidcEnv, startTestIssuer } from '../server/features/identity/oidc/testing/issuer';
import { loadConfig } from '../server/platform/config';
import { freePort } from '../server/platform/db/embedded';
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
      await answer.body.text();
      if (answer.statusCode !== 200) throw new Error(`${url}: HTTP ${answer.statusCode}`);
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
    await client.close();
  } finally {
    await backend.stop();
    await fs.rm(backend.dataDir, { recursive: true, force: true });
    await app.close();
    await issuer.close();
  }
}

await withEmbedded('hosted', main);
