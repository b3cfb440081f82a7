// A fresh machine's first minutes (issue 38 "Set-up"), as the README's first screen has them: a clean
// clone of this repository in a temporary folder, `npm install` (warm npm cache; it ends with the
// production build), then `npm start` timed to the first 200 on `/` (the web app's HTML) and on `/health`
// (the API's probe), with a fresh data directory (initdb + migrations); then a second `npm start` on the
// same folder (existing data, nothing to build). Targets: install ≤ 60 s, first page ≤ 15 s after it.
// Last run (quiet 2-core machine, 2026-11-28): install 27.4 s (dependencies 22.2 s, build 5.2 s; 36 CPU s)
// at load 1.9; first page 3.2 s at load 1.9; second start 1.8 s at load 1.7. Before (busy shared machine,
// 2026-11-27): install 109.7 s (89.2 s + 20.5 s; 55 CPU s) at load 13.4; first page 14.6 s at load 12.7.
// The machine is shared: each figure is printed with the load average beside it, and the CPU seconds the
// install used (load-independent). The clone is of the last commit (uncommitted changes are not in it).
// Run: npx tsx bench/startup.ts [--keep]
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../server/platform/db/embedded';
import { ROOT } from '../test/cli';

const keep = process.argv.includes('--keep');

/** CPU seconds of this process's reaped children (cutime + cstime): npm install's whole process tree once it exited. */
async function childCpuSeconds(): Promise<number> {
  const text = await fs.readFile('/proc/self/stat', 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

const load = () => os.loadavg()[0]?.toFixed(1) ?? '?';
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A clean environment for the clone: none of this shell's Watchkeeper settings or test databases. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(WATCHKEEPER_|DATABASE_URL|TEST_DATABASE_URL|PORT$|HOST$|PUBLIC_URL|NODE_ENV|npm_)/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, onLine?: (line: string) => void): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const take = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      for (const line of text.split('\n')) if (line) onLine?.(line);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

async function status(url: string, accept: string): Promise<{ code: number; type: string } | undefined> {
  try {
    const response = await fetch(url, { headers: { accept }, signal: AbortSignal.timeout(5_000) });
    await response.arrayBuffer();
    return { code: response.status, type: response.headers.get('content-type') ?? '' };
  } catch {
    return undefined;
  }
}

interface StartFigures {
  pageMs: number;
  healthMs: number;
  loadAtPage: string;
}

/** `npm start` in the clone, polled until `/` answers HTML and `/health` answers 200; then stopped (SIGTERM to its process group). */
async function timeStart(dir: string, label: string): Promise<StartFigures> {
  const port = await freePort();
  const started = Date.now();
  const child: ChildProcess = spawn('npm', ['start'], { cwd: dir, env: cleanEnv({ PORT: String(port), LOG_LEVEL: 'warn' }), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exited = false;
  const exit = new Promise<void>((resolve) => child.on('exit', () => ((exited = true), resolve())));
  let pageMs: number | undefined;
  let healthMs: number | undefined;
  let loadAtPage = '?';
  try {
    const deadline = started + 300_000;
    while ((pageMs === undefined || healthMs === undefined) && Date.now() < deadline && !exited) {
      const [page, health] = await Promise.all([
        pageMs === undefined ? status(`http://127.0.0.1:${port}/`, 'text/html') : undefined,
        healthMs === undefined ? status(`http://127.0.0.1:${port}/health`, 'application/json') : undefined,
      ]);
      if (page?.code === 200 && page.type.startsWith('text/html')) {
        pageMs = Date.now() - started;
        loadAtPage = load();
      }
      if (health?.code === 200) healthMs = Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (pageMs === undefined || healthMs === undefined) throw new Error(`${label}: no 200 on ${pageMs === undefined ? '/' : '/health'}${exited ? ' (npm start exited)' : ' within 300 s'}:\n${output.slice(-3000)}`);
    return { pageMs, healthMs, loadAtPage };
  } finally {
    if (!exited && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await Promise.race([exit, new Promise((resolve) => setTimeout(resolve, 30_000))]);
    if (!exited && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  }
}

/** The embedded PostgreSQL the clone's server started must be gone before its folder is removed. */
async function postmasterGone(dir: string): Promise<void> {
  const pidFile = path.join(dir, 'data', 'postgres', 'postmaster.pid');
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const text = await fs.readFile(pidFile, 'utf8').catch(() => '');
    const pid = Number(text.split('\n')[0]);
    if (!text || !Number.isInteger(pid)) return;
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the clone's embedded PostgreSQL (${pidFile}) did not stop`);
}

async function main(): Promise<void> {
  const temp = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-startup-'));
  // Enterable by others, as a home directory is: run as root, the embedded PostgreSQL runs as its own user.
  await fs.chmod(temp, 0o755);
  const dir = path.join(temp, 'watchkeeper');
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    process.stdout.write(`${line}\n`);
  };
  try {
    say(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((value) => value.toFixed(1)).join(' ')} at start`);
    const clone = await run('git', ['clone', '--quiet', ROOT, dir], temp, cleanEnv({}));
    if (clone.code !== 0) throw new Error(`git clone failed: ${clone.output}`);

    // npm install, with the lifecycle scripts' output in the foreground so that the build's start is seen.
    let cpu = await childCpuSeconds();
    const installStart = Date.now();
    let buildStart: number | undefined;
    const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--foreground-scripts'], dir, cleanEnv({}), (line) => {
      if (buildStart === undefined && line.includes('watchkeeper: building')) buildStart = Date.now();
    });
    const installMs = Date.now() - installStart;
    const installCpu = (await childCpuSeconds()) - cpu;
    if (install.code !== 0) throw new Error(`npm install failed:\n${install.output.slice(-3000)}`);
    const built = await fs.readFile(path.join(dir, 'dist', 'build-state.json'), 'utf8').then(
      () => 'the build included',
      () => 'NO BUILD: npm start will build',
    );
    const split = buildStart === undefined ? '' : `: dependencies ${seconds(buildStart - installStart)}, build ${seconds(installStart + installMs - buildStart)}`;
    say(`npm install (warm cache, ${built})      ${seconds(installMs)}${split}  CPU ${installCpu.toFixed(1)} s  load ${load()}  target ≤ 60 s ${installMs <= 60_000 ? 'OK' : 'MISSED'}`);

    const first = await timeStart(dir, 'first start');
    await postmasterGone(dir);
    say(`first npm start (initdb, migrations):   / ${seconds(first.pageMs)}, /health ${seconds(first.healthMs)}  load ${first.loadAtPage}  target ≤ 15 s ${first.pageMs <= 15_000 ? 'OK' : 'MISSED'}`);

    const second = await timeStart(dir, 'second start');
    await postmasterGone(dir);
    say(`second npm start (existing data):       / ${seconds(second.pageMs)}, /health ${seconds(second.healthMs)}  load ${second.loadAtPage}  (npm, the build check and serve)`);
  } finally {
    if (keep) process.stdout.write(`kept ${dir}\n`);
    else await fs.rm(temp, { recursive: true, force: true });
  }
}

await main();
