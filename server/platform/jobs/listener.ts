import type pg from 'pg';
import type { Logger } from '../logger';
import { errorMessage } from './db';

export const EVENT_QUEUE_CHANNEL = 'watchkeeper_event_queue';
export const SCHEDULED_JOBS_CHANNEL = 'watchkeeper_scheduled_jobs';
/** Payload: the table of a scheduled row that was created or became due sooner (migration 0045). */
export const SCHEDULED_ROWS_CHANNEL = 'watchkeeper_scheduled_rows';

type Handler = (payload: string | undefined) => void;

const RECONNECT_MIN_MILLIS = 500;
const RECONNECT_MAX_MILLIS = 30_000;

/**
 * One LISTEN connection per process, taken from the pool and kept. Notifications only wake workers early:
 * every worker also polls on a bounded timer, so a dropped connection delays work, it never loses it.
 * After a reconnect every handler is called once without a payload, since notifications may have been missed.
 */
export class Listener {
  private client: pg.PoolClient | undefined;
  private readonly handlers = new Map<string, Set<Handler>>();
  private stopped = false;
  private retryMillis = RECONNECT_MIN_MILLIS;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: Logger,
  ) {}

  on(channel: string, handler: Handler): void {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(handler);
  }

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    let client: pg.PoolClient | undefined;
    try {
      client = await this.pool.connect();
      const own = client;
      own.on('notification', (message) => this.dispatch(message.channel, message.payload));
      own.on('error', (error) => this.lost(own, error));
      own.on('end', () => this.lost(own, new Error('the connection ended')));
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
      this.client = client;
      this.retryMillis = RECONNECT_MIN_MILLIS;
    } catch (error) {
      client?.release(true);
      this.scheduleReconnect(error);
    }
  }

  /** Events of a client this listener already gave up (or released on stop) are ignored. */
  private lost(client: pg.PoolClient, error: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.release(true);
    if (this.stopped) return;
    this.scheduleReconnect(error);
  }

  private scheduleReconnect(error: unknown): void {
    if (this.stopped || this.retryTimer) return;
    this.log.warn({ err: errorMessage(error), retryMs: this.retryMillis }, 'lost the database notification connection; polling until it is back');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect().then(() => {
        if (this.client) for (const channel of this.handlers.keys()) this.dispatch(channel, undefined);
      });
    }, this.retryMillis);
    this.retryMillis = Math.min(RECONNECT_MAX_MILLIS, this.retryMillis * 2);
  }

  private dispatch(channel: string, payload: string | undefined): void {
    for (const handler of this.handlers.get(channel) ?? []) handler(payload);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    // Destroyed rather than returned: it carries this listener's handlers, which no other user should inherit.
    client.release(true);
  }
}
