import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type pg from 'pg';
import type { UpstreamConfig } from '../../../platform/config';
import { isRecord, messageOf } from '../../../platform/errors';
import { Listener } from '../../../platform/jobs/listener';
import { Waker } from '../../../platform/jobs/waker';
import type { Logger } from '../../../platform/logger';
import { VERSION } from '../../../platform/paths';
import { AGENT_PUSH_CHANNEL, dequeue, loadRows, PUSHED_TABLES, readQueue, readTableInfo, type PendingRow, type PushedTable, type TableInfo } from './outbox';

const gzip = promisify(zlib.gzip);

/** Serialises pushers of several instances sharing one database: one pushes, the others wait their turn. */
const PUSH_LOCK = 4_242_027;

export interface PusherOptions {
  pool: pg.Pool;
  log: Logger;
  upstream: UpstreamConfig;
  /** Keys per push (contract: ≤ 2,000). */
  batchKeys?: number;
  /** Uncompressed JSON per push, about (a single larger row still goes alone). */
  batchBytes?: number;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  requestTimeoutMs?: number;
  /** Pushes are at least this far apart when woken by changes, so a burst of writes goes in one push. */
  minGapMs?: number;
}

interface Answer {
  status: number;
  body: unknown;
}

/** A push that may succeed later (upstream down, 5xx, 401/403, timeout): nothing is dequeued. */
class RetryLater extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

interface CycleResult {
  rows: number;
  error?: RetryLater;
}

/** The agent's pusher: drains agent_push_queue to `${upstream}/api/agent/push`, loss-free (docs/AGENTS.md). */
export class Pusher {
  private readonly pool: pg.Pool;
  private readonly log: Logger;
  private readonly upstream: UpstreamConfig;
  private readonly batchKeys: number;
  private readonly batchBytes: number;
  private readonly minBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly requestTimeoutMs: number;
  private readonly minGapMs: number;
  private readonly waker = new Waker();
  private readonly listener: Listener;
  private info: Map<PushedTable, TableInfo> | undefined;
  private token: string | undefined;
  private tokenStale = true;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private inflight: AbortController | undefined;
  private stopSleep: (() => void) | undefined;
  private lastAttemptAt = 0;
  /** The current wait between failed attempts (0 after a success). */
  backoffMs = 0;
  /** Counts for tests and the status route (the state row has the persistent ones). */
  readonly stats = { posts: 0, accepted: 0, deadLettered: 0, errors: 0 };

  constructor(options: PusherOptions) {
    this.pool = options.pool;
    this.log = options.log;
    this.upstream = options.upstream;
    this.batchKeys = options.batchKeys ?? 2_000;
    this.batchBytes = options.batchBytes ?? 4 * 1024 * 1024;
    this.minBackoffMs = options.minBackoffMs ?? 1_000;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
    this.minGapMs = options.minGapMs ?? Math.min(250, this.upstream.pushIntervalMs);
    this.token = this.upstream.token;
    this.listener = new Listener(this.pool, this.log);
    this.listener.on(AGENT_PUSH_CHANNEL, () => this.waker.wake());
  }

  async start(): Promise<void> {
    this.info = await readTableInfo(this.pool);
    await this.listener.start();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.inflight?.abort(new Error('the agent is stopping'));
    this.stopSleep?.();
    this.waker.wake();
    await this.loop;
    await this.listener.stop();
  }

  /** Wakes the pusher now (tests; the NOTIFY of a queued change does the same). */
  wake(): void {
    this.waker.wake();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const started = Date.now();
      let result: CycleResult;
      try {
        result = await this.cycle();
      } catch (error) {
        // The local database failed us (restarting, connection lost): the queue is intact, try again.
        result = { rows: 0, error: new RetryLater(`local database: ${messageOf(error)}`) };
      }
      if (this.stopped) break;
      if (result.error) {
        this.stats.errors += 1;
        this.tokenStale = true;
        this.backoffMs = Math.min(this.maxBackoffMs, this.backoffMs === 0 ? this.minBackoffMs : this.backoffMs * 2);
        this.log.warn({ upstream: this.upstream.url, err: result.error.message, retryMs: this.backoffMs }, `push to upstream failed: ${result.error.message}; retrying in ${this.backoffMs} ms`);
        await this.recordError(result.error.message);
        await this.sleep(this.backoffMs);
        continue;
      }
      this.backoffMs = 0;
      const heartbeatMs = this.upstream.heartbeatSeconds * 1000;
      const untilHeartbeat = this.lastAttemptAt + heartbeatMs - Date.now();
      await this.waker.wait(Math.max(0, Math.min(this.upstream.pushIntervalMs, untilHeartbeat)));
      // Woken by a change: give the rest of a burst a moment, so it goes in the same push.
      const gap = this.minGapMs - (Date.now() - started);
      if (gap > 0 && !this.stopped) await this.sleep(gap);
    }
  }

  /** A sleep only stop cuts short (a notification must not shorten a backoff). */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.stopSleep = undefined;
        resolve();
      }, ms);
      this.stopSleep = () => {
        clearTimeout(timer);
        this.stopSleep = undefined;
        resolve();
      };
    });
  }

  /**
   * Pushes the queue until it is empty, in batches, each under a transaction that deletes what upstream
   * accepted. A heartbeat (an empty push) goes when nothing was pushed for heartbeatSeconds.
   */
  async cycle(): Promise<CycleResult> {
    let total = 0;
    for (;;) {
      if (this.stopped) return { rows: total };
      const client = await this.pool.connect();
      let more = false;
      let failure: RetryLater | undefined;
      try {
        await client.query('BEGIN');
        const { rows: lock } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [PUSH_LOCK]);
        if (!lock[0]?.ok) {
          // Another instance on this database is pushing; it empties the queue.
          await client.query('COMMIT');
          return { rows: total };
        }
        const pending = await readQueue(client, this.batchKeys);
        more = pending.length > 0;
        if (pending.length === 0) {
          if (Date.now() - this.lastAttemptAt >= this.upstream.heartbeatSeconds * 1000) {
            try {
              await this.post([], client);
            } catch (error) {
              if (!(error instanceof RetryLater)) throw error;
              failure = error;
            }
          }
        } else {
          await loadRows(client, this.info ?? (await readTableInfo(client)), pending);
          const batch = cutToSize(pending, this.batchBytes);
          try {
            await this.send(batch, client);
            total += batch.length;
          } catch (error) {
            if (!(error instanceof RetryLater)) throw error;
            failure = error;
          }
        }
        // What upstream accepted before a failure is dequeued: commit it either way.
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
      if (failure) return { rows: total, error: failure };
      if (!more) return { rows: total };
    }
  }

  /**
   * Pushes rows; on a 400 refusing part of them, pushes the part before the first refused row, the refused
   * row alone, then the rest (or halves when upstream did not say which): a row refused alone is
   * dead-lettered and everything else goes on, in queue order.
   */
  private async send(rows: PendingRow[], client: pg.PoolClient): Promise<void> {
    if (rows.length === 0) return;
    const answer = await this.post(rows, client);
    if (answer === 'ok') return;
    const [only] = rows;
    if (rows.length === 1 && only) {
      await this.deadLetter(only, answer.reason, client);
      return;
    }
    const at = answer.firstFailed;
    const failed = at !== undefined && at >= 0 && at < rows.length ? rows[at] : undefined;
    if (at !== undefined && failed) {
      await this.send(rows.slice(0, at), client);
      await this.send([failed], client);
      await this.send(rows.slice(at + 1), client);
      return;
    }
    const half = Math.ceil(rows.length / 2);
    await this.send(rows.slice(0, half), client);
    await this.send(rows.slice(half), client);
  }

  /** One POST. 200: dequeues; 400/413: answers what was refused; anything else throws RetryLater. */
  private async post(rows: PendingRow[], client: pg.PoolClient): Promise<'ok' | { reason: string; firstFailed: number | undefined }> {
    const { body, positions } = this.body(rows);
    const compressed = await gzip(body, { level: 1 });
    const token = await this.currentToken();
    this.lastAttemptAt = Date.now();
    this.stats.posts += 1;
    let answer: Answer;
    const controller = new AbortController();
    this.inflight = controller;
    const timer = setTimeout(() => controller.abort(new Error(`no answer within ${this.requestTimeoutMs} ms`)), this.requestTimeoutMs);
    try {
      const response = await fetch(`${this.upstream.url}/api/agent/push`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          authorization: `Bearer ${token}`,
          'user-agent': `watchkeeper-agent/${VERSION}`,
        },
        body: compressed,
        signal: controller.signal,
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON (a proxy's page): the status says enough.
      }
      answer = { status: response.status, body: parsed };
    } catch (error) {
      const cause = isRecord(error) && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      throw new RetryLater(controller.signal.aborted ? messageOf(controller.signal.reason) : `${messageOf(error)}${cause}`);
    } finally {
      clearTimeout(timer);
      this.inflight = undefined;
    }
    const message = isRecord(answer.body) && typeof answer.body.message === 'string' ? answer.body.message : typeof answer.body === 'string' ? answer.body.slice(0, 200) : '';
    if (answer.status === 200) {
      await dequeue(client, rows);
      const deletes = rows.filter((row) => row.row === undefined).length;
      const agent = isRecord(answer.body) && isRecord(answer.body.agent) && typeof answer.body.agent.id === 'string' ? answer.body.agent.id : null;
      this.stats.accepted += rows.length;
      await client.query(
        `UPDATE agent_push_state SET last_push_at = now(), last_success_at = now(), last_error = NULL, last_error_at = NULL,
           pushed_total = pushed_total + $1, deleted_total = deleted_total + $2, pushes_total = pushes_total + 1,
           agent_id = coalesce($3::uuid, agent_id), updated_at = now()`,
        [rows.length - deletes, deletes, agent],
      );
      return 'ok';
    }
    if ((answer.status === 400 || answer.status === 413) && rows.length > 0) {
      let firstFailed: number | undefined;
      if (isRecord(answer.body) && Array.isArray(answer.body.failed)) {
        for (const entry of answer.body.failed) {
          if (!isRecord(entry) || typeof entry.table !== 'string' || typeof entry.index !== 'number') continue;
          const section = typeof entry.message === 'string' && entry.message.startsWith('deletes.') ? 'deletes' : 'upserts';
          const position = positions[section].get(entry.table)?.[entry.index];
          if (position !== undefined && (firstFailed === undefined || position < firstFailed)) firstFailed = position;
        }
      }
      return { reason: `${answer.status}: ${message || 'refused'}`, firstFailed };
    }
    if (answer.status === 401 || answer.status === 403) this.tokenStale = true;
    throw new RetryLater(`upstream answered ${answer.status}${message ? `: ${message}` : ''}`, answer.status);
  }

  /** The JSON text of a push, built from the rows' JSON text; positions map (table, index) to the row's place. */
  private body(rows: PendingRow[]): { body: string; positions: { upserts: Map<string, number[]>; deletes: Map<string, number[]> } } {
    const upserts = new Map<string, { text: string[]; at: number[] }>();
    const deletes = new Map<string, { text: string[]; at: number[] }>();
    rows.forEach((row, index) => {
      const target = row.row === undefined ? deletes : upserts;
      let entry = target.get(row.table);
      if (!entry) {
        entry = { text: [], at: [] };
        target.set(row.table, entry);
      }
      entry.text.push(row.row ?? JSON.stringify(row.key));
      entry.at.push(index);
    });
    const section = (map: Map<string, { text: string[]; at: number[] }>) =>
      `{${PUSHED_TABLES.filter((table) => map.has(table))
        .map((table) => `${JSON.stringify(table)}:[${(map.get(table)?.text ?? []).join(',')}]`)
        .join(',')}}`;
    const agent = { name: this.upstream.agentName, version: VERSION, hostname: os.hostname(), heartbeat_seconds: this.upstream.heartbeatSeconds };
    const body = `{"agent":${JSON.stringify(agent)},"batch_id":${JSON.stringify(randomUUID())},"upserts":${section(upserts)},"deletes":${section(deletes)}}`;
    const positions = (map: Map<string, { at: number[] }>) => new Map([...map].map(([table, entry]) => [table, entry.at]));
    return { body, positions: { upserts: positions(upserts), deletes: positions(deletes) } };
  }

  /** The token: from --token, or the token file, read again after any failed attempt (rotation without restart). */
  private async currentToken(): Promise<string> {
    if (this.upstream.tokenFile && (this.tokenStale || this.token === undefined)) {
      try {
        const text = (await fs.readFile(this.upstream.tokenFile, 'utf8')).trim();
        if (text) this.token = text;
        else this.log.warn({ file: this.upstream.tokenFile }, 'the upstream token file is empty; keeping the token read before');
      } catch (error) {
        if (this.token === undefined) throw new RetryLater(`cannot read the token file ${this.upstream.tokenFile}: ${messageOf(error)}`);
        this.log.warn({ file: this.upstream.tokenFile, err: messageOf(error) }, 'cannot read the upstream token file; keeping the token read before');
      }
    }
    this.tokenStale = false;
    if (this.token === undefined) throw new RetryLater('no upstream token');
    return this.token;
  }

  private async deadLetter(row: PendingRow, reason: string, client: pg.PoolClient): Promise<void> {
    this.stats.deadLettered += 1;
    this.log.error({ table: row.table, key: row.key, reason }, `upstream refused ${row.table} ${JSON.stringify(row.key)}: ${reason}; kept in agent_push_failures`);
    await client.query(
      'INSERT INTO agent_push_failures (table_name, row_key, op, row_data, reason) VALUES ($1, $2, $3, $4::jsonb, $5)',
      [row.table, JSON.stringify(row.key), row.row === undefined ? 'delete' : 'upsert', row.row ?? null, reason],
    );
    await dequeue(client, [row]);
  }

  private async recordError(message: string): Promise<void> {
    await this.pool
      .query('UPDATE agent_push_state SET last_push_at = now(), last_error = $1, last_error_at = now(), updated_at = now()', [message.slice(0, 2000)])
      .catch((error: unknown) => this.log.warn({ err: messageOf(error) }, 'could not record the push error'));
  }
}

/** The first rows whose JSON stays within the byte budget (at least one row). */
export function cutToSize(rows: PendingRow[], budget: number): PendingRow[] {
  let size = 0;
  for (const [index, row] of rows.entries()) {
    size += (row.row ?? '').length + 64;
    if (size > budget && index > 0) return rows.slice(0, index);
  }
  return rows;
}
