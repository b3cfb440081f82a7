import { spawn } from 'node:child_process';
import { z } from 'zod';
import { defineCheckType } from '../define';

/** Output kept per stream: enough to read, bounded so a chatty script cannot fill the database. */
const MAX_OUTPUT = 64 * 1024;

const schema = z
  .object({
    script: z.string({ message: 'is required' }).min(1, 'is required'),
    env: z
      .array(z.object({ name: z.string().min(1, 'is required'), value: z.string({ message: 'is required (valueFrom is not supported)' }) }))
      .optional(),
  })
  .loose();

/**
 * `exec`: runs the script with bash (sh when bash is missing) in a temporary working directory, with the
 * canary's env and the check's env. It passes when the exit code is 0 (and `test`, if any, holds).
 * Variables: stdout, stderr, exitCode.
 */
export const execCheck = defineCheckType({
  type: 'exec',
  label: 'Exec',
  icon: 'terminal',
  schema,
  endpoint: (spec) => spec.script.split('\n')[0]?.slice(0, 120) ?? '',
  async run(spec, ctx) {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: process.env.LANG ?? 'C.UTF-8', ...ctx.env };
    for (const item of spec.env ?? []) env[item.name] = item.value;
    const started = performance.now();
    const result = await new Promise<{ stdout: string; stderr: string; exitCode: number | null; error?: Error }>((resolve) => {
      const child = spawn('/bin/bash', ['-c', spec.script], { env, signal: ctx.signal, stdio: ['ignore', 'pipe', 'pipe'], cwd: process.env.TMPDIR ?? '/tmp' });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        if (stdout.length < MAX_OUTPUT) stdout += chunk.toString('utf8');
      });
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderr.length < MAX_OUTPUT) stderr += chunk.toString('utf8');
      });
      child.once('error', (error) => resolve({ stdout, stderr, exitCode: null, error }));
      child.once('close', (code) => resolve({ stdout: stdout.slice(0, MAX_OUTPUT), stderr: stderr.slice(0, MAX_OUTPUT), exitCode: code }));
    });
    const duration = Math.round(performance.now() - started);
    const data = { stdout: result.stdout.trim(), stderr: result.stderr.trim(), exitCode: result.exitCode ?? -1 };
    const details = { stdout: data.stdout, stderr: data.stderr, exitCode: data.exitCode };
    if (result.error) {
      const aborted = ctx.signal.aborted;
      return { pass: false, duration, message: aborted ? 'the script ran past its timeout and was stopped' : `could not run the script: ${result.error.message}`, error: result.error.message, data, details };
    }
    if (result.exitCode !== 0) {
      return { pass: false, duration, message: `exited with code ${result.exitCode ?? 'none (killed)'}${data.stderr ? `: ${data.stderr.split('\n').slice(-1)[0]}` : ''}`, data, details };
    }
    return { pass: true, duration, message: data.stdout.split('\n').slice(-1)[0] ?? '', data, details };
  },
});
