import { errorMessage } from './db';
import type { JobResource } from './history';
import { runJob, type JobRun } from './job-run';
import { inOrganizationOf } from '../db/tenant';
import { claimDueRows, millisUntilClaimable, releaseRow, renewRows, type ClaimedRow, type Sharing } from './row-claims';
import type { ScheduledTable } from './scheduled-table';
import type { Worker, WorkerContext } from './runtime-types';
import { boundedWait, Waker } from './waker';

/** Shortest sleep after a poll that claimed nothing, so a clock edge can never spin the loop. */
const MIN_IDLE_MILLIS = 50;

/** Runs the due rows of one scheduled table. See `BackgroundWork.rows` for the public shape. */
export interface RowWorkerSpec {
  /** job_history name of every run, or a function of the row (system jobs use the row's name). */
  jobName: string | ((row: ClaimedRow) => string);
  table: ScheduledTable;
  /** job_history.resource_type of the runs; without it runs are not linked to a resource. */
  resourceType?: string;
  /** Rows run at the same time by this instance. */
  concurrency: number;
  /** Only rows with these ids are claimed (read on every poll). */
  onlyIds?: () => readonly string[];
  history?: 'every-run' | 'problems';
  /** Spread the rows over the live instances rather than let the first to ask claim them (row-claims.ts `Sharing`). */
  share?: Sharing;
  run(row: ClaimedRow, run: JobRun): Promise<void>;
}

interface InFlight {
  controller: AbortController;
  done: Promise<void>;
}

export class RowWorker implements Worker {
  readonly label: string;
  /** The table's own name, without a schema: what a scheduled-rows notification names. */
  readonly table: string;
  private readonly waker = new Waker();
  private readonly inFlight = new Map<string, InFlight>();
  private stopping = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly ctx: WorkerContext,
    private readonly spec: RowWorkerSpec,
  ) {
    this.label = `rows:${spec.table.columns.table}`;
    this.table = spec.table.columns.table.split('.').pop() ?? spec.table.columns.table;
  }

  start(): void {
    this.loop = this.run();
  }

  wake(): void {
    this.waker.wake();
  }

  private async run(): Promise<void> {
    const { timings, log } = this.ctx;
    while (!this.stopping) {
      let waitMillis = timings.pollMillis;
      try {
        const free = this.spec.concurrency - this.inFlight.size;
        const onlyIds = this.spec.onlyIds?.();
        if (free > 0 && (onlyIds === undefined || onlyIds.length > 0)) {
          const claimed = await claimDueRows(this.ctx.pool, this.spec.table, {
            owner: this.ctx.instanceId,
            limit: free,
            leaseMillis: timings.leaseMillis,
            ...(onlyIds ? { onlyIds } : {}),
            ...(this.spec.share ? { share: this.spec.share } : {}),
          });
          for (const row of claimed) this.launch(row);
          if (claimed.length === free) continue; // more may be due; a full worker sleeps until a run ends
          const share = this.spec.share ? { ...this.spec.share, owner: this.ctx.instanceId } : undefined;
          const until = await millisUntilClaimable(this.ctx.pool, this.spec.table, onlyIds, share);
          waitMillis = boundedWait(until, MIN_IDLE_MILLIS, timings.pollMillis);
        }
      } catch (error) {
        log.warn({ err: errorMessage(error), worker: this.label }, 'could not claim scheduled work; retrying');
      }
      if (this.stopping) break;
      await this.waker.wait(waitMillis);
    }
  }

  private launch(row: ClaimedRow): void {
    const controller = new AbortController();
    const name = typeof this.spec.jobName === 'string' ? this.spec.jobName : this.spec.jobName(row);
    const resource: JobResource | undefined = this.spec.resourceType
      ? { type: this.spec.resourceType, id: row.id, ...(row.name !== undefined ? { name: row.name } : {}) }
      : undefined;
    const done = (async () => {
      try {
        // An organization's row runs in its scope: what the run reads and writes is that organization's alone.
        await inOrganizationOf(row.organizationId, () =>
          runJob(
            this.ctx,
            { name, scheduledFor: row.scheduledFor, signal: controller.signal, ...(resource ? { resource } : {}), ...(this.spec.history ? { history: this.spec.history } : {}) },
            async (run) => {
              if (row.invalidSchedule) throw row.invalidSchedule;
              await this.spec.run(row, run);
            },
          ),
        );
      } catch (error) {
        this.ctx.log.error({ err: errorMessage(error), job: name }, 'could not start a background run');
      }
      try {
        await releaseRow(this.ctx.pool, this.spec.table, row.id, this.ctx.instanceId, row.scheduledFor);
      } catch (error) {
        // The lease expires on its own; the slot already moved on, so nothing runs twice.
        this.ctx.log.warn({ err: errorMessage(error), job: name }, 'could not release a lease');
      }
    })().finally(() => {
      this.inFlight.delete(row.id);
      this.waker.wake();
    });
    this.inFlight.set(row.id, { controller, done });
  }

  async renew(): Promise<void> {
    const ids = [...this.inFlight.keys()];
    if (ids.length === 0) return;
    const held = await renewRows(this.ctx.pool, this.spec.table, ids, this.ctx.instanceId, this.ctx.timings.leaseMillis);
    for (const id of ids) {
      const entry = this.inFlight.get(id);
      if (entry && !held.has(id) && !entry.controller.signal.aborted) {
        this.ctx.log.warn({ worker: this.label, id }, 'lost the lease of a running job; asking it to stop');
        entry.controller.abort(new Error('lost the lease'));
      }
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.waker.wake();
    await this.loop;
    await settleWithin(
      [...this.inFlight.values()].map((entry) => entry.done),
      this.ctx.timings.stopGraceMillis,
    );
    for (const entry of this.inFlight.values()) entry.controller.abort(new Error('the instance is shutting down'));
    // A cooperative run notices the signal quickly and ends as STOPPED; give it a moment to say so.
    await settleWithin(
      [...this.inFlight.values()].map((entry) => entry.done),
      Math.min(1000, this.ctx.timings.stopGraceMillis),
    );
  }

  async release(): Promise<void> {
    for (const id of this.inFlight.keys()) {
      await releaseRow(this.ctx.pool, this.spec.table, id, this.ctx.instanceId, undefined).catch(() => undefined);
    }
  }
}

/** Waits for all promises, or until the deadline, whichever comes first. */
export async function settleWithin(promises: Array<Promise<unknown>>, millis: number): Promise<void> {
  if (promises.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(promises),
    new Promise((resolve) => {
      timer = setTimeout(resolve, millis);
    }),
  ]);
  if (timer) clearTimeout(timer);
}
