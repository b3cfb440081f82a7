import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics of one process. Each app instance owns a registry, so tests can build several
 * apps in one process without clashing names.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly jobRuns: Counter<'name' | 'status'>;
  readonly jobDuration: Histogram<'name'>;
  readonly eventsProcessed: Counter<'name' | 'result'>;

  constructor(pool: pg.Pool) {
    collectDefaultMetrics({ register: this.registry, prefix: 'watchkeeper_process_' });
    this.httpDuration = new Histogram({
      name: 'watchkeeper_http_request_duration_seconds',
      help: 'HTTP request durations by route',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.jobRuns = new Counter({
      name: 'watchkeeper_job_runs_total',
      help: 'Background job runs by job name and final status',
      labelNames: ['name', 'status'],
      registers: [this.registry],
    });
    this.jobDuration = new Histogram({
      name: 'watchkeeper_job_duration_seconds',
      help: 'Background job run durations',
      labelNames: ['name'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
      registers: [this.registry],
    });
    this.eventsProcessed = new Counter({
      name: 'watchkeeper_events_processed_total',
      help: 'Event-queue events handled, by event name and result (ok, retry, failed)',
      labelNames: ['name', 'result'],
      registers: [this.registry],
    });
    new Gauge({
      name: 'watchkeeper_db_pool_connections',
      help: 'Database pool connections by state',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
    new Gauge({
      name: 'watchkeeper_event_queue_depth',
      help: 'Events waiting in the event queue by name and state (pending, retrying, failed)',
      labelNames: ['name', 'state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        try {
          const { rows } = await pool.query<{ name: string; pending: number; retrying: number; failed: number }>(
            'SELECT name, pending, retrying, failed FROM event_queue_summary',
          );
          for (const row of rows) {
            this.set({ name: row.name, state: 'pending' }, Number(row.pending));
            this.set({ name: row.name, state: 'retrying' }, Number(row.retrying));
            this.set({ name: row.name, state: 'failed' }, Number(row.failed));
          }
        } catch {
          // database unreachable: the depth is unknown; /health reports the outage
        }
      },
    });
  }
}
