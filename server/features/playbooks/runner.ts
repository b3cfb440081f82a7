import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type pg from 'pg';
import { inOrganizationOf } from '../../platform/db/tenant';
import { capabilityUses, runRefusal } from '../../platform/auth/capabilities';
import { evaluateCel, renderTemplate } from '../../platform/expressions';
import { errorMessage, interval } from '../../platform/jobs/db';
import { publish } from '../../platform/jobs/event-queue';
import { Listener } from '../../platform/jobs/listener';
import { boundedWait, Waker } from '../../platform/jobs/waker';
import type { Logger } from '../../platform/logger';
import type { SecretStore } from '../../platform/secrets/store';
import { resolveEnvVar } from '../../platform/secrets/resolve';
import { collectSpecSecrets } from '../../platform/secrets/collect';
import { redactingLogger, SecretValues } from '../../platform/secrets/redact';
import { isRecord } from '../../platform/errors';
import { parseDuration } from '../../platform/units';
import type { ActionExecutors, ActionOutcome } from './actions/types';
import { CANCEL_CHANNEL, revealParameters, RUNS_CHANNEL } from './runs';
import { actionTypeOf, checkPlaybookSpec, conditionExpression, templateText, type ActionSpec, type PlaybookSpec } from './spec';
import { loadTarget, type TargetKind } from './targets';
import { renderActionInContext } from './contextual/action';

/** Why an action or run was stopped: the reason becomes its status and error. */
export class StopReason extends Error {
  constructor(
    readonly kind: 'cancelled' | 'timed_out' | 'action_timed_out' | 'stopping' | 'lease_lost',
    message: string,
  ) {
    super(message);
  }
}

export const INSTANCE_STOPPED = 'the instance running it stopped';
/**
 * Runs worked on at once per instance. Most of a run's time is spent waiting (a script, a peer, a delay), so
 * many run side by side: 100 runs queued at once all start within a second on two cores (bench/playbooks.ts).
 */
export const DEFAULT_CONCURRENCY = 100;
/** setTimeout's longest delay (about 24.8 days); longer timeouts are re-armed in steps. */
const MAX_TIMER_MILLIS = 2 ** 31 - 1;

/** Calls `fire` at the instant `at` (ms since the epoch), however far off; `clear()` cancels it. */
function timerAt(at: number, fire: () => void): { clear(): void } {
  let handle: NodeJS.Timeout;
  const arm = () => {
    const left = at - Date.now();
    handle = left > MAX_TIMER_MILLIS ? setTimeout(arm, MAX_TIMER_MILLIS) : setTimeout(fire, Math.max(0, left));
  };
  arm();
  return { clear: () => clearTimeout(handle) };
}
const FINAL_ACTION = new Set(['completed', 'failed', 'skipped', 'cancelled', 'timed_out']);

export interface RunnerOptions {
  instanceId: string;
  executors: ActionExecutors;
  secrets: SecretStore;
  dataDir: string;
  /** Runs worked on at once by this instance. */
  concurrency?: number;
  /** How long a claim holds without renewal (renewed every second while the run is worked on). */
  leaseMillis?: number;
  /** Longest sleep between polls when nothing is due. */
  pollMillis?: number;
  /** This instance's own agent name when it runs as an agent: `runsOn: [it]` runs here (docs/AGENTS.md). */
  agentName?: string | undefined;
}

interface RunRow {
  id: string;
  playbook_id: string;
  status: string;
  spec: Record<string, unknown>;
  parameters: Record<string, string>;
  secret_parameters: string | null;
  config_id: string | null;
  component_id: string | null;
  check_id: string | null;
  created_by: string | null;
  request: Record<string, unknown> | null;
  timeout_millis: string;
  start_time: Date;
  created_at: Date;
  namespace: string;
  playbook_name: string;
  /** The playbook's last author (docs/SECURITY.md): the capabilities its actions use are checked against them. */
  author: string | null;
}

interface ActionRow {
  id: string;
  action_index: number;
  name: string;
  status: string;
  retry_count: number;
  scheduled_time: Date;
  result: Record<string, unknown> | null;
  error: string | null;
  /** Set when an agent runs the attempt (runsOn). */
  agent_id: string | null;
}

interface InFlight {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * The playbook runner: a platform worker on every instance. Due runs are claimed with FOR UPDATE SKIP
 * LOCKED and a lease renewed every second while the run is worked on, so two instances share the runs and
 * a run whose instance died is taken over when its lease runs out. Each action attempt is a row written
 * 'running' before the action starts: a taken-over run finds it so and records it as failed ("the instance
 * running it stopped"), retried only when the action has a retry policy — an action is never run twice
 * otherwise. A run sleeps (delay, retry backoff) without holding a lease.
 */
export class PlaybookRunner {
  private readonly waker = new Waker();
  private readonly inFlight = new Map<string, InFlight>();
  /** The secret values each run in flight has seen: kept out of everything it stores, publishes or logs. */
  private readonly redactors = new Map<string, SecretValues>();
  private readonly concurrency: number;
  private readonly leaseMillis: number;
  private readonly pollMillis: number;
  private listener: Listener | undefined;
  private loop: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: Logger,
    private readonly options: RunnerOptions,
  ) {
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.leaseMillis = options.leaseMillis ?? 30_000;
    this.pollMillis = options.pollMillis ?? 2_000;
  }

  async start(): Promise<void> {
    this.listener = new Listener(this.pool, this.log);
    this.listener.on(RUNS_CHANNEL, () => this.waker.wake());
    this.listener.on(CANCEL_CHANNEL, (payload) => {
      this.inFlight.get(payload ?? '')?.controller.abort(new StopReason('cancelled', 'cancelled'));
    });
    await this.listener.start();
    this.loop = this.run();
  }

  /** Stops claiming, stops the actions under way and hands their runs back at once (not after the lease). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.waker.wake();
    for (const flight of this.inFlight.values()) flight.controller.abort(new StopReason('stopping', INSTANCE_STOPPED));
    await this.loop?.catch(() => undefined);
    await Promise.all([...this.inFlight.values()].map((flight) => flight.done.catch(() => undefined)));
    await this.listener?.stop();
  }

  wake(): void {
    this.waker.wake();
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let wait = this.pollMillis;
      try {
        const free = this.concurrency - this.inFlight.size;
        if (free > 0) {
          const claimed = await this.claim(free);
          for (const run of claimed) this.launch(run.id, run.organizationId);
          if (claimed.length === free) continue;
          wait = boundedWait(await this.millisUntilDue(), 20, this.pollMillis);
        }
      } catch (error) {
        this.log.warn({ err: errorMessage(error) }, 'could not claim playbook runs; retrying');
      }
      if (this.stopping) break;
      await this.waker.wait(wait);
    }
  }

  private async claim(limit: number): Promise<Array<{ id: string; organizationId: string | null }>> {
    const { rows } = await this.pool.query<{ id: string; organization_id: string | null }>(
      `UPDATE playbook_runs r
          SET claimed_by = $2, lease_until = now() + $3::interval,
              status = CASE WHEN r.status = 'scheduled' THEN 'running' ELSE r.status END,
              start_time = coalesce(r.start_time, now())
        WHERE r.id IN (SELECT id FROM playbook_runs
                        WHERE (status IN ('scheduled', 'running', 'sleeping', 'retrying') AND scheduled_time <= now()
                               OR status = 'waiting' AND scheduled_time <= now())
                          AND (lease_until IS NULL OR lease_until < now())
                        ORDER BY scheduled_time LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING r.id, r.organization_id`,
      [limit, this.options.instanceId, interval(this.leaseMillis)],
    );
    return rows.map((row) => ({ id: row.id, organizationId: row.organization_id }));
  }

  private async millisUntilDue(): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ millis: number | null }>(
      `SELECT extract(epoch FROM min(greatest(scheduled_time, coalesce(lease_until, scheduled_time))) - now()) * 1000 AS millis
         FROM playbook_runs WHERE status IN ('scheduled', 'running', 'sleeping', 'retrying', 'waiting')`,
    );
    const millis = rows[0]?.millis;
    return millis === null || millis === undefined ? undefined : Number(millis);
  }

  private launch(id: string, organizationId: string | null): void {
    const controller = new AbortController();
    // An organization's run works in its scope: its actions read and write that organization's rows only.
    const done = inOrganizationOf(organizationId, () => this.work(id, controller))
      .catch((error) => this.log.error({ err: this.redactorOf(id).redact(errorMessage(error)), run: id }, 'playbook run failed in the runner'))
      .finally(() => {
        this.redactors.delete(id);
        this.inFlight.delete(id);
        this.waker.wake();
      });
    this.inFlight.set(id, { controller, done });
  }

  /** Works on one claimed run until it ends, sleeps, or is stopped; the lease is renewed meanwhile. */
  private async work(id: string, controller: AbortController): Promise<void> {
    const { rows } = await this.pool.query<RunRow>(
      `SELECT r.id, r.playbook_id, r.status, r.spec, r.parameters, r.secret_parameters, r.config_id, r.component_id, r.check_id,
              r.created_by, r.request, r.timeout_millis, r.start_time, r.created_at, p.namespace, p.name AS playbook_name, p.updated_by AS author
         FROM playbook_runs r JOIN playbooks p ON p.id = r.playbook_id WHERE r.id = $1 AND r.claimed_by = $2`,
      [id, this.options.instanceId],
    );
    const run = rows[0];
    if (!run) return;
    this.redactors.set(run.id, new SecretValues(this.secretParameterValues(run)));
    const deadline = run.start_time.getTime() + Number(run.timeout_millis);
    const renew = setInterval(() => {
      this.pool
        .query<{ status: string }>(`UPDATE playbook_runs SET lease_until = now() + $3::interval WHERE id = $1 AND claimed_by = $2 RETURNING status`, [id, this.options.instanceId, interval(this.leaseMillis)])
        .then(({ rows: renewed }) => {
          const status = renewed[0]?.status;
          if (status === undefined) controller.abort(new StopReason('lease_lost', 'another instance took this run over'));
          else if (status === 'cancelled') controller.abort(new StopReason('cancelled', 'cancelled'));
        })
        .catch((error) => this.log.warn({ err: errorMessage(error), run: id }, 'could not renew a playbook run lease'));
    }, 1_000);
    const timer = timerAt(deadline, () => controller.abort(new StopReason('timed_out', `the run timed out after ${formatMillis(Number(run.timeout_millis))}`)));
    try {
      await this.advance(run, controller.signal, deadline);
    } finally {
      clearInterval(renew);
      timer.clear();
    }
  }

  private async advance(run: RunRow, signal: AbortSignal, deadline: number): Promise<void> {
    const checked = checkPlaybookSpec(run.spec).checked;
    if (!checked) return this.finish(run, 'failed', 'the playbook spec of this run has problems');
    const spec = checked.spec;
    if (Date.now() >= deadline) return this.timedOut(run);
    // Capabilities (docs/SECURITY.md): exec, sql and connections run only while the playbook's last author holds them.
    const refusal = await runRefusal(this.pool, run.author, capabilityUses(run.spec), run.namespace);
    if (refusal) return this.finish(run, 'failed', refusal.message);

    const data = await this.templateData(run, spec);
    for (;;) {
      if (signal.aborted) return this.stopped(run, signal.reason);
      const actions = await this.actionRows(run.id);
      const latest = new Map<number, ActionRow>();
      for (const row of actions) latest.set(row.action_index, row);
      // An attempt left running by an instance that stopped: failed, and retried only by a retry policy.
      for (const row of latest.values()) {
        if (row.status !== 'running') continue;
        await this.pool.query("UPDATE playbook_run_actions SET status = 'failed', end_time = now(), error = $2 WHERE id = $1", [row.id, INSTANCE_STOPPED]);
        row.status = 'failed';
        row.error = INSTANCE_STOPPED;
        const action = spec.actions[row.action_index];
        if (action && this.retryDelay(action, row.retry_count) !== undefined) {
          await this.scheduleRetry(run, action, row);
          return;
        }
      }
      // An attempt an agent ran (runsOn) and that failed: retried under the action's retry policy, as here.
      for (const row of latest.values()) {
        const action = spec.actions[row.action_index];
        if (row.agent_id && (row.status === 'failed' || row.status === 'timed_out') && action && this.retryDelay(action, row.retry_count) !== undefined) {
          await this.scheduleRetry(run, action, row);
          return;
        }
      }
      const index = spec.actions.findIndex((_, position) => !FINAL_ACTION.has(latest.get(position)?.status ?? ''));
      if (index < 0) {
        const failed = [...latest.values()].find((row) => row.status === 'failed' || row.status === 'timed_out');
        return this.finish(run, failed ? 'failed' : 'completed', failed ? `action ${failed.name} failed${failed.error ? `: ${failed.error}` : ''}` : null);
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
          go = this.condition(action, actionData, failedBefore, earlier.some((item) => item.status === 'timed_out'));
        } catch (error) {
          await this.insertAction(run.id, action, index, 0, 'failed', new Date(), errorMessage(error));
          continue;
        }
        if (!go) {
          await this.insertAction(run.id, action, index, 0, 'skipped', new Date(), null);
          continue;
        }
        let delay: number;
        try {
          delay = this.delayOf(action, actionData);
        } catch (error) {
          await this.insertAction(run.id, action, index, 0, 'failed', new Date(), errorMessage(error));
          continue;
        }
        if (delay > 0) {
          const wake = new Date(Date.now() + delay);
          await this.insertAction(run.id, action, index, 0, 'sleeping', wake, null);
          return this.sleep(run, 'sleeping', wake);
        }
        row = await this.insertAction(run.id, action, index, 0, 'running', new Date(), null);
      } else {
        // Waiting for an agent (runsOn): handed back until the agent's result or the run's deadline.
        if (row.status === 'waiting') return this.waitForAgent(run);
        if (row.scheduled_time.getTime() > Date.now()) return this.sleep(run, row.retry_count > 0 ? 'retrying' : 'sleeping', row.scheduled_time);
        await this.pool.query("UPDATE playbook_run_actions SET status = 'running', start_time = now(), claimed_by = $2 WHERE id = $1", [row.id, this.options.instanceId]);
      }
      await this.pool.query("UPDATE playbook_runs SET status = 'running' WHERE id = $1 AND status IN ('sleeping', 'retrying', 'scheduled')", [run.id]);
      const outcome = await this.execute(run, spec, action, row, actionData, signal, deadline);
      if (outcome === 'stopped') return this.stopped(run, signal.reason);
      if (outcome === 'retry' || outcome === 'parked') return;
    }
  }

  /**
   * runsOn names an agent (not `local`, not this instance's own agent): the attempt waits for that agent, its
   * rendered input sealed by the secret store (it may hold secrets); the agent claims it through
   * POST /api/agent/playbook-actions/claim and sends its result, which wakes the run.
   */
  private async park(run: RunRow, spec: PlaybookSpec, action: ActionSpec, row: ActionRow, data: Record<string, unknown>, deadline: number, agentName: string): Promise<'parked' | 'done' | 'retry'> {
    const { rows } = await this.pool.query<{ id: string }>('SELECT id FROM agents WHERE name = $1 AND deleted_at IS NULL ORDER BY created_at LIMIT 1', [agentName]);
    const agentId = rows[0]?.id;
    if (!agentId) return this.settle(run, action, row, 'failed', {}, `runsOn: no agent is named "${agentName}"`);
    let sealed: string;
    try {
      const env = await this.resolveEnv(run, spec, data);
      const rendered = renderAction(action, { ...data, env });
      const limit = Math.min(action.timeout ?? Number.POSITIVE_INFINITY, deadline - Date.now());
      const redactor = this.redactorOf(run.id);
      await collectSpecSecrets(this.options.secrets, rendered, run.namespace, redactor);
      sealed = this.options.secrets.encrypt(JSON.stringify({
        spec: rendered, env, templateData: { ...data, env }, namespace: run.namespace, playbook: { id: run.playbook_id, name: run.playbook_name, namespace: run.namespace },
        timeoutMillis: Number.isFinite(limit) ? Math.max(1, Math.round(limit)) : null,
        // The secrets this instance knows of the run (all already in this input): the agent sends its result
        // without them, and the result is stored without them whatever the agent sent.
        redact: redactor.list(),
      }));
    } catch (error) {
      return this.settle(run, action, row, 'failed', {}, errorMessage(error));
    }
    await this.pool.query(
      "UPDATE playbook_run_actions SET status = 'waiting', agent_id = $2, agent_input = $3, agent_lease_until = NULL, claimed_by = NULL WHERE id = $1",
      [row.id, agentId, sealed],
    );
    await this.waitForAgent(run);
    await this.pool.query('SELECT pg_notify($1, $2)', [AGENT_ACTIONS_CHANNEL, agentId]).catch(() => undefined);
    return 'parked';
  }

  /** Hands a run waiting for an agent back, to be claimed again at its deadline (or woken by the agent's result). */
  private async waitForAgent(run: RunRow): Promise<void> {
    const deadline = new Date(run.start_time.getTime() + Number(run.timeout_millis));
    await this.pool.query(
      `UPDATE playbook_runs SET status = 'waiting', scheduled_time = $3, claimed_by = NULL, lease_until = NULL
        WHERE id = $1 AND claimed_by = $2 AND status NOT IN ('cancelled', 'timed_out', 'completed', 'failed')`,
      [run.id, this.options.instanceId, deadline],
    );
  }

  /** Runs one attempt; answers 'stopped' when the run was stopped under it, 'retry' when it sleeps for a retry. */
  private async execute(run: RunRow, spec: PlaybookSpec, action: ActionSpec, row: ActionRow, data: Record<string, unknown>, runSignal: AbortSignal, deadline: number): Promise<'done' | 'stopped' | 'retry' | 'parked'> {
    const remote = remoteAgentOf(action, spec, this.options.agentName);
    if (remote) return this.park(run, spec, action, row, data, deadline, remote);
    const type = actionTypeOf(action);
    const executor = this.options.executors[type];
    const controller = new AbortController();
    const onRunAbort = () => controller.abort(runSignal.reason);
    runSignal.addEventListener('abort', onRunAbort, { once: true });
    const limit = Math.min(action.timeout ?? Number.POSITIVE_INFINITY, deadline - Date.now());
    const timer = Number.isFinite(limit)
      ? timerAt(Date.now() + limit, () => controller.abort(new StopReason('action_timed_out', `the action timed out after ${formatMillis(limit)}`)))
      : undefined;
    let workDir: string | undefined;
    let outcome: ActionOutcome;
    try {
      if (!executor) {
        outcome = { result: {}, error: type === 'pod' ? 'pod actions need a Kubernetes cluster, and none is configured' : `${type} actions are not run by this console yet` };
      } else {
        const env = await this.resolveEnv(run, spec, data);
        const rendered = renderAction(action, { ...data, env });
        // Every secret the action points at (its env, connections, secret:// values) is redacted from what it leaves.
        await collectSpecSecrets(this.options.secrets, rendered, run.namespace, this.redactorOf(run.id));
        outcome = await executor({
          pool: this.pool,
          secrets: this.options.secrets,
          log: redactingLogger(this.log.child({ run: run.id, action: action.name }), this.redactorOf(run.id)),
          namespace: run.namespace,
          runId: run.id,
          actionId: row.id,
          spec: rendered,
          templateData: { ...data, env },
          env,
          signal: controller.signal,
          workDir: async () => {
            workDir ??= path.join(this.options.dataDir, 'playbook-runs', run.id, row.id);
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
        await this.pool.query('UPDATE playbook_run_actions SET status = $2, end_time = now(), result = $3, error = $4 WHERE id = $1', [
          row.id, reason.kind, JSON.stringify(this.redactorOf(run.id).redactDeep(outcome.result)), reason.message,
        ]);
        await this.redactArtifacts(run.id, row.id);
      }
      return 'stopped';
    }
    const status = reason instanceof StopReason ? 'timed_out' : outcome.error ? 'failed' : 'completed';
    const error = reason instanceof StopReason ? reason.message : (outcome.error ?? null);
    return this.settle(run, action, row, status, outcome.result ?? {}, error);
  }

  /** Records how an attempt ended; a failed one sleeps for a retry when its policy allows one. */
  private async settle(run: RunRow, action: ActionSpec, row: ActionRow, status: 'completed' | 'failed' | 'timed_out', result: Record<string, unknown>, error: string | null): Promise<'done' | 'retry'> {
    // What an attempt leaves is stored without the run's secrets (its script, output, error, artifact names).
    const redactor = this.redactorOf(run.id);
    result = redactor.redactDeep(result);
    error = redactor.redactNullable(error);
    await this.redactArtifacts(run.id, row.id);
    await this.pool.query('UPDATE playbook_run_actions SET status = $2, end_time = now(), result = $3, error = $4 WHERE id = $1', [row.id, status, JSON.stringify(result), error]);
    if (status !== 'completed' && this.retryDelay(action, row.retry_count) !== undefined) {
      await this.scheduleRetry(run, action, { ...row, status, error });
      return 'retry';
    }
    return 'done';
  }

  /** Milliseconds before attempt retry_count + 1, or undefined when the retry policy is spent (or absent). */
  private retryDelay(action: ActionSpec, retryCount: number): number | undefined {
    const retry = action.retry;
    if (!retry || retryCount >= retry.limit) return undefined;
    const base = (retry.duration ?? 0) * (retry.exponent?.multiplier ?? 1) ** retryCount;
    const jitter = retry.jitter ? base * (retry.jitter / 100) * Math.random() : 0;
    return base + jitter;
  }

  private async scheduleRetry(run: RunRow, action: ActionSpec, row: ActionRow): Promise<void> {
    const wake = new Date(Date.now() + (this.retryDelay(action, row.retry_count) ?? 0));
    await this.insertAction(run.id, action, row.action_index, row.retry_count + 1, 'sleeping', wake, null);
    await this.sleep(run, 'retrying', wake);
  }

  private condition(action: ActionSpec, data: Record<string, unknown>, failedBefore: boolean, timedOutBefore: boolean): boolean {
    const written = action.if ?? action.filter;
    if (written === undefined || written.trim() === '') return !failedBefore;
    if (written.includes('{{')) return renderTemplate(`${action.name}.if`, templateText(written), data).trim() === 'true';
    const value = evaluateCel(`action ${action.name} if`, conditionExpression(written), { ...data, wk_success: !failedBefore, wk_failure: failedBefore, wk_timeout: timedOutBefore });
    return value === true || value === 'true';
  }

  /** A delay: a duration, a template giving one, or a CEL expression giving one (Mission Control's `params.delay`). */
  private delayOf(action: ActionSpec, data: Record<string, unknown>): number {
    if (!action.delay) return 0;
    const text = action.delay.includes('{{') ? renderTemplate(`${action.name}.delay`, templateText(action.delay), data).trim() : action.delay.trim();
    const direct = parseDuration(text);
    if (direct !== undefined) return direct;
    const value = evaluateCel(`action ${action.name} delay`, conditionExpression(text), data);
    const millis = typeof value === 'number' ? value * 1000 : parseDuration(String(value ?? ''));
    if (millis === undefined) throw new Error(`delay ${JSON.stringify(action.delay)} gave ${JSON.stringify(value)}, not a duration`);
    return millis;
  }

  private async actionRows(runId: string): Promise<ActionRow[]> {
    const { rows } = await this.pool.query<ActionRow>(
      'SELECT id, action_index, name, status, retry_count, scheduled_time, result, error, agent_id FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY action_index, retry_count',
      [runId],
    );
    return rows;
  }

  private async insertAction(runId: string, action: ActionSpec, index: number, retryCount: number, status: string, scheduled: Date, error: string | null): Promise<ActionRow> {
    const running = status === 'running';
    const ended = status === 'skipped' || status === 'failed';
    const { rows } = await this.pool.query<ActionRow>(
      `INSERT INTO playbook_run_actions (playbook_run_id, name, action_index, type, status, retry_count, scheduled_time, start_time, end_time, error, claimed_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, ${running || ended ? 'now()' : 'NULL'}, ${ended ? 'now()' : 'NULL'}, $8, $9)
       RETURNING id, action_index, name, status, retry_count, scheduled_time, result, error, agent_id`,
      [runId, action.name, index, actionTypeOf(action), status, retryCount, scheduled, this.redactorOf(runId).redactNullable(error), running ? this.options.instanceId : null],
    );
    return rows[0] as ActionRow;
  }

  /** Hands the run back until `wake` (a delay or a retry backoff): no lease is held while it sleeps. */
  private async sleep(run: RunRow, status: 'sleeping' | 'retrying', wake: Date): Promise<void> {
    // Woken at the run's deadline at the latest, so a long delay still ends as timed out on time.
    const deadline = run.start_time.getTime() + Number(run.timeout_millis);
    wake = new Date(Math.min(wake.getTime(), deadline));
    await this.pool.query(
      `UPDATE playbook_runs SET status = $3, scheduled_time = $4, claimed_by = NULL, lease_until = NULL
        WHERE id = $1 AND claimed_by = $2 AND status NOT IN ('cancelled', 'timed_out', 'completed', 'failed')`,
      [run.id, this.options.instanceId, status, wake],
    );
  }

  private async stopped(run: RunRow, reason: unknown): Promise<void> {
    if (reason instanceof StopReason && reason.kind === 'timed_out') return this.timedOut(run);
    if (reason instanceof StopReason && reason.kind === 'stopping') {
      // Handed back at once: the next instance records the action under way as stopped.
      await this.pool.query('UPDATE playbook_runs SET claimed_by = NULL, lease_until = NULL WHERE id = $1 AND claimed_by = $2', [run.id, this.options.instanceId]);
      return;
    }
    if (reason instanceof StopReason && reason.kind === 'cancelled') {
      await this.pool.query('UPDATE playbook_runs SET claimed_by = NULL, lease_until = NULL WHERE id = $1 AND claimed_by = $2', [run.id, this.options.instanceId]);
      await this.event(run, 'cancelled', 'cancelled');
    }
    // lease_lost: another instance has it; nothing more is written from here.
  }

  private async timedOut(run: RunRow): Promise<void> {
    const message = `the run timed out after ${formatMillis(Number(run.timeout_millis))}`;
    await this.pool.query(
      "UPDATE playbook_run_actions SET status = 'timed_out', end_time = now(), error = $2 WHERE playbook_run_id = $1 AND status IN ('running', 'sleeping', 'scheduled', 'waiting')",
      [run.id, message],
    );
    await this.finish(run, 'timed_out', message);
  }

  private async finish(run: RunRow, status: 'completed' | 'failed' | 'timed_out', error: string | null): Promise<void> {
    error = this.redactorOf(run.id).redactNullable(error);
    const { rowCount } = await this.pool.query(
      `UPDATE playbook_runs SET status = $3, error = $4, end_time = now(), claimed_by = NULL, lease_until = NULL
        WHERE id = $1 AND claimed_by = $2 AND status NOT IN ('cancelled', 'timed_out', 'completed', 'failed')`,
      [run.id, this.options.instanceId, status, error],
    );
    if (rowCount) await this.event(run, status, error);
  }

  private async event(run: RunRow, status: string, error: string | null): Promise<void> {
    const name = status === 'completed' ? 'playbook.run.completed' : 'playbook.run.failed';
    await publish(this.pool, name, {
      id: run.id,
      run_id: run.id,
      playbook_id: run.playbook_id,
      name: run.playbook_name,
      namespace: run.namespace,
      status,
      error: this.redactorOf(run.id).redactNullable(error),
      config_id: run.config_id,
      component_id: run.component_id,
      check_id: run.check_id,
      created_by: run.created_by,
    }).catch((failure) => this.log.warn({ err: errorMessage(failure), run: run.id }, 'could not publish the playbook run event'));
  }

  /** `.config`/`.component`/`.check`, `.params`, `.user`, `.run`, `.playbook`, `.request` for templates and `if`. */
  private async templateData(run: RunRow, spec: PlaybookSpec): Promise<Record<string, unknown>> {
    const data: Record<string, unknown> = {
      params: revealParameters(this.options.secrets, run),
      run: { id: run.id, playbook_id: run.playbook_id, created_at: run.created_at, parameters: run.parameters },
      playbook: { id: run.playbook_id, name: run.playbook_name, namespace: run.namespace, title: spec.title ?? '' },
      request: run.request ?? {},
      user: {},
    };
    for (const [kind, id] of [['config', run.config_id], ['component', run.component_id], ['check', run.check_id]] as Array<[TargetKind, string | null]>) {
      if (!id) continue;
      const target = await loadTarget(this.pool, kind, id);
      if (target) data[kind] = target.row;
    }
    if (run.created_by) {
      const { rows } = await this.pool.query<{ id: string; name: string; email: string | null }>('SELECT id, name, email FROM people WHERE id = $1', [run.created_by]);
      if (rows[0]) data.user = rows[0];
    }
    if (isRecord(run.request?.event)) data.event = run.request.event;
    return data;
  }

  /** spec.env of the playbook: values (templated) and references resolved in its namespace. */
  private async resolveEnv(run: RunRow, spec: PlaybookSpec, data: Record<string, unknown>): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const [index, variable] of (spec.env ?? []).entries()) {
      const where = `spec.env[${index}]`;
      if (variable.value !== undefined) out[variable.name] = variable.value.includes('{{') ? renderTemplate(where, variable.value, data) : variable.value;
      else this.redactorOf(run.id).add((out[variable.name] = await resolveEnvVar(this.options.secrets, run.namespace, variable, where)));
    }
    return out;
  }

  /** The secret values of this run known so far (an empty set for a run not in flight here). */
  private redactorOf(runId: string): SecretValues {
    let redactor = this.redactors.get(runId);
    if (!redactor) {
      redactor = new SecretValues();
      if (this.inFlight.has(runId)) this.redactors.set(runId, redactor);
    }
    return redactor;
  }

  /** The clear values of the run's secret parameters (none when they cannot be read: the run then fails on them). */
  private secretParameterValues(run: RunRow): string[] {
    if (!run.secret_parameters) return [];
    try {
      return Object.values(JSON.parse(this.options.secrets.reveal(run.secret_parameters)) as Record<string, string>).map(String);
    } catch {
      return [];
    }
  }

  /**
   * An attempt's artifacts without the run's secrets: their names and paths (a script may name a file after
   * one) and the content of text artifacts (/dev/stdout is one), re-compressed with a new checksum.
   */
  private async redactArtifacts(runId: string, actionId: string): Promise<void> {
    const redactor = this.redactorOf(runId);
    if (redactor.size === 0) return;
    const { rows } = await this.pool.query<{ id: string; path: string; filename: string; content_encoding: string; content: Buffer }>(
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
        await this.pool.query("UPDATE artifacts SET path = $2, filename = $3, content = $4, content_encoding = 'gzip', stored_size = $5, checksum = $6 WHERE id = $1", [
          artifact.id, path, filename, gzipSync(content), content.length, createHash('sha256').update(content).digest('hex'),
        ]);
      } else {
        await this.pool.query('UPDATE artifacts SET path = $2, filename = $3 WHERE id = $1', [artifact.id, path, filename]);
      }
    }
  }
}

/** NOTIFY channel that wakes agents' claims: an action now waits for the agent whose id is the payload. */
export const AGENT_ACTIONS_CHANNEL = 'watchkeeper_agent_actions';

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

/**
 * The action with every Go template rendered; an http body only with templateBody (as Mission Control). A
 * value that lands in exec.script, sql.query or http.url is data there (contextual/action.ts).
 */
export function renderAction(action: ActionSpec, data: Record<string, unknown>): ActionSpec {
  return renderActionInContext(action, data);
}

function formatMillis(millis: number): string {
  if (millis % 3_600_000 === 0) return `${millis / 3_600_000}h`;
  if (millis % 60_000 === 0) return `${millis / 60_000}m`;
  if (millis % 1000 === 0) return `${millis / 1000}s`;
  return `${Math.round(millis)}ms`;
}
