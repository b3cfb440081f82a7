import type pg from 'pg';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';
import { errorMessage } from './db';
import { finishJobHistory, recordFinishedJob, startJobHistory, type FinalStatus, type JobResource } from './history';

/** Most error messages kept in one job_history row: enough to diagnose, bounded so a row stays small. */
export const MAX_RECORDED_ERRORS = 50;

/** Thrown (or passed to `skip`) to end a run as SKIPPED, for example when a feature is disabled. */
export class JobSkipped extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'JobSkipped';
  }
}

/** The handle a job's run function gets: count work, record errors and a summary, watch for stop. */
export interface JobRun {
  readonly name: string;
  readonly pool: pg.Pool;
  readonly log: Logger;
  /** Aborted when the instance shuts down or loses the lease; stop at the next safe point. */
  readonly signal: AbortSignal;
  /** The slot this run was claimed for (scheduled runs), for idempotent work keyed by slot. */
  readonly scheduledFor: Date | undefined;
  success(count?: number): void;
  /** Records a failed item; the run ends WARNING if something also succeeded, FAILED otherwise. */
  error(error: unknown): void;
  warn(message: string): void;
  /** Merged into details.summary. */
  summary(values: Record<string, unknown>): void;
  skip(reason: string): never;
}

export interface JobRunnerDeps {
  pool: pg.Pool;
  log: Logger;
  metrics: Metrics;
  instanceId: string;
}

export interface RunOptions {
  name: string;
  resource?: JobResource;
  agentId?: string;
  scheduledFor?: Date;
  signal?: AbortSignal;
  /**
   * 'problems': no RUNNING row, and a row only for runs that end other than SUCCESS (high-frequency work,
   * such as canaries every 30 s, whose results live elsewhere). Default: every run.
   */
  history?: 'every-run' | 'problems';
}

export interface RunOutcome {
  status: FinalStatus;
  historyId: string;
  recorded: boolean;
}

const NOT_RECORDED = '';

class RunState implements JobRun {
  successes = 0;
  errors: string[] = [];
  errorCount = 0;
  warnings: string[] = [];
  summaryValues: Record<string, unknown> = {};

  constructor(
    readonly name: string,
    readonly pool: pg.Pool,
    readonly log: Logger,
    readonly signal: AbortSignal,
    readonly scheduledFor: Date | undefined,
  ) {}

  success(count = 1): void {
    this.successes += count;
  }

  error(error: unknown): void {
    this.errorCount += 1;
    if (this.errors.length < MAX_RECORDED_ERRORS) this.errors.push(errorMessage(error));
  }

  warn(message: string): void {
    if (this.warnings.length < MAX_RECORDED_ERRORS) this.warnings.push(message);
  }

  summary(values: Record<string, unknown>): void {
    Object.assign(this.summaryValues, values);
  }

  skip(reason: string): never {
    throw new JobSkipped(reason);
  }

  status(thrown: unknown): FinalStatus {
    if (thrown instanceof JobSkipped) return 'SKIPPED';
    if (thrown !== undefined && this.signal.aborted) return 'STOPPED';
    if (thrown !== undefined) return 'FAILED';
    if (this.errorCount > 0) return this.successes > 0 ? 'WARNING' : 'FAILED';
    if (this.warnings.length > 0) return 'WARNING';
    return 'SUCCESS';
  }
}

/**
 * Runs one piece of background work with its job_history row (RUNNING, then the final status), its log
 * line on failure and its metrics. The work's errors never escape: they are in the history row and the
 * result. It throws only when the RUNNING row itself cannot be written (the database is unreachable).
 */
export async function runJob(deps: JobRunnerDeps, options: RunOptions, work: (run: JobRun) => Promise<void>): Promise<RunOutcome> {
  const started = performance.now();
  const startedAt = new Date();
  const details: Record<string, unknown> = options.scheduledFor ? { scheduled_for: options.scheduledFor.toISOString() } : {};
  const start = {
    name: options.name,
    instanceId: deps.instanceId,
    details,
    ...(options.resource ? { resource: options.resource } : {}),
    ...(options.agentId ? { agentId: options.agentId } : {}),
  };
  const everyRun = options.history !== 'problems';
  let historyId = everyRun ? await startJobHistory(deps.pool, start) : NOT_RECORDED;
  const log = everyRun ? deps.log.child({ job: options.name, jobHistoryId: historyId }) : deps.log.child({ job: options.name });
  const state = new RunState(options.name, deps.pool, log, options.signal ?? new AbortController().signal, options.scheduledFor);
  let thrown: unknown;
  try {
    await work(state);
  } catch (error) {
    thrown = error ?? new Error('the job failed without an error');
  }
  const status = state.status(thrown);
  if (thrown !== undefined && !(thrown instanceof JobSkipped)) state.error(thrown);
  if (status === 'FAILED') log.warn({ errors: state.errors.slice(0, 5) }, 'background job failed');

  const finalDetails: Record<string, unknown> = { errors: state.errors };
  if (state.warnings.length > 0) finalDetails.warnings = state.warnings;
  if (Object.keys(state.summaryValues).length > 0) finalDetails.summary = state.summaryValues;
  if (thrown instanceof JobSkipped) finalDetails.skipped = thrown.message;
  let recorded = false;
  const finish = { status, successCount: state.successes, errorCount: state.errorCount, details: finalDetails };
  try {
    if (everyRun) {
      recorded = await finishJobHistory(deps.pool, historyId, finish);
      if (!recorded) log.warn({ status }, 'the run finished after its history row was closed by recovery; its result is only in this log');
    } else if (status !== 'SUCCESS') {
      historyId = await recordFinishedJob(deps.pool, start, finish, startedAt);
      recorded = true;
    }
  } catch (error) {
    log.error({ err: errorMessage(error), status }, 'could not record the end of a background run');
  }
  deps.metrics.jobRuns.inc({ name: options.name, status });
  deps.metrics.jobDuration.observe({ name: options.name }, (performance.now() - started) / 1000);
  return { status, historyId, recorded };
}
