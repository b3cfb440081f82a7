// The topology screens in Chromium (issue 6): a topology of 5,011 components four levels deep over 10,000
// catalog items (bench/_topology-seed.ts) in the server's own database, then, signed in as a person:
//   /topology (the dashboard)                             target: rendered ≤ 1 s
//   /topology/{system} (50 service cards, 450 pods below)
// Each is loaded 5 times from a blank page; the time is the page's own, from the start of the navigation to
// the cards on screen (checked every animation frame).
// Run after `npm run build`: npx tsx bench/topology-page.ts
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { createIdentity } from '../server/features/identity/identities';
import { hashPassword } from '../server/features/identity/passwords';
import { runTopology } from '../server/features/topology/run';
import { saveTopology } from '../server/features/topology/topologies';
import { ensureEmbedded, freePort } from '../server/platform/db/embedded';
import { inTransaction } from '../server/platform/jobs/db';
import { createLogger } from '../server/platform/logger';
import { startServe, tempDataDir } from '../test/cli';
import { bigSpec, seed } from './_topology-seed';

const ADMIN = { email: 'bench@example.com', password: 'topology page bench 1' };
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const LOADS = 5;
const TARGET_MS = 1000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  const dataDir = await tempDataDir();
  const server = await startServe({ WATCHKEEPER_DATA: dataDir, LOG_LEVEL: 'warn' }, await freePort());
  const embedded = await ensureEmbedded({ dataDir, log: createLogger('silent') });
  const pool = new pg.Pool({ connectionString: embedded.url, max: 3 });
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-bench-chromium-'));
  let ok = true;
  try {
    await seed(pool);
    const { id } = await inTransaction(pool, (client) => saveTopology(client, { name: 'platform', namespace: 'bench', labels: {}, spec: bigSpec(), source: 'UI' }));
    const run = await runTopology(pool, id, { log: createLogger('warn') });
    process.stdout.write(`built ${run.components.length} components\n`);
    await createIdentity(pool, { traits: { email: ADMIN.email, name: { first: 'Bench', last: 'Admin' } }, passwordHash: await hashPassword(ADMIN.password), roles: ['admin'], verified: true });
    const system = (await pool.query<{ id: string }>("SELECT id FROM components WHERE name = 'system-3' AND deleted_at IS NULL")).rows[0]?.id ?? '';

    const context = await chromium.launchPersistentContext(profile, { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS, viewport: { width: 1440, height: 900 } });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));

    // Each case: the page, and what must be on screen (a CSS selector) for it to count as rendered.
    const cases = [
      // The console's own start (session, feature flags, the page's code) on a page that reads almost nothing.
      { label: '/settings/feature-flags (the shell alone, for comparison)', path: '/settings/feature-flags', selector: 'h1', target: Number.POSITIVE_INFINITY },
      { label: '/topology (dashboard, 5,011 components below)', path: '/topology', selector: 'article[aria-label="platform"]', target: TARGET_MS },
      { label: '/topology/{system} (50 service cards)', path: `/topology/${system}`, selector: 'ul[aria-label="Components of system-3"] > li:nth-child(50) article', target: TARGET_MS },
    ];
    for (const item of cases) {
      const samples: number[] = [];
      for (let i = 0; i < LOADS + 1; i += 1) {
        await page.goto('about:blank');
        await page.goto(`${server.url}${item.path}`, { waitUntil: 'commit' });
        // Milliseconds from the start of the navigation until the selector is on screen (checked every frame).
        const shown = await page.waitForFunction((selector) => (document.querySelector(selector) ? performance.now() : false), item.selector, { polling: 'raf', timeout: 30_000 });
        const ms = Number(await shown.jsonValue());
        if (i > 0) samples.push(ms); // the first load fills the browser's cache of the page's code
      }
      const ms = median(samples);
      const verdict = Number.isFinite(item.target) ? `   target ≤ ${item.target} ms ${ms <= item.target ? 'ok' : 'MISSED'}` : '';
      process.stdout.write(`  ${item.label.padEnd(60)} median ${ms.toFixed(0).padStart(5)} ms, worst ${Math.max(...samples).toFixed(0)} ms${verdict}\n`);
      if (ms > item.target) ok = false;
    }
    await context.close();
  } finally {
    await pool.end();
    await server.stop();
    await fs.rm(profile, { recursive: true, force: true });
  }
  process.exitCode = ok ? 0 : 1;
}

void main();
