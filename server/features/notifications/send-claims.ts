import type pg from 'pg';
import type { Recipient } from './recipients';

/** Claims on notification_send_history rows: one instance sends each row (and each group) at a time. */

const CLAIM_MILLIS = 60_000;

/**
 * At-least-once across crashes (docs/NOTIFICATIONS.md "Delivery guarantees"): a claim is cleared when its
 * send is recorded (finish), so a row claimed again while it still names an earlier claim is one whose
 * instance died (kill -9, a lost database connection) between the claim and the record, maybe after the
 * message went out. Claiming it again counts a retry and says so; the re-send carries the same
 * X-Watchkeeper-Send-Id (the row's id), so the receiver can drop the duplicate.
 */
export const RESENT = 're-sent (same X-Watchkeeper-Send-Id)';
const RECLAIM_COUNTS = `retries = h.retries + CASE WHEN h.claimed_by IS NULL THEN 0 ELSE 1 END,
  reason = CASE WHEN h.claimed_by IS NULL THEN h.reason ELSE '${RESENT} after ' || h.claimed_by || ' claimed it and did not record the outcome' END`;
/** A groupBy rule sends a group once per this long when groupByInterval is not set. */
const DEFAULT_GROUP_INTERVAL_MILLIS = 60 * 60_000;

export type HistoryRow = {
  id: string;
  notification_id: string;
  event_id: string | null;
  source_event: string;
  resource_id: string;
  resource_type: string;
  status: string;
  recipient: string;
  recipient_key: string;
  parent_id: string | null;
  group_by_hash: string;
  payload: { recipient?: Recipient; properties?: Record<string, unknown>; waitFor?: boolean; evaluated?: boolean };
  retries: number;
  reason: string | null;
  first_observed: Date;
  created_at: Date;
  /** Hosted mode (docs/HOSTED.md "Row-level security"): delivered in its organization's scope. */
  organization_id?: string | null;
};

/** Claims up to `limit` due rows that are not in a group (a row claimed again counts a retry: RECLAIM_COUNTS). */
export async function claimDue(pool: pg.Pool, instanceId: string, limit: number): Promise<HistoryRow[]> {
  const { rows } = await pool.query<HistoryRow>(
    `WITH due AS (
       SELECT id FROM notification_send_history
        WHERE status IN ('pending', 'evaluating-waitfor', 'attempting_fallback') AND not_before <= now() AND group_by_hash = ''
          AND (claimed_until IS NULL OR claimed_until < now())
        ORDER BY not_before LIMIT $1 FOR UPDATE SKIP LOCKED
     )
     UPDATE notification_send_history h SET claimed_by = $2, claimed_until = now() + make_interval(secs => $3::float8 / 1000), ${RECLAIM_COUNTS}
       FROM due WHERE h.id = due.id
     RETURNING h.*`,
    [limit, instanceId, CLAIM_MILLIS],
  );
  return rows;
}

/** The groups whose wait is over (at most 20 a round). */
export async function dueGroupHashes(pool: pg.Pool): Promise<string[]> {
  const { rows: hashes } = await pool.query<{ group_by_hash: string }>(
    `SELECT DISTINCT group_by_hash FROM notification_send_history
      WHERE status = 'pending' AND group_by_hash <> '' AND not_before <= now() AND (claimed_until IS NULL OR claimed_until < now()) LIMIT 20`,
  );
  return hashes.map((row) => row.group_by_hash);
}

/** The rows of a group, claimed under an advisory lock so one instance sends it; none when another has it or it joins a message already sent. */
export async function claimGroup(pool: pg.Pool, instanceId: string, hash: string): Promise<HistoryRow[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows: lock } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok', [hash]);
    if (!lock[0]?.ok) {
      await client.query('ROLLBACK');
      return [];
    }
    // Another instance is sending this group right now: these rows join its message on a later round.
    const { rows: inFlight } = await client.query("SELECT 1 FROM notification_send_history WHERE group_by_hash = $1 AND status = 'pending' AND claimed_until > now() LIMIT 1", [hash]);
    if (inFlight.length > 0) {
      await client.query('ROLLBACK');
      return [];
    }
    // A message of this group already went out within its interval: these join it instead.
    const { rows: sent } = await client.query<{ id: string; notification_id: string; sent_at: Date }>(
      `SELECT h.id, h.notification_id, h.sent_at FROM notification_send_history h JOIN notifications n ON n.id = h.notification_id
        WHERE h.group_by_hash = $1 AND h.status = 'sent'
          AND h.created_at > now() - make_interval(secs => coalesce(n.group_by_interval, $2::bigint * 1000000)::float8 / 1e9)
        ORDER BY h.created_at DESC LIMIT 1`,
      [hash, DEFAULT_GROUP_INTERVAL_MILLIS],
    );
    const previous = sent[0];
    if (previous) {
      await client.query(
        `UPDATE notification_send_history SET status = 'grouped', parent_id = $2, reason = $3, claimed_by = NULL, claimed_until = NULL
          WHERE group_by_hash = $1 AND status = 'pending' AND not_before <= now() AND (claimed_until IS NULL OR claimed_until < now())`,
        [hash, previous.id, `grouped with the message sent at ${previous.sent_at?.toISOString() ?? 'earlier'} (groupByInterval)`],
      );
      await client.query('COMMIT');
      return [];
    }
    const { rows } = await client.query<HistoryRow>(
      `UPDATE notification_send_history h SET claimed_by = $2, claimed_until = now() + make_interval(secs => $3::float8 / 1000), ${RECLAIM_COUNTS}
        WHERE group_by_hash = $1 AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < now())
        RETURNING *`,
      [hash, instanceId, CLAIM_MILLIS],
    );
    await client.query('COMMIT');
    return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Records values on a claimed row and lets the claim go (only while this instance still holds it). */
export async function finishRow(pool: pg.Pool, instanceId: string, id: string, values: Record<string, unknown>): Promise<void> {
  const names = Object.keys(values);
  await pool.query(
    `UPDATE notification_send_history SET ${names.map((name, index) => `${name} = $${index + 3}`).join(', ')}, claimed_by = NULL, claimed_until = NULL
      WHERE id = $1 AND claimed_by = $2`,
    [id, instanceId, ...Object.values(values)],
  );
}
