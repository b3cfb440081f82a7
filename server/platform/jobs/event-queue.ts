import { CompiledQuery, Kysely } from 'kysely';
import { interval, type Queryable } from './db';

export const DEFAULT_MAX_ATTEMPTS = 5;
export const HANDLER_STOPPED = 'the instance handling it stopped';

export interface PublishOptions {
  /** Higher first; default 0. */
  priority?: number;
  /** Milliseconds before the event may be handled; default 0. */
  delay?: number;
  /** Attempts before the event is kept as failed; default 5. */
  maxAttempts?: number;
}

const EVENT_NAME = /^[A-Za-z0-9_.:/-]{1,200}$/;

/** An event to publish with publishMany. */
export interface PendingEvent {
  name: string;
  properties: Record<string, unknown>;
}

/** Events per INSERT statement of publishMany. */
const CHUNK = 2_000;

/**
 * Queues an event. Pass the caller's transaction (a pg client inside BEGIN, or a Kysely transaction) so
 * the event exists if and only if the state change it announces commits; consumers are woken by the
 * insert trigger's NOTIFY, which PostgreSQL also delivers only on commit. Answers the event's id.
 */
export async function publish<DB>(
  db: Queryable | Kysely<DB>,
  name: string,
  properties: Record<string, unknown> = {},
  options: PublishOptions = {},
): Promise<string> {
  const [id] = await publishMany(db, [{ name, properties }], options);
  if (id === undefined) throw new Error('event_queue insert returned no id');
  return id;
}

/**
 * Queues events in the caller's transaction, as publish() does one: one delivery row per consumer
 * subscribed to the event's name (event_consumers), all with the event's event_id, or one row with
 * consumer '' when nobody subscribes yet (claimed by the first consumer of that name). Many events go
 * in one statement per 2,000, so a first scrape of 10,000 items does not pay a round trip per event.
 * Answers the event ids in order.
 */
export async function publishMany<DB>(db: Queryable | Kysely<DB>, events: readonly PendingEvent[], options: PublishOptions = {}): Promise<string[]> {
  for (const event of events) {
    if (!EVENT_NAME.test(event.name)) throw new Error(`event name ${JSON.stringify(event.name)} must be 1-200 letters, digits or _ . : / -`);
  }
  const priority = options.priority ?? 0;
  const delay = interval(options.delay ?? 0);
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(priority) || !Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new Error('event priority must be an integer and maxAttempts a positive integer');
  }
  const text = `WITH events AS MATERIALIZED (
       SELECT gen_random_uuid() AS id, x.e->>'name' AS name, x.e->'properties' AS properties, x.n
         FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, n)
     ),
     targets AS (
       SELECT e.id, c.name AS consumer FROM events e JOIN event_consumers c ON e.name = ANY(c.events)
       UNION ALL SELECT e.id, '' FROM events e WHERE NOT EXISTS (SELECT 1 FROM event_consumers c WHERE e.name = ANY(c.events))
     ),
     inserted AS (
       INSERT INTO event_queue (event_id, consumer, name, properties, priority, max_attempts, next_attempt_at)
       SELECT e.id, t.consumer, e.name, e.properties, $2, $3, now() + $4::interval FROM events e JOIN targets t ON t.id = e.id ORDER BY e.n
       RETURNING event_id
     )
     SELECT e.id FROM events e WHERE e.id IN (SELECT event_id FROM inserted) ORDER BY e.n`;
  const ids: string[] = [];
  for (let at = 0; at < events.length; at += CHUNK) {
    const values = [JSON.stringify(events.slice(at, at + CHUNK)), priority, maxAttempts, delay];
    const rows = db instanceof Kysely
      ? ((await db.executeQuery(CompiledQuery.raw(text, values))).rows as Array<{ id: string }>)
      : (await db.query<{ id: string }>(text, values)).rows;
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}


/**
 * Subscribes a consumer to these event names from now on (every instance running it does the same; the
 * last one started sets the list). Events published while nobody subscribed to their name (consumer '')
 * are claimed by the first consumer of that name that comes (see claimEvents), so nothing published before
 * the first `serve` started is lost.
 */
export async function subscribeConsumer(db: Queryable, consumer: string, names: readonly string[]): Promise<void> {
  await db.query(
    `INSERT INTO event_consumers (name, events) VALUES ($1, $2::text[])
     ON CONFLICT (name) DO UPDATE SET events = excluded.events, updated_at = now()`,
    [consumer, names],
  );
}

/** An event as a consumer sees it. `attempt` counts from 1. */
export interface QueuedEvent {
  /** This consumer's delivery of the event. */
  id: string;
  /** The published event: the same for every consumer it was delivered to. */
  eventId: string;
  name: string;
  properties: Record<string, unknown>;
  priority: number;
  attempt: number;
  maxAttempts: number;
  createdAt: Date;
  /** The organization whose work published it (hosted mode, docs/HOSTED.md "Row-level security"). */
  organizationId?: string;
}

interface ClaimedEventRow {
  id: string;
  event_id: string;
  name: string;
  properties: Record<string, unknown>;
  priority: number;
  attempts: number;
  max_attempts: number;
  created_at: Date;
  organization_id: string | null;
}

/**
 * Claims due events with SKIP LOCKED and locks them to `owner` until the lease ends. An event whose
 * previous lock expired was being handled by an instance that died: that counts as a failed attempt.
 * Returns the claimed events, and the ids that ran out of attempts on that count (kept, not handled).
 */
export async function claimEvents(
  db: Queryable,
  names: readonly string[],
  owner: string,
  limit: number,
  leaseMillis: number,
  consumer = '',
): Promise<{ events: QueuedEvent[]; exhausted: ClaimedEventRow[] }> {
  const { rows } = await db.query<ClaimedEventRow>(
    `WITH due AS (
       SELECT id FROM event_queue
        WHERE consumer IN ($6, '') AND name = ANY($1::text[]) AND attempts < max_attempts AND next_attempt_at <= now()
          AND (locked_until IS NULL OR locked_until < now())
        ORDER BY priority DESC, next_attempt_at, created_at
        LIMIT $2
        FOR UPDATE SKIP LOCKED
     )
     UPDATE event_queue e
        SET locked_by = $3, locked_until = now() + $4::interval, last_attempt = now(),
            attempts = e.attempts + CASE WHEN e.locked_until IS NULL THEN 0 ELSE 1 END,
            error = CASE WHEN e.locked_until IS NULL THEN e.error ELSE $5 END
       FROM due WHERE e.id = due.id
     RETURNING e.id, e.event_id, e.name, e.properties, e.priority, e.attempts, e.max_attempts, e.created_at, e.organization_id::text AS organization_id`,
    [names, limit, owner, interval(leaseMillis), HANDLER_STOPPED, consumer],
  );
  const events: QueuedEvent[] = [];
  const exhausted: ClaimedEventRow[] = [];
  for (const row of rows) {
    if (row.attempts >= row.max_attempts) exhausted.push(row);
    else {
      events.push({
        id: row.id,
        eventId: row.event_id,
        name: row.name,
        properties: row.properties,
        priority: row.priority,
        attempt: row.attempts + 1,
        maxAttempts: row.max_attempts,
        createdAt: row.created_at,
        ...(row.organization_id ? { organizationId: row.organization_id } : {}),
      });
    }
  }
  events.sort((a, b) => b.priority - a.priority || a.createdAt.getTime() - b.createdAt.getTime());
  return { events, exhausted };
}

/** A handled event is deleted. */
export async function completeEvent(db: Queryable, id: string, owner: string): Promise<void> {
  await db.query('DELETE FROM event_queue WHERE id = $1 AND locked_by = $2', [id, owner]);
}

/**
 * Records a failed attempt: the error, the next attempt after `retryMillis`, and the lock dropped.
 * Returns true when the event has now run out of attempts (it stays in the table with its error).
 */
export async function failEvent(
  db: Queryable,
  id: string,
  owner: string,
  error: string,
  retryMillis: number,
  maxAttempts: number | undefined,
): Promise<boolean> {
  const { rows } = await db.query<{ exhausted: boolean }>(
    `UPDATE event_queue
        SET attempts = attempts + 1, error = $3, last_attempt = now(), next_attempt_at = now() + $4::interval,
            max_attempts = COALESCE($5, max_attempts), locked_by = NULL, locked_until = NULL
      WHERE id = $1 AND locked_by = $2
      RETURNING attempts >= max_attempts AS exhausted`,
    [id, owner, error, interval(retryMillis), maxAttempts ?? null],
  );
  return rows[0]?.exhausted ?? false;
}

/** Drops locks without counting an attempt (shutdown, or events claimed only to be marked exhausted). */
export async function unlockEvents(db: Queryable, ids: readonly string[], owner: string): Promise<void> {
  if (ids.length === 0) return;
  await db.query('UPDATE event_queue SET locked_by = NULL, locked_until = NULL WHERE id = ANY($1::uuid[]) AND locked_by = $2', [ids, owner]);
}

/** Heartbeat for events being handled; returns the ids still locked by `owner`. */
export async function renewEvents(db: Queryable, ids: readonly string[], owner: string, leaseMillis: number): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await db.query<{ id: string }>(
    'UPDATE event_queue SET locked_until = now() + $3::interval WHERE id = ANY($1::uuid[]) AND locked_by = $2 RETURNING id',
    [ids, owner, interval(leaseMillis)],
  );
  return new Set(rows.map((row) => row.id));
}

/** Milliseconds until one of these events could be claimed (due, or its lock could expire). */
export async function millisUntilNextEvent(db: Queryable, names: readonly string[], consumer = ''): Promise<number | undefined> {
  const { rows } = await db.query<{ ms: number | null }>(
    `SELECT (extract(epoch FROM min(GREATEST(next_attempt_at, COALESCE(locked_until, next_attempt_at))) - now()) * 1000)::float8 AS ms
       FROM event_queue WHERE consumer IN ($2, '') AND name = ANY($1::text[]) AND attempts < max_attempts`,
    [names, consumer],
  );
  const ms = rows[0]?.ms;
  return ms === null || ms === undefined ? undefined : ms;
}

export interface Backoff {
  /** Delay after the first failure. */
  initialMillis: number;
  /** Each further failure multiplies the delay by this. */
  factor: number;
  maxMillis: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMillis: 1_000, factor: 2, maxMillis: 5 * 60_000 };

/** Delay before attempt `failures + 1`: initial · factor^(failures-1), capped. */
export function backoffMillis(backoff: Backoff, failures: number): number {
  const raw = backoff.initialMillis * backoff.factor ** Math.max(0, failures - 1);
  return Math.min(backoff.maxMillis, Number.isFinite(raw) ? raw : backoff.maxMillis);
}
