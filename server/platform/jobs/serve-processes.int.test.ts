import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { eventually, sleep } from './testing';

/** Two real `watchkeeper serve` processes on one database: each due slot of a system job runs once. */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const JOB = 'JobHistoryRetention';

let db: TestDatabase;
let dataDir: string;
const processes: ChildProcess[] = [];
const output: string[] = [];

function startServe(): ChildProcess {
  const child = spawn(process.execPath, ['bin/watchkeeper.mjs', 'serve'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1', WATCHKEEPER_DATA: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  processes.push(child);
  return child;
}

function exited(child: ChildProcess, millis: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), millis);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-jobs-serve-'));
});

afterAll(async () => {
  for (const child of processes) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited(child, 5_000);
    }
  }
  await db.drop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('two serve processes on one database', () => {
  it('run each due slot of a system job exactly once, and leave nothing RUNNING after SIGTERM', async () => {
    const [a, b] = [startServe(), startServe()];
    await eventually(
      async () => {
        if (a.exitCode !== null || b.exitCode !== null) throw new Error(`a serve process exited early:\n${output.join('')}`);
        // Started: both registered, and their system jobs written (an instance registers before it syncs them).
        const { rows } = await db.pool.query<{ count: number; job: number }>(
          'SELECT (SELECT count(*)::int FROM job_instances) AS count, (SELECT count(*)::int FROM scheduled_jobs WHERE name = $1) AS job',
          [JOB],
        );
        return (rows[0]?.count ?? 0) >= 2 && rows[0]?.job === 1 ? true : undefined;
      },
      60_000,
      'both instances to start',
    );

    // Make the retention job due every second, as an operator could; the update NOTIFYs both schedulers.
    await db.pool.query("UPDATE scheduled_jobs SET schedule = '@every 1s', next_run_at = now() WHERE name = $1", [JOB]);
    await sleep(6_000);

    a.kill('SIGTERM');
    b.kill('SIGTERM');
    expect(await exited(a, 20_000)).toBe(true);
    expect(await exited(b, 20_000)).toBe(true);

    // Normal operation of background work logs nothing at warn or above.
    const jobWarnings = output.join('').split('\n').filter((line) => line.includes('"component":"jobs"') && /"level":(40|50|60)/.test(line));
    expect(jobWarnings).toEqual([]);
    const runs = (
      await db.pool.query<{ slot: string; runs: number; instances: number }>(
        `SELECT details ->> 'scheduled_for' AS slot, count(*)::int AS runs, count(DISTINCT instance_id)::int AS instances
           FROM job_history WHERE name = $1 GROUP BY 1 ORDER BY 1`,
        [JOB],
      )
    ).rows;
    expect(runs.length).toBeGreaterThanOrEqual(4);
    for (const run of runs) expect(run, `slot ${run.slot}`).toMatchObject({ runs: 1 });
    expect(runs.every((run) => run.slot !== null)).toBe(true);
    const statuses = (await db.pool.query<{ status: string }>('SELECT DISTINCT status FROM job_history WHERE name = $1', [JOB])).rows;
    expect(statuses).toEqual([{ status: 'SUCCESS' }]);
    // Graceful stop leaves no RUNNING row, no lease and no instance behind.
    expect((await db.pool.query("SELECT 1 FROM job_history WHERE status = 'RUNNING'")).rowCount).toBe(0);
    expect((await db.pool.query('SELECT 1 FROM scheduled_jobs WHERE lease_owner IS NOT NULL')).rowCount).toBe(0);
    expect((await db.pool.query('SELECT 1 FROM job_instances')).rowCount).toBe(0);
  });
});
