// The Health page with 50,000 checks in Chromium (issue 37). Targets: the first screen's answer
// (POST /api/health/checks as the page asks it) ≤ 300 KB and ≤ 200 ms p95 over 20 requests, the page
// interactive ≤ 1.5 s; a filter keystroke repainted in ≤ 100 ms. The checks and their results are inserted
// with SQL into the server's own database (canaries of 20 checks, 3 results each in the last hour, 10% failing).
// Run after `npm run build`: npx tsx bench/health-page.ts [checks] (BENCH_DATABASE_URL: an empty database to use)
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { chromium, type Page } from 'playwright-core';
import { createIdentity } from '../server/features/identity/identities';
import { hashPassword } from '../server/features/identity/passwords';
import { ensureEmbedded, freePort } from '../server/platform/db/embedded';
import { migrate } from '../server/platform/db/migrate';
import { createLogger } from '../server/platform/logger';
import { startServe, tempDataDir } from '../test/cli';
import { seedHealthChecks } from './_health-seed';

const CHECKS = Number(process.argv[2] ?? 50_000);
/** The first screen: /health as it opens (failing checks only, grouped by canary, tabs by namespace, 50 a page). */
const FIRST_SCREEN = { start: '1h', hidePassing: true, labels: [], tabBy: 'namespace', groupBy: 'canary_name', sortBy: 'name', sortDesc: false, page: 0, pageSize: 50, recent: 20 };
const RUNS = 20;
const ADMIN = { email: 'bench@example.com', password: 'health page bench 1' };
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * Input-to-paint of every keystroke and click, two ways: Event Timing entries (Chromium's own measure,
 * recorded from 16 ms) and, for each keydown or click, the time until a task posted after the next
 * animation frame runs (the frame has been painted by then).
 */
const INSTRUMENT = () => {
  const w = window as unknown as { __events: number[][]; __paints: number[][] };
  w.__events = [];
  w.__paints = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.__events.push([entry.startTime, entry.duration]);
  }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
  for (const type of ['keydown', 'click']) {
    document.addEventListener(
      type,
      (event) => {
        const start = event.timeStamp;
        requestAnimationFrame(() => setTimeout(() => w.__paints.push([start, performance.now() - start]), 0));
      },
      true,
    );
  }
};

async function slowestEvent(page: Page, since: number): Promise<number> {
  return page.evaluate((after) => {
    const w = window as unknown as { __events: number[][]; __paints: number[][] };
    const durations = [...w.__events, ...w.__paints].filter(([start = 0]) => start >= after).map(([, duration = 0]) => duration);
    return Math.max(0, ...durations);
  }, since);
}

async function now(page: Page): Promise<number> {
  return page.evaluate(() => performance.now());
}

async function main(): Promise<void> {
  const dataDir = await tempDataDir();
  const port = await freePort();
  // BENCH_DATABASE_URL: an empty database on a running PostgreSQL instead of the embedded one (which takes
  // long to start on a busy machine).
  const external = process.env.BENCH_DATABASE_URL;
  if (external) {
    // Migrated here, so that the server's start stays within startServe's limit.
    const setup = new pg.Pool({ connectionString: external, max: 1 });
    await migrate(setup, createLogger('silent')).finally(() => setup.end());
  }
  const server = await startServe({ WATCHKEEPER_DATA: dataDir, LOG_LEVEL: 'warn', ...(external ? { DATABASE_URL: external } : {}) }, port);
  const url = external ?? (await ensureEmbedded({ dataDir, log: createLogger('silent') })).url;
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-bench-chromium-'));
  try {
    const seeding = Date.now();
    await seedHealthChecks(pool, CHECKS);
    await createIdentity(pool, { traits: { email: ADMIN.email, name: { first: 'Bench', last: 'Admin' } }, passwordHash: await hashPassword(ADMIN.password), roles: ['admin'], verified: true });
    process.stdout.write(`seeded ${CHECKS} checks (${CHECKS * 3} results) in ${((Date.now() - seeding) / 1000).toFixed(1)} s\n`);

    const context = await chromium.launchPersistentContext(profile, { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS, viewport: { width: 1440, height: 900 } });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.addInitScript(INSTRUMENT);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));

    // The first screen's answer, as the page asks it: the first request computes the statistics of every
    // check (cold), the next ones share them (docs/HEALTH.md), as the page's own refreshes and pages do.
    const firstScreen = async (body: object) =>
      page.evaluate(async (payload) => {
        const started = performance.now();
        const res = await fetch('/api/health/checks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
        const text = await res.text();
        const elapsed = performance.now() - started;
        const entry = performance.getEntriesByType('resource').filter((resource) => resource.name.endsWith('/api/health/checks')).at(-1);
        return { ms: elapsed, bytes: new TextEncoder().encode(text).length, encoded: entry instanceof PerformanceResourceTiming ? entry.encodedBodySize : 0, status: res.status };
      }, body);
    for (const [label, body] of [
      ['first screen (failing only, grouped by canary)', FIRST_SCREEN],
      ['all checks, ungrouped, sorted by latency', { ...FIRST_SCREEN, hidePassing: false, groupBy: 'no-group', sortBy: 'latency', sortDesc: true }],
    ] as const) {
      const cold = await firstScreen(body);
      const times: number[] = [];
      let bytes = 0;
      let encoded = 0;
      for (let run = 0; run < RUNS; run += 1) {
        const answer = await firstScreen(body);
        if (answer.status !== 200) throw new Error(`POST /api/health/checks answered ${answer.status}`);
        times.push(answer.ms);
        bytes = answer.bytes;
        encoded = answer.encoded;
      }
      const p95 = percentile(times, 0.95);
      process.stdout.write(
        `${label}, ${CHECKS} checks: ${(bytes / 1024).toFixed(1)} KB JSON (${(encoded / 1024).toFixed(1)} KB on the wire)  target ≤ 300 KB  ${bytes <= 300 * 1024 ? 'OK' : 'MISSED'}; ` +
          `p95 ${p95.toFixed(0)} ms, median ${median(times).toFixed(0)} ms over ${RUNS} requests (first, cold: ${cold.ms.toFixed(0)} ms)  target ≤ 200 ms  ${p95 <= 200 ? 'OK' : 'MISSED'}\n`,
      );
    }
    const summary = await page.evaluate(async () => {
      const started = performance.now();
      const res = await fetch('/api/canary/api/summary', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ start: '1h', hidePassing: false, limit: 20000 }) });
      const text = await res.text();
      return { ms: performance.now() - started, bytes: text.length };
    });
    process.stdout.write(`for comparison, the summary the page used to read (20,000 of them): ${(summary.bytes / 1024 / 1024).toFixed(1)} MB in ${summary.ms.toFixed(0)} ms\n`);

    const loads: Record<string, number[]> = {};
    const phases: Record<string, string[]> = {};
    const firstRow = 'table[aria-label="Health checks"] tbody tr';
    for (const [label, query] of [
      ['first screen (failing only, grouped by canary; default)', ''],
      ['all checks, grouped by canary', 'hidePassing=false'],
      ['all checks, ungrouped', 'hidePassing=false&groupBy=no-group'],
    ] as const) {
      for (let run = 0; run < 3; run += 1) {
        await page.goto('about:blank');
        await page.goto(`${server.url}/health?${query}`);
        await page.locator(firstRow).first().waitFor();
        // Interactive: the rows are painted and the main thread is free again (a task posted now runs).
        const ready = await page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0))));
        (loads[label] ??= []).push(ready);
        const list = await page.evaluate(() => {
          const entry = performance.getEntriesByType('resource').find((resource) => resource.name.includes('/api/health/checks'));
          return entry instanceof PerformanceResourceTiming ? [entry.startTime, entry.responseEnd] : [0, 0];
        });
        (phases[label] ??= []).push(`list ${list.map((v) => v.toFixed(0)).join('→')}, ready ${ready.toFixed(0)}`);
      }
    }
    for (const [label, values] of Object.entries(loads)) {
      process.stdout.write(`navigation to interactive, ${label}: median ${median(values).toFixed(0)} ms (${values.map((v) => v.toFixed(0)).join(', ')})  target ≤ 1500 ms  ${median(values) <= 1500 ? 'OK' : 'MISSED'}\n`);
      process.stdout.write(`  ms from navigation start: ${(phases[label] ?? []).join('; ')}\n`);
    }

    // The page as most people keep it with 10,000 checks: all of them, grouped by canary.
    await page.goto(`${server.url}/health?hidePassing=false`);
    await page.locator(firstRow).first().waitFor();
    await page.waitForTimeout(500);
    const search = page.getByLabel('Search checks');
    await search.click();
    const keystrokes: number[] = [];
    for (const char of 'bench-0001') {
      const since = await now(page);
      await page.keyboard.type(char);
      await page.waitForTimeout(60);
      keystrokes.push(await slowestEvent(page, since));
    }
    process.stdout.write(`search keystroke to next paint: max ${Math.max(...keystrokes).toFixed(0)} ms, median ${median(keystrokes).toFixed(0)} ms  target ≤ 100 ms  ${Math.max(...keystrokes) <= 100 ? 'OK' : 'MISSED'}\n`);
    const typed = await now(page);
    await page.waitForResponse((res) => res.url().includes('/api/health/checks'));
    await page.getByRole('tab', { name: /^All/ }).getByText('10', { exact: true }).waitFor();
    const applied = (await now(page)) - typed;
    process.stdout.write(`search applied (400 ms debounce, server search, table repainted): ${applied.toFixed(0)} ms after the last keystroke\n`);

    await search.fill('');
    await page.getByRole('tab', { name: /^All/ }).getByText(String(CHECKS), { exact: true }).waitFor();
    await page.getByRole('button', { name: /^Label team/ }).click();
    const since = await now(page);
    await page.getByRole('button', { name: 'Include team=team-3', exact: true }).click();
    await page.waitForTimeout(500);
    process.stdout.write(`label filter click (${CHECKS} checks filtered on the server) to next paint: ${(await slowestEvent(page, since)).toFixed(0)} ms  target ≤ 100 ms\n`);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(200);

    const groupSince = await now(page);
    await page.getByRole('combobox', { name: 'Group By' }).click();
    await page.getByRole('option', { name: 'No Grouping' }).click();
    await page.waitForTimeout(300);
    process.stdout.write(`Group By change to next paint: ${(await slowestEvent(page, groupSince)).toFixed(0)} ms\n`);
    await context.close();
  } finally {
    await pool.end();
    await server.stop();
    await fs.rm(profile, { recursive: true, force: true });
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

await main();
