import type pg from 'pg';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';

/** Timings of the background runtime. Defaults suit production; tests shorten them. */
export interface RuntimeTimings {
  /** How often an instance renews its own lease and the leases of the work it holds. */
  heartbeatMillis: number;
  /** How long a lease lasts without renewal; a dead instance's work is reclaimed after it. */
  leaseMillis: number;
  /** Longest sleep between polls: the fallback when a notification is missed. */
  pollMillis: number;
  /** How often finished-but-RUNNING history of dead instances is looked for. */
  recoveryMillis: number;
  /** How long `stop()` lets in-flight work finish before signalling it to stop and marking it STOPPED. */
  stopGraceMillis: number;
}

export const DEFAULT_TIMINGS: RuntimeTimings = {
  heartbeatMillis: 5_000,
  leaseMillis: 30_000,
  pollMillis: 10_000,
  recoveryMillis: 15_000,
  stopGraceMillis: 10_000,
};

/** What every worker of one runtime shares. */
export interface WorkerContext {
  pool: pg.Pool;
  log: Logger;
  metrics: Metrics;
  instanceId: string;
  timings: RuntimeTimings;
}

/** A running loop the runtime drives: renewed by the heartbeat, stopped on shutdown. */
export interface Worker {
  readonly label: string;
  /** Extends the leases of in-flight work; aborts work whose lease was lost. */
  renew(): Promise<void>;
  /** Wakes the loop early (a notification arrived). */
  wake(): void;
  /** Stops claiming and waits for in-flight work (at most the grace period), then aborts it. */
  stop(): Promise<void>;
  /** Gives back the leases of work that did not finish in time. */
  release(): Promise<void>;
}
