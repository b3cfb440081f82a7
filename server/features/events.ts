import type { Queryable } from '../platform/jobs/db';
import { DEFAULT_MAX_ATTEMPTS, publish } from '../platform/jobs/event-queue';

/** An event to publish: one of common/events.ts EVENT_NAMES, with its properties. */
export interface PendingEvent {
  name: string;
  properties: Record<string, unknown>;
}

/** Events per INSERT statement. */
const CHUNK = 2_000;
const EVENT_NAME = /^[A-Za-z0-9_.:/-]{1,200}$/;

/**
 * Publishes a batch of events in the caller's transaction, as publish() does one (default priority, no
 * delay, default attempts, one row per subscribed consumer). One event goes through publish() itself;
 * more are inserted with one multi-row statement per 2,000, so a first scrape of 10,000 items does not
 * pay a round trip per event (per-row publish() made the 10,000-object bench's first run 3× slower).
 * This mirrors publish()'s INSERT in server/platform/jobs/event-queue.ts: change both together (it
 * belongs there as a publishMany; it lives here only because that file was being changed).
 */
export async function publishAll(client: Queryable, events: readonly PendingEvent[]): Promise<void> {
  if (events.length === 0) return;
  const [only] = events;
  if (events.length === 1 && only) {
    await publish(client, only.name, only.properties);
    return;
  }
  for (const event of events) {
    if (!EVENT_NAME.test(event.name)) throw new Error(`event name ${JSON.stringify(event.name)} must be 1-200 letters, digits or _ . : / -`);
  }
  for (let at = 0; at < events.length; at += CHUNK) {
    const part = events.slice(at, at + CHUNK);
    // publish()'s statement for many events: one delivery row per subscribed consumer with the event's
    // event_id, or one with consumer '' when nobody subscribes to its name (migration 0018).
    await client.query(
      `WITH events AS MATERIALIZED (
         SELECT gen_random_uuid() AS id, x.e->>'name' AS name, x.e->'properties' AS properties, x.n
           FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, n)
       ),
       targets AS (
         SELECT e.id, c.name AS consumer FROM events e JOIN event_consumers c ON e.name = ANY(c.events)
         UNION ALL SELECT e.id, '' FROM events e WHERE NOT EXISTS (SELECT 1 FROM event_consumers c WHERE e.name = ANY(c.events))
       )
       INSERT INTO event_queue (event_id, consumer, name, properties, priority, max_attempts, next_attempt_at)
       SELECT e.id, t.consumer, e.name, e.properties, 0, $2, now() FROM events e JOIN targets t ON t.id = e.id ORDER BY e.n`,
      [JSON.stringify(part), DEFAULT_MAX_ATTEMPTS],
    );
  }
}
