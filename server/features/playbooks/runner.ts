import type pg from 'pg';
import { inOrganizationOf } from '../../platform/db/tenant';
import { errorMessage, interval } from '../../platform/jobs/db';
import { Listener } from '../../platform/jobs/listener';
import { boundedWait, Waker } from '../../platform/jobs/waker';
import type { Logger } from '../../platform/logger';
import { SecretValues } from '../../platform/secrets/redact';
import { CANCEL_CHANNEL, RUNS_CHANNEL } from './runs';
import { checkPlaybookSpec } from './spec';
import { secretParameterValues, type RunnerContext, type RunnerOptions, type RunRow } from './run-context';
import { advance, finish, INSTANCE_STOPPED } from './run-state';
import { runDeadline, runTimedOutMessage, StopReason, timerAt } from './timing';

// The runner in three parts: this worker (claims, leases, stops), the run's state machine (run-state.ts),
// the action executor (action-executor.ts); timing (delay, retry, timeout) is timing.ts.
export type { RunnerOptions } from './run-context';
export { INSTANCE_STOPPED } from './run-state';
export { AGENT_ACTIONS_CHANNEL, remoteAgentOf } from './action-executor';
export { StopReason } from './timing';

/**
 * Runs worked on at once per instance. Most of a run's time is spent waiting (a script, a peer, a delay), so
 * many run side by side: 100 runs queued at once all start within a second on two cores (bench/playbooks.ts).
 */
export const DEFAULT_CONCURRENCY = 100;

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
export class PlaybookRunner implements RunnerContext {
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
    readonly pool: pg.Pool,
    readonly log: Logger,
    readonly options: RunnerOptions,
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

  /** The secret values of this run known so far (an empty set for a run not in flight here). */
  redactorOf(runId: string): SecretValues {
    let redactor = this.redactors.get(runId);
    if (!redactor) {
      redactor = new SecretValues();
      if (this.inFlight.has(runId)) this.redactors.set(runId, redactor);
    }
    return redactor;
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

  /**
   * Works on one claimed run until it ends, sleeps, or is stopped; the lease is renewed meanwhile. The run's
   * spec is parsed and checked here, once per claim, and carried with the run through its steps.
   */
  private async work(id: string, controller: AbortController): Promise<void> {
    const { rows } = await this.pool.query<RunRow>(
      `SELECT r.id, r.playbook_id, r.status, r.spec, r.parameters, r.secret_parameters, r.config_id, r.component_id, r.check_id,
              r.created_by, r.request, r.timeout_millis, r.start_time, r.created_at, p.namespace, p.name AS playbook_name, p.updated_by AS author
         FROM playbook_runs r JOIN playbooks p ON p.id = r.playbook_id WHERE r.id = $1 AND r.claimed_by = $2`,
      [id, this.options.instanceId],
    );
    const run = rows[0];
    if (!run) return;
    this.redactors.set(run.id, new SecretValues(secretParameterValues(this.options.secrets, run)));
    const deadline = runDeadline(run);
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
    const timer = timerAt(deadline, () => controller.abort(new StopReason('timed_out', runTimedOutMessage(run))));
    try {
      const checked = checkPlaybookSpec(run.spec).checked;
      if (!checked) return await finish(this, run, 'failed', 'the playbook spec of this run has problems');
      await advance(this, { row: run, spec: checked.spec, deadline }, controller.signal);
    } finally {
      clearInterval(renew);
      timer.clear();
    }
  }
}
