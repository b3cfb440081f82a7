// HTTP measurements for the benchmarks: a real `watchkeeper serve` on the bench database and curl as the
// client (a C client, so the figures are the server's). (The underscore keeps this file out of `npm run bench`.)
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../server/platform/db/embedded';
import { ROOT, startServe, type ServeProcess } from '../test/cli';
import { quantile } from './_db';

/** One request: a path (GET) or a path and a JSON body (POST). */
export interface BenchRequest {
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export function stats(samples: number[]): { p50: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) };
}

/** One request with curl (a C client, as in bench/health.ts): status, milliseconds, body and Content-Range. */
export function curl(base: string, token: string, request: BenchRequest): { ms: number; body: string; range: string | undefined } {
  const args = ['-s', '--compressed', '-D', '-', '-H', `x-session-token: ${token}`, '-w', '\n%{http_code} %{time_total}'];
  for (const [key, value] of Object.entries(request.headers ?? {})) args.push('-H', `${key}: ${value}`);
  if (request.body !== undefined) args.push('-H', 'content-type: application/json', '--data-binary', JSON.stringify(request.body));
  const run = spawnSync('curl', [...args, `${base}${request.path}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const lines = run.stdout.split('\n');
  const [code, seconds] = (lines.pop() ?? '').split(' ');
  const text = lines.join('\n');
  const split = text.indexOf('\r\n\r\n');
  const headers = text.slice(0, split);
  const body = text.slice(split + 4);
  if (run.status !== 0 || (code !== '200' && code !== '206')) throw new Error(`curl ${request.path}: ${run.error?.message ?? `exit ${run.status}, HTTP ${code}`}\n${body.slice(0, 500)}`);
  const range = /^content-range:\s*(.+)$/im.exec(headers)?.[1]?.trim();
  return { ms: Number(seconds) * 1000, body, range };
}

/**
 * `watchkeeper serve` on the database: the built bundle as `npm start` runs it, or (when the build fails,
 * as it may while the web app is mid-change) the server's TypeScript sources through tsx. The API's work
 * is the same code either way; only the startup differs.
 */
export async function startServer(url: string, built: boolean, extraEnv: Record<string, string> = {}, nodeFlags: string[] = []): Promise<Pick<ServeProcess, 'url' | 'stop'> & { pid: number }> {
  const port = await freePort();
  const env = { DATABASE_URL: url, LOG_LEVEL: 'warn', ...extraEnv };
  if (built) {
    const serve = await startServe(env, port);
    return { url: serve.url, stop: serve.stop, pid: serve.child.pid ?? 0 };
  }
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', path.join(ROOT, 'server', 'main.ts'), 'serve'], {
    cwd: ROOT,
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; ; ) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}`);
    if (await fetch(`${base}/health`).then((res) => res.status === 200, () => false)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('serve did not become healthy');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: base,
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

