import type { EventHandler, ConsumerOptions } from './consumer';
import type { JobRun } from './job-run';
import type { ClaimedRow, Sharing } from './row-claims';
import { parseSchedule } from './schedule';
import type { ScheduledTable } from './scheduled-table';

/** A system job: code that runs on a schedule, once per slot across all instances. */
export interface SystemJob {
  /** Unique; the job_history name and the scheduled_jobs key. */
  name: string;
  /** Default schedule (cron, `@every 5m`, `@hourly`, …); an operator may override it in scheduled_jobs. */
  schedule: string;
  description: string;
  run(run: JobRun): Promise<void>;
}

/** Runs the rows of a feature table that carry their own schedule (see `defineScheduledTable`). */
export interface ScheduledRows {
  /** job_history name of every run, e.g. "Canary". */
  name: string;
  table: ScheduledTable;
  /** job_history.resource_type (spec §2 links: canary, config_scraper, topology, playbook, …). */
  resourceType?: string;
  /** Rows run at the same time by one instance; default 5. */
  concurrency?: number;
  /** 'problems': job_history gets only runs that end other than SUCCESS (see RunOptions.history). */
  history?: 'every-run' | 'problems';
  /**
   * Spread the rows evenly over the live instances (each instance claims its own share as it falls due,
   * any instance a row this late; see row-claims.ts `Sharing`). Without it the first instance to ask
   * claims what is due.
   */
  share?: Sharing;
  run(row: ClaimedRow, run: JobRun): Promise<void>;
}

/** Handles events of the given names from the event queue. */
export interface EventConsumer extends ConsumerOptions {
  /** Label for logs. */
  name: string;
  events: readonly string[];
  handler: EventHandler;
}

export type Registration =
  | { kind: 'job'; job: SystemJob }
  | { kind: 'rows'; rows: ScheduledRows }
  | { kind: 'consumer'; consumer: EventConsumer };

/**
 * What features register for `serve` to run: system jobs, scheduled feature tables and event consumers.
 * Register from a feature's `register()` (or module load); the platform-jobs feature starts everything
 * in `serve`, and anything registered later is picked up by the running runtime. Registering a name
 * again replaces the definition, so building the app twice in one process (tests) is harmless.
 */
export class BackgroundWork {
  private readonly jobs = new Map<string, SystemJob>();
  private readonly rowWorkers = new Map<string, ScheduledRows>();
  private readonly consumers = new Map<string, EventConsumer>();
  private readonly listeners = new Set<(registration: Registration) => void>();

  /** Registers (or replaces, by name) a system job. Throws if its schedule does not parse. */
  job(job: SystemJob): this {
    parseSchedule(job.schedule);
    this.jobs.set(job.name, job);
    this.emit({ kind: 'job', job });
    return this;
  }

  /**
   * Registers (or replaces, by name) a scheduled-rows worker. A replacement takes over the run function;
   * the table and concurrency of a worker already running stay as first registered.
   */
  rows(rows: ScheduledRows): this {
    this.rowWorkers.set(rows.name, rows);
    this.emit({ kind: 'rows', rows });
    return this;
  }

  /** Registers (or replaces the handler of, by name) an event consumer. */
  consumer(consumer: EventConsumer): this {
    if (consumer.events.length === 0) throw new Error(`event consumer ${JSON.stringify(consumer.name)} names no events`);
    this.consumers.set(consumer.name, consumer);
    this.emit({ kind: 'consumer', consumer });
    return this;
  }

  systemJob(name: string): SystemJob | undefined {
    return this.jobs.get(name);
  }

  scheduledRows(name: string): ScheduledRows | undefined {
    return this.rowWorkers.get(name);
  }

  eventConsumer(name: string): EventConsumer | undefined {
    return this.consumers.get(name);
  }

  systemJobs(): SystemJob[] {
    return [...this.jobs.values()];
  }

  registrations(): Registration[] {
    return [
      ...[...this.jobs.values()].map((job): Registration => ({ kind: 'job', job })),
      ...[...this.rowWorkers.values()].map((rows): Registration => ({ kind: 'rows', rows })),
      ...[...this.consumers.values()].map((consumer): Registration => ({ kind: 'consumer', consumer })),
    ];
  }

  /** Called for every later registration; returns the unsubscribe function. */
  subscribe(listener: (registration: Registration) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(registration: Registration): void {
    for (const listener of this.listeners) listener(registration);
  }
}

/** The registry `serve` runs. Features import it from `server/platform/jobs`. */
export const backgroundWork = new BackgroundWork();
