import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin', 'watchkeeper.mjs');

export async function tempDataDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-cli-'));
  await fs.chmod(dir, 0o755);
  return dir;
}

/** Runs a watchkeeper command to completion. */
export function runCli(args: string[], env: Record<string, string>, input?: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env },
    input,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** Milliseconds from spawn to the first 200 on /health. */
  readyMs: number;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

let checkedBuild = false;

/**
 * `bin/watchkeeper.mjs` runs the built bundle when there is one, else the sources: a bundle older than the
 * sources is rebuilt first, so a test never runs yesterday's server (without one, the sources run as they are).
 */
function freshBuild(): void {
  if (checkedBuild) return;
  checkedBuild = true;
  if (!existsSync(path.join(ROOT, 'dist', 'server', 'main.js'))) return;
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'ensure-built.mjs')], { cwd: ROOT, stdio: 'inherit', timeout: 600_000 });
  if (built.status !== 0) throw new Error('the stale build could not be rebuilt (scripts/ensure-built.mjs)');
}

/** Starts `watchkeeper serve` and waits for the first 200 on /health. */
export async function startServe(env: Record<string, string>, port: number): Promise<ServeProcess> {
  freshBuild();
  const started = Date.now();
  let output = '';
  const child = spawn(process.execPath, [BIN, 'serve'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  // Under a test's 60 s limit, so a start that hangs fails with the server's own output, not a bare timeout.
  const deadline = Date.now() + 40_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${url}/health`)).status === 200) break;
    } catch {
      // not yet listening
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`serve did not become healthy:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const readyMs = Date.now() - started;
  return {
    child,
    url,
    readyMs,
    output: () => output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
  };
}

export async function postmasterPid(dataDir: string): Promise<number | undefined> {
  try {
    const pid = Number((await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}
