import { z } from 'zod';
import { runScript } from '../../../platform/peers/script';
import { defineCheckType } from '../define';

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
    const env: NodeJS.ProcessEnv = { ...ctx.env };
    for (const item of spec.env ?? []) env[item.name] = item.value;
    const started = performance.now();
    const result = await runScript(spec.script, { env, signal: ctx.signal });
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
