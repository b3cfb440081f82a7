import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, inject, type TestContext } from 'vitest';
import type { Role } from '../common/rbac';
import { createIdentity } from '../server/features/identity/identities';
import { hashPassword } from '../server/features/identity/passwords';
import { ensureEmbedded, freePort } from '../server/platform/db/embedded';
import { createLogger } from '../server/platform/logger';

const ROOT = path.resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const RESULTS_DIR = path.join(ROOT, 'test-results');

/** Flags for Chromium on a machine with no network beyond loopback (DESIGN §2). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface RunningServer {
  url: string;
  dataDir: string;
  /** A pool on the server's own (embedded) database, for arranging data the way features would. */
  pool: pg.Pool;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `watchkeeper serve` as a newcomer would after `watchkeeper migrate`: its own data directory, a copy
 * of the one e2e/global-setup.ts migrated (`fresh`: an empty one, so serve creates the embedded database
 * itself), the embedded database, a free port.
 */
export async function startServer(env: Record<string, string> = {}, options: { fresh?: boolean } = {}): Promise<RunningServer> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-e2e-'));
  await fs.chmod(dataDir, 0o755);
  // cp -a keeps the database files' owner (the unprivileged user the embedded engine runs as under root).
  if (!options.fresh) await promisify(execFile)('cp', ['-a', `${inject('e2eDataTemplate')}/.`, dataDir]);
  // The log roots default to ./logs of the working directory (the repository here): a journey's demo copy of
  // the console log goes to a folder of its own instead, unless the journey names its roots.
  const logRoot = `${dataDir}-logs`;
  if (env.WATCHKEEPER_LOG_ROOTS === undefined) await fs.mkdir(logRoot, { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'bin', 'watchkeeper.mjs'), 'serve'], {
    cwd: ROOT,
    env: { ...process.env, WATCHKEEPER_DATA: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', PUBLIC_URL: url, DATABASE_URL: '', WATCHKEEPER_LOG_ROOTS: logRoot, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`watchkeeper serve exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`watchkeeper serve did not answer /health within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const embedded = await ensureEmbedded({ dataDir, log: createLogger('silent') });
  const pool = new pg.Pool({ connectionString: embedded.url, max: 3 });
  return {
    url,
    dataDir,
    pool,
    output: () => output,
    async stop() {
      await pool.end().catch(() => undefined);
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timer);
      }
      await fs.rm(dataDir, { recursive: true, force: true });
      await fs.rm(logRoot, { recursive: true, force: true });
    },
  };
}

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile. */
export async function launchBrowser(): Promise<BrowserSession> {
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1440, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close().catch(() => undefined);
      await fs.rm(profile, { recursive: true, force: true });
    },
  };
}

export interface Journey {
  server(): RunningServer;
  browser(): BrowserSession;
  page(): Page;
}

/** The admin a journey signs in as (`useJourney({ signIn: true })`). */
export const ADMIN = { email: 'admin@example.com', password: 'watch-keeper-e2e-admin', name: 'Ada Admin' } as const;

/** Creates an account straight in the server's database, as `watchkeeper admin create` would. */
export async function createUser(server: RunningServer, user: { email: string; password: string; name?: string; roles: Role[] }): Promise<string> {
  const [first = '', ...rest] = (user.name ?? '').split(' ');
  const created = await createIdentity(server.pool, {
    traits: { email: user.email, name: { first, last: rest.join(' ') } },
    passwordHash: await hashPassword(user.password),
    roles: user.roles,
    verified: true,
  });
  return created.id;
}

/** Picks an option of one of the console's selects (a Radix listbox). */
export async function choose(page: Page, scope: ReturnType<Page['getByRole']>, label: string, option: string) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Signs in through the login page, as a person does, and waits until the console has left it. */
export async function signIn(page: Page, server: RunningServer, email: string, password: string): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/**
 * Registers the hooks of a journey file: one server and one browser for the file, and a screenshot in
 * test-results/ for each failed test. With `signIn`, an admin account is created and the browser signs
 * in before the first test. With `fresh`, the server starts on an empty data directory (see startServer).
 */
export function useJourney(options: { env?: Record<string, string>; signIn?: boolean; fresh?: boolean } = {}): Journey {
  let server: RunningServer | undefined;
  let browser: BrowserSession | undefined;
  beforeAll(async () => {
    // Independent: the browser starts while the server does (whichever started is closed by afterAll).
    const [started, launched] = await Promise.allSettled([startServer(options.env ?? {}, { fresh: options.fresh }), launchBrowser()]);
    if (started.status === 'fulfilled') server = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'rejected') throw started.reason;
    if (launched.status === 'rejected') throw launched.reason;
    if (options.signIn) {
      await createUser(started.value, { ...ADMIN, roles: ['admin'] });
      await signIn(launched.value.page, started.value, ADMIN.email, ADMIN.password);
    }
  });
  afterEach(async (ctx: TestContext) => {
    if (ctx.task.result?.state === 'fail' && browser) {
      await fs.mkdir(RESULTS_DIR, { recursive: true });
      const name = `${path.basename(ctx.task.file.name)}-${ctx.task.name}`.replace(/[^A-Za-z0-9._-]+/g, '_');
      await browser.page.screenshot({ path: path.join(RESULTS_DIR, `${name}.png`), fullPage: true }).catch(() => undefined);
    }
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), server?.stop()]);
  });
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not started (beforeAll failed?)`);
    return value;
  };
  return {
    server: () => need(server, 'the server'),
    browser: () => need(browser, 'the browser'),
    page: () => need(browser, 'the browser').page,
  };
}
