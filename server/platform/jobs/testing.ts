// Helpers for this folder's integration tests: runtimes with short timings on their own pools.
import type pg from 'pg';
import { createPool } from '../db/pool';
import { createLogger } from '../logger';
import { Metrics } from '../metrics';
import { BackgroundWork, type SystemJob } from './registry';
import { startBackgroundWork, type BackgroundRuntime, type RuntimeOptions } from './runtime';
import type { RuntimeTimings } from './runtime-types';
import { syncSystemJob } from './system-jobs';

export const FAST: RuntimeTimings = {
  heartbeatMillis: 200,
  leaseMillis: 1_500,
  pollMillis: 500,
  recoveryMillis: 300,
  stopGraceMillis: 1_500,
};

export interface TestRuntime {
  runtime: BackgroundRuntime;
  pool: pg.Pool;
  metrics: Metrics;
  stop(): Promise<void>;
}

/** A runtime as a separate instance would have it: its own pool, metrics and instance id. */
export async function startTestRuntime(url: string, registry: BackgroundWork, options: RuntimeOptions = {}): Promise<TestRuntime> {
  const log = createLogger(process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'silent');
  const pool = createPool(url, log, { max: 6 });
  const metrics = new Metrics(pool);
  const runtime = await startBackgroundWork({ pool, log, metrics }, registry, { ...FAST, ...options });
  let stopped: Promise<void> | undefined;
  return {
    runtime,
    pool,
    metrics,
    stop() {
      stopped ??= runtime.stop().finally(() => pool.end());
      return stopped;
    },
  };
}

export const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis));

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMillis`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMillis = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMillis;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** The value of a counter metric for the given labels (0 when never incremented). */
export async function counterValue(metrics: Metrics, metric: 'jobRuns' | 'eventsProcessed', labels: Record<string, string>): Promise<number> {
  const { values } = await metrics[metric].get();
  let total = 0;
  for (const sample of values) {
    const sampleLabels: Record<string, string | number | undefined> = sample.labels;
    if (Object.entries(labels).every(([key, value]) => sampleLabels[key] === value)) total += sample.value;
  }
  return total;
}

/** A system job's row in job_history once it has finished. */
export interface FinishedRun<Summary = Record<string, unknown>> {
  status: string;
  success_count: number;
  details: { summary: Summary; warnings?: string[] };
}

/** Makes a system job due at once, runs the scheduler until it has finished, and answers its history row. */
export async function runSystemJobOnce<Summary = Record<string, unknown>>(pool: pg.Pool, url: string, job: SystemJob): Promise<FinishedRun<Summary>> {
  await syncSystemJob(pool, job);
  await pool.query('UPDATE scheduled_jobs SET next_run_at = now() WHERE name = $1', [job.name]);
  const runtime = await startTestRuntime(url, new BackgroundWork().job(job));
  try {
    return await eventually(async () => {
      const { rows } = await pool.query<FinishedRun<Summary>>("SELECT status, success_count, details FROM job_history WHERE name = $1 AND status <> 'RUNNING'", [job.name]);
      return rows[0];
    }, 15_000, `${job.name} to finish`);
  } finally {
    await runtime.stop();
  }
}
