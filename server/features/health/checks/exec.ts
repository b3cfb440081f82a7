import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_ARTIFACT_LIMITS } from '../../../platform/artifacts';
import { gitCheckout, GitCheckoutError, type GitCheckout } from '../../../platform/peers/git-checkout';
import { collectScriptArtifacts, makeScriptDir, MAX_SCRIPT_OUTPUT, runScript, trimSpace } from '../../../platform/peers/script';
import { defineCheckType } from '../define';
import type { CheckOutcome } from '../types';
import { envVarField as envVarSchema, namedEnvVarField as namedEnvVarSchema } from '../../../platform/peers/credentials';

/** duty's GitConnection, as exec `checkout` writes it. */
const checkoutSchema = z
  .strictObject(
    {
      url: z.string().trim().min(1, 'must not be empty').optional(),
      connection: z.string().optional(),
      username: envVarSchema.optional(),
      password: envVarSchema.optional(),
      certificate: envVarSchema.optional(),
      // github, gitlab: duty reads owner and repository from the URL with it; the clone is the same.
      type: z.string().optional(),
      branch: z.string().optional(),
      depth: z.number({ message: 'must be a number of commits' }).int('must be a whole number').min(0, 'must be 0 (everything) or more').optional(),
      destination: z.string().trim().min(1, 'must not be empty').optional(),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `is not a field of checkout (url, connection, username, password, certificate, type, branch, depth, destination): ${issue.keys.join(', ')}` : undefined) },
  )
  .refine((checkout) => checkout.url !== undefined || checkout.connection !== undefined, { message: 'is required', path: ['url'] });

const schema = z
  .object({
    script: z.string({ message: 'is required' }).min(1, 'is required'),
    env: z.array(namedEnvVarSchema).optional(),
    checkout: checkoutSchema.optional(),
    artifacts: z.array(z.object({ path: z.string({ message: 'is required' }).trim().min(1, 'is required') })).optional(),
  })
  .loose();

type ExecSpec = z.infer<typeof schema>;

/** Output kept per stream: what an artifact may hold, since /dev/stdout and /dev/stderr become artifacts. */
const MAX_OUTPUT = DEFAULT_ARTIFACT_LIMITS.perArtifact;

/** The history keeps the start of the output; the variables and artifacts have all of it. */
function clipDetail(text: string): string {
  return text.length > MAX_SCRIPT_OUTPUT ? `${text.slice(0, MAX_SCRIPT_OUTPUT)}…` : text;
}

/** duty's ExecDetails (JSON names), before the script ran or when it could not. */
function notRun(error: string): Record<string, unknown> {
  return { stdout: '', stderr: '', exitCode: -1, path: '', args: [], error };
}

function failed(message: string, results: Record<string, unknown>, invalid = false): CheckOutcome {
  return { pass: false, ...(invalid ? { invalid } : {}), message, error: message, data: { results, stdout: '', stderr: '', exitCode: -1 }, details: { exitCode: -1, error: message } };
}

async function checkoutOf(spec: NonNullable<ExecSpec['checkout']>, signal: AbortSignal): Promise<GitCheckout> {
  return gitCheckout(
    { url: spec.url ?? '', username: spec.username, password: spec.password, certificate: spec.certificate, branch: spec.branch, depth: spec.depth, destination: spec.destination },
    { signal },
  );
}

/**
 * `exec` (canary-checker's ExecCheck, run as duty's shell runs it): the script runs with bash (or the
 * interpreter of its shebang) in a fresh temporary directory, or in the `checkout` of a git repository,
 * with the canary's and the check's `env`. Then the `artifacts` it names are collected and kept with the
 * result. It fails with stderr as its message when the script exits non-zero (`exit code N` when stderr is
 * empty). Variables: `results` ({stdout, stderr, exitCode, path, args, extra}, as duty's ExecDetails) and,
 * as before, `stdout`, `stderr` and `exitCode`.
 */
export const execCheck = defineCheckType({
  type: 'exec',
  label: 'Exec',
  icon: 'terminal',
  schema,
  endpoint: (spec) => spec.script.split('\n')[0]?.slice(0, 120) ?? '',
  async run(spec, ctx) {
    if (spec.checkout?.connection !== undefined) {
      // A connection:// reference was filled in (url, credentials) before the run; anything else is not one.
      return failed('checkout.connection: must be a connection reference: connection://<namespace>/<name>', notRun('checkout.connection'), true);
    }
    const env: NodeJS.ProcessEnv = { ...ctx.env };
    for (const item of spec.env ?? []) env[item.name] = item.value;
    const started = performance.now();
    let checkout: GitCheckout | undefined;
    let scratch: string | undefined;
    try {
      if (spec.checkout) {
        try {
          checkout = await checkoutOf(spec.checkout, ctx.signal);
        } catch (error) {
          const message = `checkout failed: ${error instanceof GitCheckoutError ? error.message : String(error)}`;
          return { ...failed(message, notRun(message)), duration: Math.round(performance.now() - started) };
        }
      } else {
        // Owned by the user the script runs as (WATCHKEEPER_EXEC_USER) when the console is root.
        scratch = await makeScriptDir('wk-exec-');
      }
      const cwd = checkout?.dir ?? scratch ?? os.tmpdir();
      const ran = await runScript(spec.script, { env, signal: ctx.signal, cwd, maxOutput: MAX_OUTPUT, maxError: MAX_OUTPUT });
      const duration = Math.round(performance.now() - started);
      const stdout = trimSpace(ran.stdout);
      const stderr = trimSpace(ran.stderr);
      const exitCode = ran.exitCode ?? -1;
      const extra = checkout ? { git: checkout.git, commit: checkout.commit } : undefined;
      const results: Record<string, unknown> = { stdout, stderr, exitCode, path: ran.path, args: ran.args, ...(extra ? { extra } : {}) };
      const collected = spec.artifacts && spec.artifacts.length > 0 ? await collectScriptArtifacts(spec.artifacts, { cwd, stdout, stderr }) : undefined;
      const details: Record<string, unknown> = {
        stdout: clipDetail(stdout),
        stderr: clipDetail(stderr),
        exitCode,
        path: ran.path,
        ...(extra ? { extra } : {}),
        ...(ran.truncated || ran.stderrTruncated ? { outputTruncatedAt: MAX_OUTPUT } : {}),
        ...(collected && collected.skipped.length > 0 ? { artifactsSkipped: collected.skipped } : {}),
      };
      const data = { results, stdout, stderr, exitCode };
      const notes = collected?.notes ?? [];
      const artifacts = collected?.artifacts ?? [];
      const withArtifacts = (outcome: CheckOutcome): CheckOutcome => ({
        ...outcome,
        ...(artifacts.length > 0 ? { artifacts } : {}),
        ...(notes.length > 0 ? { error: [outcome.error, ...notes].filter(Boolean).join(', ') } : {}),
      });
      if (ran.error) {
        const message = ctx.signal.aborted ? 'the script ran past its timeout and was stopped' : `could not run the script: ${ran.error.message}`;
        results.error = message;
        return withArtifacts({ pass: false, duration, message: stderr || message, error: message, data, details });
      }
      if (exitCode !== 0) return withArtifacts({ pass: false, duration, message: stderr || `exit code ${exitCode}`, data, details });
      // canary-checker leaves a passing run's message empty; the last line of output says more (display overrides it).
      return withArtifacts({ pass: true, duration, message: stdout.split('\n').at(-1) ?? '', data, details });
    } finally {
      await checkout?.cleanup();
      if (scratch) await fs.rm(scratch, { recursive: true, force: true });
    }
  },
});
