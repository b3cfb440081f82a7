import type pg from 'pg';
import { inOrganizationOf } from '../db/tenant';
import type { Logger } from '../logger';
import { errorMessage } from './db';
import {
  backoffMillis,
  claimEvents,
  completeEvent,
  DEFAULT_BACKOFF,
  failEvent,
  millisUntilNextEvent,
  renewEvents,
  subscribeConsumer,
  unlockEvents,
  type Backoff,
  type QueuedEvent,
} from './event-queue';
import { runJob, type JobRun, type RunOptions, type RunOutcome } from './job-run';
import { settleWithin } from './row-worker';
import type { Worker, WorkerContext } from './runtime-types';
import { boundedWait, Waker } from './waker';

const MIN_IDLE_MILLIS = 50;

/** What a handler gets beside the event. */
export interface EventContext {
  pool: pg.Pool;
  log: Logger;
  /** Aborted on shutdown or when the lock on the event was lost. */
  signal: AbortSignal;
  /** Runs work the event triggers (a playbook run, a notification send) with its own job_history row. */
  runJob(options: RunOptions, work: (run: JobRun) => Promise<void>): Promise<RunOutcome>;
}

export type EventHandler = (event: QueuedEvent, ctx: EventContext) => Promise<void>;

export interface ConsumerOptions {
  /** Events claimed per round trip; handled one after another, in priority then age order. */
  batchSize?: number;
  /** Overrides the attempts an event was published with. */
  maxAttempts?: number;
  backoff?: Partial<Backoff>;
}

export interface ConsumerSpec extends ConsumerOptions {
  /** The subscription: every event of these names published from now on gets a delivery for this consumer. */
  name: string;
  names: readonly string[];
  handler: EventHandler;
}

export class Consumer implements Worker {
  readonly label: string;
  private readonly waker = new Waker();
  private readonly backoff: Backoff;
  private readonly batchSize: number;
  /** The batch being handled; `pending` shrinks as events are completed or failed. */
  private current: { pending: Set<string>; controller: AbortController; done: Promise<void> } | undefined;
  private stopping = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly ctx: WorkerContext,
    private readonly spec: ConsumerSpec,
  ) {
    this.label = `events:${spec.name}`;
    this.backoff = { ...DEFAULT_BACKOFF, ...spec.backoff };
    this.batchSize = Math.max(1, spec.batchSize ?? 10);
  }

  handles(name: string | undefined): boolean {
    return name === undefined || this.spec.names.includes(name);
  }

  start(): void {
    this.loop = this.run();
  }

  wake(): void {
    this.waker.wake();
  }

  private async run(): Promise<void> {
    const { timings, log } = this.ctx;
    let subscribed = false;
    while (!this.stopping) {
      let waitMillis = timings.pollMillis;
      try {
        if (!subscribed) {
          await subscribeConsumer(this.ctx.pool, this.spec.name, this.spec.names);
          subscribed = true;
        }
        const { events, exhausted } = await claimEvents(this.ctx.pool, this.spec.names, this.ctx.instanceId, this.batchSize, timings.leaseMillis, this.spec.name);
        for (const row of exhausted) this.ctx.metrics.eventsProcessed.inc({ name: row.name, result: 'failed' });
        await unlockEvents(this.ctx.pool, exhausted.map((row) => row.id), this.ctx.instanceId);
        if (events.length > 0) {
          const controller = new AbortController();
          const pending = new Set(events.map((event) => event.id));
          const done = this.handleBatch(events, pending, controller.signal);
          this.current = { pending, controller, done };
          await done;
          this.current = undefined;
        }
        if (events.length + exhausted.length === this.batchSize) continue;
        waitMillis = boundedWait(await millisUntilNextEvent(this.ctx.pool, this.spec.names, this.spec.name), MIN_IDLE_MILLIS, timings.pollMillis);
      } catch (error) {
        this.current = undefined;
        log.warn({ err: errorMessage(error), worker: this.label }, 'could not claim events; retrying');
      }
      if (this.stopping) break;
      await this.waker.wait(waitMillis);
    }
  }

  private async handleBatch(events: QueuedEvent[], pending: Set<string>, signal: AbortSignal): Promise<void> {
    const { pool, log, metrics, instanceId } = this.ctx;
    for (const event of events) {
      // After shutdown began, unhandled events of the batch go back unlocked (see release()).
      if (signal.aborted) return;
      try {
        // An organization's event is handled in its scope: only its rules, notifications and playbooks see it.
        await inOrganizationOf(event.organizationId, () =>
          this.spec.handler(event, {
            pool,
            log: log.child({ event: event.name, eventId: event.id }),
            signal,
            runJob: (options, work) => runJob(this.ctx, { signal, ...options }, work),
          }),
        );
        await completeEvent(pool, event.id, instanceId);
        metrics.eventsProcessed.inc({ name: event.name, result: 'ok' });
      } catch (error) {
        const message = errorMessage(error);
        const exhausted = await failEvent(pool, event.id, instanceId, message, backoffMillis(this.backoff, event.attempt), this.spec.maxAttempts);
        metrics.eventsProcessed.inc({ name: event.name, result: exhausted ? 'failed' : 'retry' });
        if (exhausted) log.warn({ event: event.name, eventId: event.id, err: message, attempts: event.attempt }, 'event failed and ran out of attempts; kept in event_queue');
      }
      pending.delete(event.id);
    }
  }

  async renew(): Promise<void> {
    const current = this.current;
    if (!current || current.pending.size === 0) return;
    const ids = [...current.pending];
    const held = await renewEvents(this.ctx.pool, ids, this.ctx.instanceId, this.ctx.timings.leaseMillis);
    if (ids.some((id) => current.pending.has(id) && !held.has(id)) && !current.controller.signal.aborted) {
      this.ctx.log.warn({ worker: this.label }, 'lost the lock of events being handled; stopping the batch');
      current.controller.abort(new Error('lost the lock'));
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.waker.wake();
    const current = this.current;
    if (current) {
      await settleWithin([current.done], this.ctx.timings.stopGraceMillis);
      current.controller.abort(new Error('the instance is shutting down'));
      await settleWithin([current.done], Math.min(1000, this.ctx.timings.stopGraceMillis));
    }
    await settleWithin([this.loop ?? Promise.resolve()], Math.min(1000, this.ctx.timings.stopGraceMillis));
  }

  async release(): Promise<void> {
    const current = this.current;
    if (current) await unlockEvents(this.ctx.pool, [...current.pending], this.ctx.instanceId).catch(() => undefined);
  }
}
