import fs from 'node:fs/promises';
import { DEFAULT_ARTIFACT_LIMITS, prepareArtifacts, storeArtifacts } from '../../../platform/artifacts';
import { messageOf } from '../../../platform/errors';
import { gitCheckout, GitCheckoutError, type GitCheckout } from '../../../platform/peers/git-checkout';
import { collectScriptArtifacts, makeScriptDir, runScript, trimSpace } from '../../../platform/peers/script';
import { resolveEnvVar } from '../../../platform/secrets/resolve';
import { actionConnection, envValueOf, notRun, stopReason } from './shared';
import type { ActionContext, ActionOutcome } from './types';

type Spec = NonNullable<ActionContext['spec']['exec']>;

/** Output kept per stream: what an artifact may hold, since /dev/stdout and /dev/stderr become artifacts (as the exec check). */
const MAX_OUTPUT = DEFAULT_ARTIFACT_LIMITS.perArtifact;

/** duty's ExecDetails before the script ran, or when it could not. */
const notRunResult = (): Record<string, unknown> => ({ stdout: '', stderr: '', exitCode: -1, path: '', args: [] });

/** The script's environment: the playbook's `env`, then the action's own (a valueFrom read from its secret). */
async function environment(ctx: ActionContext, spec: Spec): Promise<Record<string, string>> {
  const env: Record<string, string> = { ...ctx.env };
  for (const item of spec.env ?? []) env[item.name] = await resolveEnvVar(ctx.secrets, ctx.namespace, item, `exec.env.${item.name}`);
  return env;
}

/** The `checkout` (duty's GitConnection): its connection gives the url and credentials the action leaves empty. */
async function checkoutOf(ctx: ActionContext, spec: NonNullable<Spec['checkout']>): Promise<GitCheckout> {
  const connection = spec.connection ? await actionConnection(ctx, spec.connection, 'exec.checkout.connection') : undefined;
  const url = spec.url || connection?.url || '';
  if (!url) throw new GitCheckoutError('exec.checkout needs a url, or a connection that has one');
  return gitCheckout(
    {
      url,
      username: (await envValueOf(ctx, spec.username, 'exec.checkout.username')) || connection?.username,
      password: (await envValueOf(ctx, spec.password, 'exec.checkout.password')) || connection?.password,
      certificate: (await envValueOf(ctx, spec.certificate, 'exec.checkout.certificate')) || connection?.certificate,
      branch: spec.branch,
      destination: spec.destination,
    },
    { signal: ctx.signal },
  );
}

/** Stores what `artifacts` names against this attempt; what the limits left out, or what matched nothing, is said in the result. */
async function storeCollected(ctx: ActionContext, spec: Spec, run: { cwd: string; stdout: string; stderr: string }): Promise<Record<string, unknown>> {
  if (!spec.artifacts || spec.artifacts.length === 0) return {};
  const collected = await collectScriptArtifacts(spec.artifacts, run);
  const prepared = await prepareArtifacts(collected.artifacts);
  const stored = await storeArtifacts(ctx.pool, { playbookRunActionId: ctx.actionId }, prepared);
  const notes = [...collected.notes, ...stored.notes];
  return {
    ...(stored.artifacts.length > 0 ? { artifacts: stored.artifacts.map((artifact) => ({ id: artifact.id, path: artifact.path, size: artifact.size })) } : {}),
    ...(notes.length > 0 ? { artifactNotes: notes } : {}),
    ...(collected.skipped.length > 0 ? { artifactsSkipped: collected.skipped } : {}),
  };
}

/** `exit code N: <the last line of stderr>`. */
function exitMessage(exitCode: number, stderr: string): string {
  const last = stderr.split('\n').map((line) => line.trim()).filter(Boolean).at(-1);
  return last ? `exit code ${exitCode}: ${last}` : `exit code ${exitCode}`;
}

/**
 * `exec` (Mission Control's ExecAction, run as duty's shell runs it, as the exec check does): the script
 * runs with bash (or its shebang's interpreter) in its own process group, in the `checkout` of a git
 * repository or the attempt's work directory, with the playbook's and the action's `env`. Then the
 * `artifacts` it names are stored against the attempt. Result: {stdout, stderr, exitCode, path, args};
 * a non-zero exit fails it. Cancel and timeout stop the whole process group.
 */
export async function exec(ctx: ActionContext): Promise<ActionOutcome> {
  const spec = ctx.spec.exec;
  if (!spec) return { result: notRunResult(), error: 'the action has no exec block' };
  let checkout: GitCheckout | undefined;
  let scratch: string | undefined;
  try {
    let env: Record<string, string>;
    let cwd: string;
    try {
      env = await environment(ctx, spec);
      if (spec.checkout) checkout = await checkoutOf(ctx, spec.checkout);
      // A fresh directory of the user the script runs as (WATCHKEEPER_EXEC_USER when the console is root),
      // outside the data directory, which that user may not enter.
      if (!checkout) scratch = await makeScriptDir('wk-action-');
      cwd = checkout?.dir ?? scratch ?? '';
    } catch (error) {
      if (ctx.signal.aborted) return { result: notRunResult(), error: stopReason(ctx.signal) };
      return error instanceof GitCheckoutError ? { result: notRunResult(), error: `checkout failed: ${error.message}` } : notRun(error, notRunResult());
    }
    const ran = await runScript(spec.script, { env, signal: ctx.signal, cwd, maxOutput: MAX_OUTPUT, maxError: MAX_OUTPUT });
    const stdout = trimSpace(ran.stdout);
    const stderr = trimSpace(ran.stderr);
    const exitCode = ran.exitCode ?? -1;
    const result: Record<string, unknown> = {
      stdout,
      stderr,
      exitCode,
      path: ran.path,
      args: ran.args,
      ...(checkout ? { extra: { git: checkout.git, commit: checkout.commit } } : {}),
      ...(ran.truncated || ran.stderrTruncated ? { outputTruncatedAt: MAX_OUTPUT } : {}),
    };
    if (ctx.signal.aborted) return { result, error: stopReason(ctx.signal) };
    if (ran.error) return { result, error: `could not run the script: ${ran.error.message}` };
    try {
      Object.assign(result, await storeCollected(ctx, spec, { cwd, stdout, stderr }));
    } catch (error) {
      return { result, error: `the artifacts could not be stored: ${messageOf(error)}` };
    }
    return exitCode === 0 ? { result } : { result, error: exitMessage(exitCode, stderr) };
  } finally {
    await checkout?.cleanup();
    if (scratch) await fs.rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}
