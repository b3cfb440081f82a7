import fs from 'node:fs/promises';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../server/platform/db/embedded';
import { isAlive, postmasterPid, ROOT, runCli, startServe, tempDataDir, waitUntil, type ServeProcess } from './cli';

// The command runs the built bundle when there is one: make sure it is the bundle of these sources.
beforeAll(() => {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'ensure-built.mjs')], { cwd: ROOT, stdio: 'ignore' });
}, 180_000);

const dirs: string[] = [];
const running: ServeProcess[] = [];
const orphanPids: number[] = [];

afterAll(async () => {
  for (const server of running) await server.stop('SIGKILL');
  for (const pid of orphanPids) if (isAlive(pid)) process.kill(pid, 'SIGQUIT');
  for (const dir of dirs) {
    const pid = await postmasterPid(dir);
    if (pid && isAlive(pid)) process.kill(pid, 'SIGQUIT');
    await fs.rm(dir, { recursive: true, force: true });
  }
});

async function dataDir(): Promise<string> {
  const dir = await tempDataDir();
  dirs.push(dir);
  return dir;
}

/**
 * One data directory for the tests that need an initialised one but not a fresh one: each new directory
 * costs an initdb and every migration (most of this file's time). The first test initialises it (and
 * checks that it does); the next ones start `serve` on it again after the previous test stopped its own,
 * which is what a restart does. Only the tests about a first start or a first migrate take fresh ones.
 */
let shared: string | undefined;
async function sharedDataDir(): Promise<string> {
  shared ??= await dataDir();
  // The previous test's `serve` has exited; its PostgreSQL may still be shutting down.
  const pid = await postmasterPid(shared);
  if (pid) await waitUntil(() => !isAlive(pid), 20_000);
  return shared;
}

describe('watchkeeper serve on the embedded database', () => {
  it('initialises on first start, reuses the data on the second, and stops PostgreSQL on exit', async () => {
    const dir = await sharedDataDir();
    const first = await startServe({ WATCHKEEPER_DATA: dir }, await freePort());
    running.push(first);
    expect(first.output()).toContain('initialising the embedded PostgreSQL');
    // /health answers as soon as the server listens; the ready line follows once the workers run.
    expect(await waitUntil(() => first.output().includes('Watchkeeper is running at'), 20_000)).toBe(true);
    const pid = await postmasterPid(dir);
    expect(pid).toBeDefined();
    await first.stop('SIGTERM');
    expect(await waitUntil(() => !isAlive(pid ?? 0), 20_000)).toBe(true);

    const second = await startServe({ WATCHKEEPER_DATA: dir }, await freePort());
    running.push(second);
    expect(second.output()).not.toContain('initialising');
    const res = await fetch(`${second.url}/health`);
    expect(await res.json()).toMatchObject({ status: 'ok' });
    await second.stop();
    // Its own bounded waits (two starts of up to 40 s each, then 20 s ones) come first: on a loaded machine
    // one of them fails with the server's output instead of the test's 60 s limit failing with none.
  }, 150_000);

  it('recovers after kill -9 of the previous run (orphaned postmaster, then a stale pid file)', async () => {
    const dir = await sharedDataDir();
    const first = await startServe({ WATCHKEEPER_DATA: dir }, await freePort());
    running.push(first);
    const orphan = await postmasterPid(dir);
    expect(orphan).toBeDefined();
    await first.stop('SIGKILL');
    // The postmaster outlives a killed serve; the next start adopts it.
    expect(isAlive(orphan ?? 0)).toBe(true);
    const second = await startServe({ WATCHKEEPER_DATA: dir }, await freePort());
    running.push(second);
    expect((await fetch(`${second.url}/health`)).status).toBe(200);

    // Now kill both the app and its database: the pid file is stale and must not block the next start.
    const pid = await postmasterPid(dir);
    await second.stop('SIGKILL');
    if (pid) process.kill(pid, 'SIGKILL');
    await waitUntil(() => !isAlive(pid ?? 0), 10_000);
    const pidFile = path.join(dir, 'postgres', 'postmaster.pid');
    expect(await fs.stat(pidFile).then(() => true, () => false)).toBe(true);
    const third = await startServe({ WATCHKEEPER_DATA: dir }, await freePort());
    running.push(third);
    expect((await fetch(`${third.url}/health`)).status).toBe(200);
    await third.stop();
  });

  it('refuses a second serve on the same data directory, naming the first', async () => {
    const dir = await sharedDataDir();
    const first = await startServe({ WATCHKEEPER_DATA: dir }, await freePort());
    running.push(first);
    const second = runCli(['serve'], { WATCHKEEPER_DATA: dir, PORT: String(await freePort()) });
    expect(second.status).toBe(1);
    expect(second.stderr + second.stdout).toContain('already using the data directory');
    expect((await fetch(`${first.url}/health`)).status).toBe(200);
    await first.stop();
  });

  it('lets commands use the data directory while serve runs, without stopping its database', async () => {
    const dir = await sharedDataDir();
    const server = await startServe({ WATCHKEEPER_DATA: dir }, await freePort());
    running.push(server);
    const pid = await postmasterPid(dir);
    const migrate = runCli(['migrate'], { WATCHKEEPER_DATA: dir });
    expect(migrate.status).toBe(0);
    expect(migrate.stdout).toContain('database is up to date');
    expect(await postmasterPid(dir)).toBe(pid);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    await server.stop();
  });

  it('starts and stops the embedded database for a command when serve is not running', async () => {
    const dir = await dataDir();
    const migrate = runCli(['migrate'], { WATCHKEEPER_DATA: dir });
    expect(migrate.status).toBe(0);
    expect(migrate.stdout).toMatch(/applied \d+ migration/);
    const pid = await postmasterPid(dir);
    expect(pid === undefined || !isAlive(pid)).toBe(true);
    const again = runCli(['migrate'], { WATCHKEEPER_DATA: dir });
    expect(again.stdout).toContain('database is up to date');
  });
});

describe('configuration and commands', () => {
  it('names the bad value when the configuration is invalid', () => {
    const result = runCli(['serve'], { PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORT="eighty" is not a port number');
    expect(result.stderr).toContain('LOG_LEVEL="loud" is not one of');
    expect(result.stderr).toContain('DATABASE_URL="mysql://x" is not a postgres:// or postgresql:// URL');
  });

  it('lets flags override the environment and rejects unknown commands', () => {
    const flag = runCli(['serve', '--port', 'x1'], { PORT: '3000' });
    expect(flag.stderr).toContain('--port="x1" is not a port number');
    const unknown = runCli(['frobnicate'], {});
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
  });

  it('apply reports unknown kinds and invalid documents with file, index and field path', async () => {
    const dir = await sharedDataDir();
    const file = path.join(dir, 'resources.yaml');
    await fs.writeFile(file, 'apiVersion: example.com/v1\nkind: Gizmo\nmetadata:\n  name: a\n---\nkind: [unclosed\n');
    const result = runCli(['apply', '-f', file], { WATCHKEEPER_DATA: dir });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${file} document 1 (Gizmo a): not applied`);
    expect(result.stderr).toContain('kind: "Gizmo" is not a known kind');
    expect(result.stderr).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} document 2: not applied\\n  - line \\d+`));
    expect(result.stdout).toContain('0 applied, 2 failed');
  });

  it('apply reads standard input with -f -', async () => {
    const result = runCli(['apply', '-f', '-'], { WATCHKEEPER_DATA: await sharedDataDir() }, 'kind: Nope\n');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('- document 1 (Nope): not applied');
  });

  it('admin create and token create give a person a password and a token, while serve runs', async () => {
    const dir = await sharedDataDir();
    const server = await startServe({ WATCHKEEPER_DATA: dir }, await freePort());
    running.push(server);
    const weak = runCli(['admin', 'create', '--email', 'root@example.com', '--password', 'password'], { WATCHKEEPER_DATA: dir });
    expect(weak.status).toBe(1);
    expect(weak.stderr).toContain('--password: the password is one of the most common');
    const admin = runCli(['admin', 'create', '--email', 'root@example.com'], { WATCHKEEPER_DATA: dir });
    expect(admin.status).toBe(0);
    const password = /password \(shown once[^)]*\): (\S+)/.exec(admin.stdout)?.[1] ?? '';
    expect(password.length).toBeGreaterThanOrEqual(16);

    const login = await fetch(`${server.url}/api/.ory/self-service/login/api`).then((res) => res.json() as Promise<{ id: string }>);
    const signedIn = await fetch(`${server.url}/api/.ory/self-service/login?flow=${login.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'password', identifier: 'root@example.com', password }),
    });
    expect(signedIn.status).toBe(200);

    const token = runCli(['token', 'create', '--user', 'root@example.com', '--name', 'ci', '--scope', 'read'], { WATCHKEEPER_DATA: dir });
    expect(token.status).toBe(0);
    expect(token.stderr).toContain('shown once');
    const value = token.stdout.trim();
    expect(value).toMatch(/^wk_at_[A-Za-z0-9_-]{43}$/);
    const whoami = await fetch(`${server.url}/api/auth/whoami`, { headers: { authorization: `Bearer ${value}` } });
    expect(((await whoami.json()) as { roles: string[] }).roles).toEqual(['admin']);
    const write = await fetch(`${server.url}/api/db/properties`, { method: 'POST', headers: { authorization: `Bearer ${value}`, 'content-type': 'application/json' }, body: '{"name":"a","value":"b"}' });
    expect(write.status).toBe(403);
    const unknown = runCli(['token', 'create', '--user', 'nobody@example.com', '--name', 'x'], { WATCHKEEPER_DATA: dir });
    expect(unknown.stderr).toContain('no active account uses this email');
    const badScope = runCli(['token', 'create', '--user', 'root@example.com', '--name', 'x', '--scope', 'rockets:launch'], { WATCHKEEPER_DATA: dir });
    expect(badScope.stderr).toContain('--scope rockets:launch');
    await server.stop();
  });
});
