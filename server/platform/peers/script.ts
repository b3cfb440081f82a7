import { spawn } from 'node:child_process';

/** Output kept per stream: enough to read, bounded so a chatty script cannot fill memory or the database. */
export const MAX_SCRIPT_OUTPUT = 64 * 1024;

export interface ScriptResult {
  stdout: string;
  stderr: string;
  /** null when the script was killed (its signal, a timeout). */
  exitCode: number | null;
  /** Set when the script could not start or was stopped. */
  error?: Error;
  /** True when stdout was longer than the limit and was cut. */
  truncated: boolean;
}

/**
 * Runs a script with bash in a working directory of the caller's choice (a temporary one by default),
 * with only the environment given (plus PATH, HOME and LANG), stopped by the signal.
 */
export function runScript(script: string, options: { env?: NodeJS.ProcessEnv; signal: AbortSignal; cwd?: string; maxOutput?: number }): Promise<ScriptResult> {
  const max = options.maxOutput ?? MAX_SCRIPT_OUTPUT;
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: process.env.LANG ?? 'C.UTF-8', ...options.env };
  return new Promise((resolve) => {
    const child = spawn('/bin/bash', ['-c', script], { env, signal: options.signal, stdio: ['ignore', 'pipe', 'pipe'], cwd: options.cwd ?? process.env.TMPDIR ?? '/tmp' });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let truncated = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdoutBytes >= max) {
        truncated = true;
        return;
      }
      stdout.push(chunk);
      stdoutBytes += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_SCRIPT_OUTPUT) stderr += chunk.toString('utf8');
    });
    const text = () => {
      const all = Buffer.concat(stdout);
      if (all.length > max) truncated = true;
      return all.subarray(0, max).toString('utf8');
    };
    child.once('error', (error) => resolve({ stdout: text(), stderr: stderr.slice(0, MAX_SCRIPT_OUTPUT), exitCode: null, error, truncated }));
    child.once('close', (code) => resolve({ stdout: text(), stderr: stderr.slice(0, MAX_SCRIPT_OUTPUT), exitCode: code, truncated }));
  });
}
