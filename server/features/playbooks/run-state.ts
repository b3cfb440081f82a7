import { capabilityUses, runRefusal } from '../../platform/auth/capabilities';
import { evaluateCel, PLAYBOOK_FUNCTIONS, renderTemplate } from '../../platform/expressions';
import { errorMessage } from '../../platform/jobs/db';
import { publish } from '../../platform/jobs/event-queue';
import { actionTypeOf, conditionExpression, templateText, type ActionSpec } from './spec';
import { AGENT_ACTIONS_CHANNEL, executeAttempt, templateData } from './action-executor';
import type { ActionRow, ClaimedRun, RunnerContext, RunRow } from './run-context';
import { delayOf, retryDelay, runDeadline, runTimedOutMessage, StopReason } from './timing';

/**
 * The run's state machine: which action comes next (its `if`, its delay, a retry due, an agent's attempt),
 * and how the run moves between running, sleeping, retrying, waiting and its end. Attempts themselves are
 * action-executor.ts's; delays, retry backoff and timeouts are timing.ts's.
 */

export const INSTANCE_STOPPED = 'the instance running it stopped';
const FINAL_ACTION = new Set(['completed', 'failed', 'skipped', 'cancelled', 'timed_out']);

/** Advances a claimed run until it ends, sleeps, waits for an agent, or is stopped. */
export async function advance(ctx: RunnerContext, claimed: ClaimedRun, signal: AbortSignal): Promise<void> {
  const { row: run, spec } = claimed;
  if (Date.now() >= claimed.deadline) return timedOut(ctx, run);
  // Capabilities (docs/SECURITY.md): exec, sql and connections run only while the playbook's last author holds them.
  const refusal = await runRefusal(ctx.pool, run.author, capabilityUses(run.spec), run.namespace);
  if (refusal) return finish(ctx, run, 'failed', refusal.message);

  const data = await templateData(ctx, run, spec);
  for (;;) {
    if (signal.aborted) return stopped(ctx, run, signal.reason);
    const actions = await actionRows(ctx, run.id);
    const latest = new Map<number, ActionRow>();
    for (const row of actions) latest.set(row.action_index, row);
    // An attempt left running by an instance that stopped: failed, and retried only by a retry policy.
    for (const row of latest.values()) {
      if (row.status !== 'running') continue;
      await ctx.pool.query("UPDATE playbook_run_actions SET status = 'failed', end_time = now(), error = $2 WHERE id = $1", [row.id, INSTANCE_STOPPED]);
      row.status = 'failed';
      row.error = INSTANCE_STOPPED;
      const action = spec.actions[row.action_index];
      if (action && retryDelay(action, row.retry_count) !== undefined) return scheduleRetry(ctx, run, action, row);
    }
    // An attempt an agent ran (runsOn) and that failed: retried under the action's retry policy, as here.
    for (const row of latest.values()) {
      const action = spec.actions[row.action_index];
      if (row.agent_id && (row.status === 'failed' || row.status === 'timed_out') && action && retryDelay(action, row.retry_count) !== undefined) {
        return scheduleRetry(ctx, run, action, row);
      }
    }
    const index = spec.actions.findIndex((_, position) => !FINAL_ACTION.has(latest.get(position)?.status ?? ''));
    if (index < 0) {
      const failed = [...latest.values()].find((row) => row.status === 'failed' || row.status === 'timed_out');
      return finish(ctx, run, failed ? 'failed' : 'completed', failed ? `action ${failed.name} failed${failed.error ? `: ${failed.error}` : ''}` : null);
    }
    const action = spec.actions[index] as ActionSpec;
    let row = latest.get(index);
    const earlier = [...latest.values()].filter((item) => item.action_index < index);
    const failedBefore = earlier.some((item) => item.status === 'failed' || item.status === 'timed_out');
    const done = earlier.filter((item) => item.status !== 'skipped');
    const last = done[done.length - 1];
    const summary = (item: ActionRow) => ({ name: item.name, status: item.status, result: item.result ?? {}, error: item.error });
    const actionData = {
      ...data,
      action: { name: action.name, index },
      actions: Object.fromEntries(earlier.map((item) => [item.name, summary(item)])),
      wk_actions: Object.fromEntries(earlier.map((item) => [item.name, summary(item)])),
      wk_last_result: last?.result ?? {},
      wk_last_action: last ? summary(last) : {},
    };
    if (!row) {
      let go: boolean;
      try {
        go = condition(action, actionData, failedBefore, earlier.some((item) => item.status === 'timed_out'));
      } catch (error) {
        await insertAction(ctx, run.id, action, index, 0, 'failed', new Date(), errorMessage(error));
        continue;
      }
      if (!go) {
        await insertAction(ctx, run.id, action, index, 0, 'skipped', new Date(), null);
        continue;
      }
      let delay: number;
      try {
        delay = delayOf(action, actionData);
      } catch (error) {
        await insertAction(ctx, run.id, action, index, 0, 'failed', new Date(), errorMessage(error));
        continue;
      }
      if (delay > 0) {
        const wake = new Date(Date.now() + delay);
        await insertAction(ctx, run.id, action, index, 0, 'sleeping', wake, null);
        return sleep(ctx, run, 'sleeping', wake);
      }
      row = await insertAction(ctx, run.id, action, index, 0, 'running', new Date(), null);
    } else {
      // Waiting for an agent (runsOn): handed back until the agent's result or the run's deadline.
      if (row.status === 'waiting') return waitForAgent(ctx, run);
      if (row.scheduled_time.getTime() > Date.now()) return sleep(ctx, run, row.retry_count > 0 ? 'retrying' : 'sleeping', row.scheduled_time);
      await ctx.pool.query("UPDATE playbook_run_actions SET status = 'running', start_time = now(), claimed_by = $2 WHERE id = $1", [row.id, ctx.options.instanceId]);
    }
    await ctx.pool.query("UPDATE playbook_runs SET status = 'running' WHERE id = $1 AND status IN ('sleeping', 'retrying', 'scheduled')", [run.id]);
    const end = await executeAttempt(ctx, claimed, action, row, actionData, signal);
    if (end.kind === 'stopped') return stopped(ctx, run, signal.reason);
    if (end.kind === 'retry') return scheduleRetry(ctx, run, action, row);
    if (end.kind === 'parked') {
      await waitForAgent(ctx, run);
      await ctx.pool.query('SELECT pg_notify($1, $2)', [AGENT_ACTIONS_CHANNEL, end.agentId]).catch(() => undefined);
      return;
    }
  }
}

/** Whether an action runs: its `if` (or `filter`), a template or CEL; without one, when nothing before it failed. */
function condition(action: ActionSpec, data: Record<string, unknown>, failedBefore: boolean, timedOutBefore: boolean): boolean {
  const written = action.if ?? action.filter;
  if (written === undefined || written.trim() === '') return !failedBefore;
  if (written.includes('{{')) return renderTemplate(`${action.name}.if`, templateText(written), data, PLAYBOOK_FUNCTIONS).trim() === 'true';
  const value = evaluateCel(`action ${action.name} if`, conditionExpression(written), { ...data, wk_success: !failedBefore, wk_failure: failedBefore, wk_timeout: timedOutBefore });
  return value === true || value === 'true';
}

/** The next attempt of an action, sleeping until its retry backoff has passed. */
async function scheduleRetry(ctx: RunnerContext, run: RunRow, action: ActionSpec, row: ActionRow): Promise<void> {
  const wake = new Date(Date.now() + (retryDelay(action, row.retry_count) ?? 0));
  await insertAction(ctx, run.id, action, row.action_index, row.retry_count + 1, 'sleeping', wake, null);
  await sleep(ctx, run, 'retrying', wake);
}

async function actionRows(ctx: RunnerContext, runId: string): Promise<ActionRow[]> {
  const { rows } = await ctx.pool.query<ActionRow>(
    'SELECT id, action_index, name, status, retry_count, scheduled_time, result, error, agent_id FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY action_index, retry_count',
    [runId],
  );
  return rows;
}

async function insertAction(ctx: RunnerContext, runId: string, action: ActionSpec, index: number, retryCount: number, status: string, scheduled: Date, error: string | null): Promise<ActionRow> {
  const running = status === 'running';
  const ended = status === 'skipped' || status === 'failed';
  const { rows } = await ctx.pool.query<ActionRow>(
    `INSERT INTO playbook_run_actions (playbook_run_id, name, action_index, type, status, retry_count, scheduled_time, start_time, end_time, error, claimed_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, ${running || ended ? 'now()' : 'NULL'}, ${ended ? 'now()' : 'NULL'}, $8, $9)
     RETURNING id, action_index, name, status, retry_count, scheduled_time, result, error, agent_id`,
    [runId, action.name, index, actionTypeOf(action), status, retryCount, scheduled, ctx.redactorOf(runId).redactNullable(error), running ? ctx.options.instanceId : null],
  );
  return rows[0] as ActionRow;
}

/** Hands the run back until `wake` (a delay or a retry backoff): no lease is held while it sleeps. */
async function sleep(ctx: RunnerContext, run: RunRow, status: 'sleeping' | 'retrying', wake: Date): Promise<void> {
  // Woken at the run's deadline at the latest, so a long delay still ends as timed out on time.
  wake = new Date(Math.min(wake.getTime(), runDeadline(run)));
  await ctx.pool.query(
    `UPDATE playbook_runs SET status = $3, scheduled_time = $4, claimed_by = NULL, lease_until = NULL
      WHERE id = $1 AND claimed_by = $2 AND status NOT IN ('cancelled', 'timed_out', 'completed', 'failed')`,
    [run.id, ctx.options.instanceId, status, wake],
  );
}

/** Hands a run waiting for an agent back, to be claimed again at its deadline (or woken by the agent's result). */
async function waitForAgent(ctx: RunnerContext, run: RunRow): Promise<void> {
  await ctx.pool.query(
    `UPDATE playbook_runs SET status = 'waiting', scheduled_time = $3, claimed_by = NULL, lease_until = NULL
      WHERE id = $1 AND claimed_by = $2 AND status NOT IN ('cancelled', 'timed_out', 'completed', 'failed')`,
    [run.id, ctx.options.instanceId, new Date(runDeadline(run))],
  );
}

async function stopped(ctx: RunnerContext, run: RunRow, reason: unknown): Promise<void> {
  if (reason instanceof StopReason && reason.kind === 'timed_out') return timedOut(ctx, run);
  if (reason instanceof StopReason && reason.kind === 'stopping') {
    // Handed back at once: the next instance records the action under way as stopped.
    await ctx.pool.query('UPDATE playbook_runs SET claimed_by = NULL, lease_until = NULL WHERE id = $1 AND claimed_by = $2', [run.id, ctx.options.instanceId]);
    return;
  }
  if (reason instanceof StopReason && reason.kind === 'cancelled') {
    await ctx.pool.query('UPDATE playbook_runs SET claimed_by = NULL, lease_until = NULL WHERE id = $1 AND claimed_by = $2', [run.id, ctx.options.instanceId]);
    await event(ctx, run, 'cancelled', 'cancelled');
  }
  // lease_lost: another instance has it; nothing more is written from here.
}

async function timedOut(ctx: RunnerContext, run: RunRow): Promise<void> {
  const message = runTimedOutMessage(run);
  await ctx.pool.query(
    "UPDATE playbook_run_actions SET status = 'timed_out', end_time = now(), error = $2 WHERE playbook_run_id = $1 AND status IN ('running', 'sleeping', 'scheduled', 'waiting')",
    [run.id, message],
  );
  await finish(ctx, run, 'timed_out', message);
}

/** Ends the run (unless it already ended, or another instance has it) and publishes its event. */
export async function finish(ctx: RunnerContext, run: RunRow, status: 'completed' | 'failed' | 'timed_out', error: string | null): Promise<void> {
  error = ctx.redactorOf(run.id).redactNullable(error);
  const { rowCount } = await ctx.pool.query(
    `UPDATE playbook_runs SET status = $3, error = $4, end_time = now(), claimed_by = NULL, lease_until = NULL
      WHERE id = $1 AND claimed_by = $2 AND status NOT IN ('cancelled', 'timed_out', 'completed', 'failed')`,
    [run.id, ctx.options.instanceId, status, error],
  );
  if (rowCount) await event(ctx, run, status, error);
}

async function event(ctx: RunnerContext, run: RunRow, status: string, error: string | null): Promise<void> {
  const name = status === 'completed' ? 'playbook.run.completed' : 'playbook.run.failed';
  await publish(ctx.pool, name, {
    id: run.id,
    run_id: run.id,
    playbook_id: run.playbook_id,
    name: run.playbook_name,
    namespace: run.namespace,
    status,
    error: ctx.redactorOf(run.id).redactNullable(error),
    config_id: run.config_id,
    component_id: run.component_id,
    check_id: run.check_id,
    created_by: run.created_by,
  }).catch((failure) => ctx.log.warn({ err: errorMessage(failure), run: run.id }, 'could not publish the playbook run event'));
}
