import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { interval, type Queryable } from './db';

/** A fresh id per process: hostname, pid and a random suffix, readable in job_instances and leases. */
export function newInstanceId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** Creates or renews this instance's row; renewing after recovery removed it simply recreates it. */
export async function heartbeatInstance(db: Queryable, id: string, leaseMillis: number): Promise<void> {
  await db.query(
    `INSERT INTO job_instances (id, hostname, pid, expires_at) VALUES ($1, $2, $3, now() + $4::interval)
     ON CONFLICT (id) DO UPDATE SET heartbeat_at = now(), expires_at = EXCLUDED.expires_at`,
    [id, os.hostname(), process.pid, interval(leaseMillis)],
  );
}

export async function removeInstance(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM job_instances WHERE id = $1', [id]);
}
