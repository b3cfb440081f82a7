import type pg from 'pg';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';
import { Consumer } from './consumer';
import { errorMessage } from './db';
import { recoverStaleRuns, stopRunningOf } from './history';
import { heartbeatInstance, newInstanceId, removeInstance } from './instance';
import { EVENT_QUEUE_CHANNEL, Listener, SCHEDULED_JOBS_CHANNEL, SCHEDULED_ROWS_CHANNEL } from './listener';
import type { BackgroundWork, Registration } from './registry';
import { RowWorker } from './row-worker';
import { DEFAULT_TIMINGS, type RuntimeTimings, type Worker, type WorkerContext } from './runtime-types';
import { syncSystemJob, systemJobWorker } from './system-jobs';

export interface RuntimeDeps {
  pool: pg.Pool;
  log: Logger;
  metrics: Metrics;
}

export interface RuntimeOptions extends Partial<RuntimeTimings> {
  instanceId?: string;
}

export interface BackgroundRuntime {
  readonly instanceId: string;
  /** Finishes or stops in-flight work, marks what is left STOPPED, releases leases. */
  stop(): Promise<void>;
}

/**
 * Starts the background work of one process: its instance row and heartbeat, stale-run recovery, the
 * system job scheduler, the scheduled-rows workers and the event consumers, woken by LISTEN/NOTIFY.
 */
export async function startBackgroundWork(deps: RuntimeDeps, registry: BackgroundWork, options: RuntimeOptions = {}): Promise<BackgroundRuntime> {
  const { instanceId = newInstanceId(), ...overrides } = options;
  const timings: RuntimeTimings = { ...DEFAULT_TIMINGS, ...overrides };
  const log = deps.log.child({ component: 'jobs', instance: instanceId });
  const ctx: WorkerContext = { pool: deps.pool, log, metrics: deps.metrics, instanceId, timings };

  // The instance row must exist before any run names it, and recovery runs once before new work starts.
  await heartbeatInstance(deps.pool, instanceId, timings.leaseMillis);
  const recovered = await recoverStaleRuns(deps.pool);
  if (recovered > 0) log.warn({ recovered }, 'marked runs of stopped instances as FAILED');
  for (const job of registry.systemJobs()) await syncSystemJob(deps.pool, job);

  const scheduler = systemJobWorker(ctx, registry);
  const workers: Worker[] = [scheduler];
  const consumers: Consumer[] = [];
  const listener = new Listener(deps.pool, log);
  listener.on(SCHEDULED_JOBS_CHANNEL, () => scheduler.wake());
  const rowWorkers: RowWorker[] = [];
  // A payload names a table; without one (after a reconnect) every rows worker looks again.
  listener.on(SCHEDULED_ROWS_CHANNEL, (table) => {
    for (const worker of rowWorkers) if (table === undefined || worker.table === table) worker.wake();
  });
  listener.on(EVENT_QUEUE_CHANNEL, (name) => {
    for (const consumer of consumers) if (consumer.handles(name)) consumer.wake();
  });

  // One worker per name; a re-registration only swaps the function the worker calls.
  const started = new Set<string>();
  const add = (registration: Registration): void => {
    switch (registration.kind) {
      case 'job':
        void syncSystemJob(deps.pool, registration.job)
          .then(() => scheduler.wake())
          .catch((error: unknown) => log.error({ err: errorMessage(error), job: registration.job.name }, 'could not register a system job'));
        return;
      case 'rows': {
        const { rows } = registration;
        if (started.has(`rows:${rows.name}`)) return;
        started.add(`rows:${rows.name}`);
        const worker = new RowWorker(ctx, {
          jobName: rows.name,
          table: rows.table,
          concurrency: Math.max(1, rows.concurrency ?? 5),
          run: (row, run) => (registry.scheduledRows(rows.name) ?? rows).run(row, run),
          ...(rows.resourceType ? { resourceType: rows.resourceType } : {}),
          ...(rows.history ? { history: rows.history } : {}),
          ...(rows.share ? { share: rows.share } : {}),
        });
        workers.push(worker);
        rowWorkers.push(worker);
        worker.start();
        return;
      }
      case 'consumer': {
        const { consumer: definition } = registration;
        if (started.has(`consumer:${definition.name}`)) return;
        started.add(`consumer:${definition.name}`);
        const consumer = new Consumer(ctx, {
          ...definition,
          names: definition.events,
          handler: (event, eventCtx) => (registry.eventConsumer(definition.name) ?? definition).handler(event, eventCtx),
        });
        consumers.push(consumer);
        workers.push(consumer);
        consumer.start();
        return;
      }
    }
  };

  await listener.start();
  scheduler.start();
  for (const registration of registry.registrations()) if (registration.kind !== 'job') add(registration);
  const unsubscribe = registry.subscribe(add);

  let lastRecovery = Date.now();
  let beating: Promise<void> | undefined;
  const beat = async (): Promise<void> => {
    try {
      await heartbeatInstance(deps.pool, instanceId, timings.leaseMillis);
    } catch (error) {
      log.warn({ err: errorMessage(error) }, 'background heartbeat failed; retrying');
      return;
    }
    for (const worker of workers) {
      await worker.renew().catch((error: unknown) => log.warn({ err: errorMessage(error), worker: worker.label }, 'could not renew leases'));
    }
    if (Date.now() - lastRecovery >= timings.recoveryMillis) {
      lastRecovery = Date.now();
      await recoverStaleRuns(deps.pool)
        .then((count) => {
          if (count > 0) log.warn({ recovered: count }, 'marked runs of stopped instances as FAILED');
        })
        .catch((error: unknown) => log.warn({ err: errorMessage(error) }, 'stale-run recovery failed; retrying'));
    }
  };
  // A slow database must not pile up beats: skip a tick while the previous beat is still going.
  const heartbeat = setInterval(() => {
    beating ??= beat().finally(() => {
      beating = undefined;
    });
  }, timings.heartbeatMillis);
  heartbeat.unref();

  log.debug({ jobs: registry.systemJobs().map((job) => job.name), workers: workers.map((worker) => worker.label) }, 'background work started');

  let stopped: Promise<void> | undefined;
  return {
    instanceId,
    stop() {
      stopped ??= (async () => {
        unsubscribe();
        await listener.stop();
        // Keep renewing leases while in-flight work finishes during the grace period.
        await Promise.all(workers.map((worker) => worker.stop()));
        clearInterval(heartbeat);
        await beating;
        await Promise.all(workers.map((worker) => worker.release().catch(() => undefined)));
        const stoppedRuns = await stopRunningOf(deps.pool, instanceId).catch(() => 0);
        if (stoppedRuns > 0) log.warn({ stopped: stoppedRuns }, 'runs still going at shutdown were marked STOPPED');
        await removeInstance(deps.pool, instanceId).catch(() => undefined);
      })();
      return stopped;
    },
  };
}
