import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { errorMessage } from '../../platform/jobs/db';
import { redactingLogger } from '../../platform/secrets/redact';
import { isRecord } from '../../platform/errors';
import type { ActionOutcome } from './actions/types';
import { revealParameters } from './runs';
import { actionTypeOf, type ActionSpec, type PlaybookSpec } from './spec';
import { loadTarget, type TargetKind } from './targets';
import { AGENT_INPUT_VERSION, prepareAction, type AgentActionInput } from './remote';
import { secretParameterValues, type ActionRow, type ClaimedRun, type RunnerContext, type RunRow } from './run-context';
import { actionLimit, formatMillis, retryDelay, StopReason, timerAt } from './timing';

/**
 * The runner's action executor: one attempt of one action, from its rendered input (template data, env and
 * secrets resolved by prepareAction) through the executor of its type to the row that records how it ended.
 * It writes the attempt's own row only; what the run does next (retry, wait for an agent) is run-state.ts's.
 */

/** NOTIFY channel that wakes agents' claims: an action now waits for the agent whose id is the payload. */
export const AGENT_ACTIONS_CHANNEL = 'watchkeeper_agent_actions';

/**
 * How an attempt ended: recorded (`done`), stopped under it by the run (`stopped`), recorded as failed with a
 * retry due (`retry`), or handed to an agent (`parked`: the action row waits for that agent).
 */
export type AttemptEnd = { kind: 'done' } | { kind: 'stopped' } | { kind: 'retry' } | { kind: 'parked'; agentId: string };

/**
 * The agent an action runs on: its runsOn (else the playbook's), first name; none for `local`, for this
 * instance's own agent name, or when neither says.
 */
export function remoteAgentOf(action: Pick<ActionSpec, 'runsOn'>, spec: Pick<PlaybookSpec, 'runsOn'>, ownName?: string): string | undefined {
  const names = action.runsOn?.length ? action.runsOn : (spec.runsOn ?? []);
  const first = names.map((name) => name.trim()).find((name) => name !== '');
  if (!first || first === 'local' || first === ownName) return undefined;
  return first;
}

/** Runs one attempt; answers 'stopped' when the run was stopped under it, 'retry' when a retry is due. */
export async function executeAttempt(ctx: RunnerContext, claimed: ClaimedRun, action: ActionSpec, row: ActionRow, data: Record<string, unknown>, runSignal: AbortSignal): Promise<AttemptEnd> {
  const { row: run, spec, deadline } = claimed;
  const remote = remoteAgentOf(action, spec, ctx.options.agentName);
  if (remote) return park(ctx, claimed, action, row, data, remote);
  const type = actionTypeOf(action);
  const executor = ctx.options.executors[type];
  const controller = new AbortController();
  const onRunAbort = () => controller.abort(runSignal.reason);
  runSignal.addEventListener('abort', onRunAbort, { once: true });
  const limit = actionLimit(action, deadline);
  const timer = Number.isFinite(limit)
    ? timerAt(Date.now() + limit, () => controller.abort(new StopReason('action_timed_out', `the action timed out after ${formatMillis(limit)}`)))
    : undefined;
  let workDir: string | undefined;
  let outcome: ActionOutcome;
  try {
    if (!executor) {
      outcome = {
        result: {},
        error: type === 'pod'
          ? 'pod actions need a Kubernetes cluster, and none is configured'
          : type === 'report'
            ? 'report actions are not run by this console: Mission Control renders them with its facet renderer (a TSX template to HTML or PDF), which this console does not have'
            : `${type} actions are not run by this console yet`,
      };
    } else {
      // Every secret the action points at (its env, connections, secret:// values) is redacted from what it leaves.
      const prepared = await prepareAction(ctx.options.secrets, run.namespace, action, spec.env ?? [], data, ctx.redactorOf(run.id));
      outcome = await executor({
        pool: ctx.pool,
        secrets: ctx.options.secrets,
        log: redactingLogger(ctx.log.child({ run: run.id, action: action.name }), ctx.redactorOf(run.id)),
        namespace: run.namespace,
        runId: run.id,
        actionId: row.id,
        spec: prepared.spec,
        templateData: prepared.templateData,
        env: prepared.env,
        signal: controller.signal,
        workDir: async () => {
          workDir ??= path.join(ctx.options.dataDir, 'playbook-runs', run.id, row.id);
          await fs.mkdir(workDir, { recursive: true });
          return workDir;
        },
      });
    }
  } catch (error) {
    outcome = { result: {}, error: errorMessage(error) };
  } finally {
    timer?.clear();
    runSignal.removeEventListener('abort', onRunAbort);
    if (workDir) await fs.rm(workDir, { recursive: true, force: true }).catch(() => undefined);
  }
  const reason = controller.signal.aborted ? controller.signal.reason : undefined;
  if (reason instanceof StopReason && reason.kind !== 'action_timed_out') {
    // Cancel, run timeout, shutdown or a lost lease: the run's own ending records the action.
    if (reason.kind === 'cancelled' || reason.kind === 'timed_out') {
      await ctx.pool.query('UPDATE playbook_run_actions SET status = $2, end_time = now(), result = $3, error = $4 WHERE id = $1', [
        row.id, reason.kind, JSON.stringify(ctx.redactorOf(run.id).redactDeep(outcome.result)), reason.message,
      ]);
      await redactArtifacts(ctx, run.id, row.id);
    }
    return { kind: 'stopped' };
  }
  const status = reason instanceof StopReason ? 'timed_out' : outcome.error ? 'failed' : 'completed';
  const error = reason instanceof StopReason ? reason.message : (outcome.error ?? null);
  return settle(ctx, run, action, row, status, outcome.result ?? {}, error);
}

/**
 * runsOn names an agent (not `local`, not this instance's own agent): the attempt waits for that agent. Its
 * input is the action as written, its template data and the playbook's env as written, sealed by the secret
 * store (the data may hold secret parameters): no value this console reads from its own Secrets, ConfigMaps
 * or connections goes to the agent, which resolves the references from its own and renders the action
 * (remote.ts). The agent claims it through POST /api/agent/playbook-actions/claim and sends its result,
 * which wakes the run.
 */
async function park(ctx: RunnerContext, claimed: ClaimedRun, action: ActionSpec, row: ActionRow, data: Record<string, unknown>, agentName: string): Promise<AttemptEnd> {
  const { row: run, spec, deadline } = claimed;
  const { rows } = await ctx.pool.query<{ id: string }>('SELECT id FROM agents WHERE name = $1 AND deleted_at IS NULL ORDER BY created_at LIMIT 1', [agentName]);
  const agentId = rows[0]?.id;
  if (!agentId) return settle(ctx, run, action, row, 'failed', {}, `runsOn: no agent is named "${agentName}"`);
  const limit = actionLimit(action, deadline);
  const input: AgentActionInput = {
    version: AGENT_INPUT_VERSION,
    spec: { ...action },
    env: spec.env ?? [],
    templateData: data,
    namespace: run.namespace,
    playbook: { id: run.playbook_id, name: run.playbook_name, namespace: run.namespace },
    timeoutMillis: Number.isFinite(limit) ? Math.max(1, Math.round(limit)) : null,
    // The run's secret parameters (already in .params): the agent sends its result without them, and the
    // result is stored without them whatever the agent sent. Never the run's other secrets this console knows.
    redact: secretParameterValues(ctx.options.secrets, run),
  };
  const sealed = ctx.options.secrets.encrypt(JSON.stringify(input));
  await ctx.pool.query(
    "UPDATE playbook_run_actions SET status = 'waiting', agent_id = $2, agent_input = $3, agent_lease_until = NULL, claimed_by = NULL WHERE id = $1",
    [row.id, agentId, sealed],
  );
  return { kind: 'parked', agentId };
}

/** Records how an attempt ended; a failed one answers `retry` when its policy allows one. */
async function settle(ctx: RunnerContext, run: RunRow, action: ActionSpec, row: ActionRow, status: 'completed' | 'failed' | 'timed_out', result: Record<string, unknown>, error: string | null): Promise<AttemptEnd> {
  // What an attempt leaves is stored without the run's secrets (its script, output, error, artifact names).
  const redactor = ctx.redactorOf(run.id);
  result = redactor.redactDeep(result);
  error = redactor.redactNullable(error);
  await redactArtifacts(ctx, run.id, row.id);
  await ctx.pool.query('UPDATE playbook_run_actions SET status = $2, end_time = now(), result = $3, error = $4 WHERE id = $1', [row.id, status, JSON.stringify(result), error]);
  return status !== 'completed' && retryDelay(action, row.retry_count) !== undefined ? { kind: 'retry' } : { kind: 'done' };
}

/** `.config`/`.component`/`.check`, `.params`, `.user`, `.run`, `.playbook`, `.request` for templates and `if`. */
export async function templateData(ctx: RunnerContext, run: RunRow, spec: PlaybookSpec): Promise<Record<string, unknown>> {
  const data: Record<string, unknown> = {
    params: revealParameters(ctx.options.secrets, run),
    run: { id: run.id, playbook_id: run.playbook_id, created_at: run.created_at, parameters: run.parameters },
    playbook: { id: run.playbook_id, name: run.playbook_name, namespace: run.namespace, title: spec.title ?? '' },
    request: run.request ?? {},
    user: {},
  };
  for (const [kind, id] of [['config', run.config_id], ['component', run.component_id], ['check', run.check_id]] as Array<[TargetKind, string | null]>) {
    if (!id) continue;
    const target = await loadTarget(ctx.pool, kind, id);
    if (target) data[kind] = target.row;
  }
  if (run.created_by) {
    const { rows } = await ctx.pool.query<{ id: string; name: string; email: string | null }>('SELECT id, name, email FROM people WHERE id = $1', [run.created_by]);
    if (rows[0]) data.user = rows[0];
  }
  if (isRecord(run.request?.event)) data.event = run.request.event;
  return data;
}

/**
 * An attempt's artifacts without the run's secrets: their names and paths (a script may name a file after
 * one) and the content of text artifacts (/dev/stdout is one), re-compressed with a new checksum.
 */
async function redactArtifacts(ctx: RunnerContext, runId: string, actionId: string): Promise<void> {
  const redactor = ctx.redactorOf(runId);
  if (redactor.size === 0) return;
  const { rows } = await ctx.pool.query<{ id: string; path: string; filename: string; content_encoding: string; content: Buffer }>(
    'SELECT id, path, filename, content_encoding, content FROM artifacts WHERE playbook_run_action_id = $1',
    [actionId],
  );
  for (const artifact of rows) {
    const path = redactor.redact(artifact.path);
    const filename = redactor.redact(artifact.filename);
    let content: Buffer | undefined;
    try {
      const raw = artifact.content_encoding === 'gzip' ? gunzipSync(artifact.content) : artifact.content;
      const text = raw.toString('utf8');
      const clean = Buffer.from(text, 'utf8').equals(raw) ? redactor.redact(text) : text;
      if (clean !== text) content = Buffer.from(clean, 'utf8');
    } catch {
      // Content that cannot be read as text is kept as it is.
    }
    if (path === artifact.path && filename === artifact.filename && !content) continue;
    if (content) {
      await ctx.pool.query("UPDATE artifacts SET path = $2, filename = $3, content = $4, content_encoding = 'gzip', stored_size = $5, checksum = $6 WHERE id = $1", [
        artifact.id, path, filename, gzipSync(content), content.length, createHash('sha256').update(content).digest('hex'),
      ]);
    } else {
      await ctx.pool.query('UPDATE artifacts SET path = $2, filename = $3 WHERE id = $1', [artifact.id, path, filename]);
    }
  }
}
