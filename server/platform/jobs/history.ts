import os from 'node:os';
import type { Queryable } from './db';

/** Spec §3 "Job history row" statuses; colours in spec §4. */
export const JOB_STATUSES = ['RUNNING', 'SUCCESS', 'WARNING', 'FAILED', 'STOPPED', 'SKIPPED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export type FinalStatus = Exclude<JobStatus, 'RUNNING'>;

export const LOCAL_AGENT_ID = '00000000-0000-0000-0000-000000000000';
export const INSTANCE_STOPPED = 'the instance running it stopped';
export const INSTANCE_SHUTDOWN = 'the instance was shut down before the run finished';

/** What a run is about, when it is about one resource (spec §2: the row links to it by type). */
export interface JobResource {
  type: string;
  id: string;
  name?: string;
}

export interface JobHistoryStart {
  name: string;
  instanceId: string;
  resource?: JobResource;
  agentId?: string;
  details?: Record<string, unknown>;
}

export interface JobHistoryFinish {
  status: FinalStatus;
  successCount: number;
  errorCount: number;
  details: Record<string, unknown>;
}

/** Writes the RUNNING row of a run; it is finished by `finishJobHistory` or, if its instance dies, by recovery. */
export async function startJobHistory(db: Queryable, start: JobHistoryStart): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO job_history (name, agent_id, resource_type, resource_id, resource_name, status, details, hostname, instance_id)
     VALUES ($1, $2, $3, $4, $5, 'RUNNING', $6, $7, $8) RETURNING id`,
    [
      start.name,
      start.agentId ?? LOCAL_AGENT_ID,
      start.resource?.type ?? null,
      start.resource?.id ?? null,
      start.resource?.name ?? null,
      JSON.stringify(start.details ?? {}),
      os.hostname(),
      start.instanceId,
    ],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('job_history insert returned no id');
  return id;
}

/**
 * Finishes a RUNNING row. Returns false when the row was already finished elsewhere (recovery decided
 * this instance was gone), so the caller can tell its result was not recorded.
 */
export async function finishJobHistory(db: Queryable, id: string, finish: JobHistoryFinish): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE job_history
        SET status = $2, success_count = $3, error_count = $4, details = details || $5::jsonb,
            time_end = clock_timestamp(),
            duration_millis = LEAST(2147483647, round(extract(epoch FROM clock_timestamp() - time_start) * 1000))::integer
      WHERE id = $1 AND status = 'RUNNING'`,
    [id, finish.status, finish.successCount, finish.errorCount, JSON.stringify(finish.details)],
  );
  return rowCount === 1;
}

/** Writes the row of a run that already finished (runs recorded only when they had problems). */
export async function recordFinishedJob(db: Queryable, start: JobHistoryStart, finish: JobHistoryFinish, startedAt: Date): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO job_history (name, agent_id, resource_type, resource_id, resource_name, status, success_count, error_count, details,
                              hostname, instance_id, time_start, time_end, duration_millis)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, clock_timestamp(),
             LEAST(2147483647, round(extract(epoch FROM clock_timestamp() - $12::timestamptz) * 1000))::integer) RETURNING id`,
    [
      start.name,
      start.agentId ?? LOCAL_AGENT_ID,
      start.resource?.type ?? null,
      start.resource?.id ?? null,
      start.resource?.name ?? null,
      finish.status,
      finish.successCount,
      finish.errorCount,
      JSON.stringify({ ...start.details, ...finish.details }),
      os.hostname(),
      start.instanceId,
      startedAt,
    ],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('job_history insert returned no id');
  return id;
}

/**
 * Finishes RUNNING rows of instances that no longer hold a live lease (the process died or stalled past
 * its lease), and forgets those instances. Safe to run from every instance at once.
 */
export async function recoverStaleRuns(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(
    `WITH dead AS (
       SELECT jh.id FROM job_history jh
        WHERE jh.status = 'RUNNING' AND jh.instance_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM job_instances i WHERE i.id = jh.instance_id AND i.expires_at > now())
        FOR UPDATE SKIP LOCKED
     )
     UPDATE job_history jh
        SET status = 'FAILED', time_end = now(), error_count = jh.error_count + 1,
            duration_millis = LEAST(2147483647, round(extract(epoch FROM now() - jh.time_start) * 1000))::integer,
            details = jsonb_set(jh.details, '{errors}', COALESCE(jh.details -> 'errors', '[]'::jsonb) || to_jsonb($1::text))
       FROM dead WHERE jh.id = dead.id`,
    [INSTANCE_STOPPED],
  );
  await db.query('DELETE FROM job_instances WHERE expires_at < now()');
  return rowCount ?? 0;
}

/** On shutdown: runs of this instance still going after the grace period are STOPPED, not FAILED. */
export async function stopRunningOf(db: Queryable, instanceId: string): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE job_history
        SET status = 'STOPPED', time_end = now(),
            duration_millis = LEAST(2147483647, round(extract(epoch FROM now() - time_start) * 1000))::integer,
            details = jsonb_set(details, '{errors}', COALESCE(details -> 'errors', '[]'::jsonb) || to_jsonb($2::text))
      WHERE status = 'RUNNING' AND instance_id = $1`,
    [instanceId, INSTANCE_SHUTDOWN],
  );
  return rowCount ?? 0;
}
