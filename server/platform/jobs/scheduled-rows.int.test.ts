import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { BackgroundWork } from './registry';
import { claimDueRows, millisUntilClaimable, releaseRow, renewRows } from './row-claims';
import { heartbeatInstance } from './instance';
import { defineScheduledTable } from './scheduled-table';
import { eventually, sleep, startTestRuntime, type TestRuntime } from './testing';

const PROBES = defineScheduledTable({
  table: 'probe_schedules',
  id: 'id',
  name: 'name',
  schedule: 'schedule',
  nextRunAt: 'next_run_at',
  leaseOwner: 'lease_owner',
  leaseUntil: 'lease_until',
  lastRunAt: 'last_run_at',
  enabled: 'enabled',
  deletedAt: 'deleted_at',
});

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query(`CREATE TABLE probe_schedules (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name text NOT NULL,
    schedule text NOT NULL,
    next_run_at timestamptz NOT NULL DEFAULT now(),
    last_run_at timestamptz,
    lease_owner text,
    lease_until timestamptz,
    enabled boolean NOT NULL DEFAULT true,
    deleted_at timestamptz
  )`);
  await db.pool.query('CREATE TABLE probe_runs (row_id uuid NOT NULL, slot timestamptz NOT NULL, instance text NOT NULL)');
});

afterAll(async () => {
  await db.drop();
});

async function resetTable(): Promise<void> {
  await db.pool.query('TRUNCATE probe_schedules, probe_runs');
}

describe('defineScheduledTable', () => {
  it('refuses identifiers that are not plain names', () => {
    expect(() => defineScheduledTable({ table: 'x; DROP TABLE people', id: 'id', schedule: 's', nextRunAt: 'n', leaseOwner: 'o', leaseUntil: 'u' })).toThrow(/plain lower-case SQL identifier/);
    expect(() => defineScheduledTable({ table: 'ok', id: 'Id"', schedule: 's', nextRunAt: 'n', leaseOwner: 'o', leaseUntil: 'u' })).toThrow(/id column/);
  });
});

describe('claiming due rows', () => {
  it('leases due rows to one owner, moves them to their next slot and skips inactive rows', async () => {
    await resetTable();
    await db.pool.query(`INSERT INTO probe_schedules (name, schedule, next_run_at, enabled, deleted_at) VALUES
      ('due', '@every 1m', now() - interval '5 seconds', true, NULL),
      ('later', '@every 1m', now() + interval '1 hour', true, NULL),
      ('disabled', '@every 1m', now() - interval '5 seconds', false, NULL),
      ('deleted', '@every 1m', now() - interval '5 seconds', true, now())`);
    const first = await claimDueRows(db.pool, PROBES, { owner: 'a', limit: 10, leaseMillis: 60_000 });
    expect(first.map((row) => row.name)).toEqual(['due']);
    const claimed = first[0];
    if (!claimed) throw new Error('nothing claimed');
    // Another owner finds nothing: the slot moved on and the lease is held.
    expect(await claimDueRows(db.pool, PROBES, { owner: 'b', limit: 10, leaseMillis: 60_000 })).toEqual([]);
    const { rows } = await db.pool.query<{ next_run_at: Date; lease_owner: string }>("SELECT next_run_at, lease_owner FROM probe_schedules WHERE name = 'due'");
    expect(rows[0]?.lease_owner).toBe('a');
    expect(rows[0]?.next_run_at.getTime()).toBe(claimed.scheduledFor.getTime() + 60_000);

    // Renewal works only for the holder.
    expect(await renewRows(db.pool, PROBES, [claimed.id], 'b', 60_000)).toEqual(new Set());
    expect(await renewRows(db.pool, PROBES, [claimed.id], 'a', 60_000)).toEqual(new Set([claimed.id]));

    // Release by a non-holder is ignored; by the holder it records the slot.
    expect(await releaseRow(db.pool, PROBES, claimed.id, 'b', claimed.scheduledFor)).toBe(false);
    expect(await releaseRow(db.pool, PROBES, claimed.id, 'a', claimed.scheduledFor)).toBe(true);
    const after = await db.pool.query<{ last_run_at: Date; lease_owner: string | null }>("SELECT last_run_at, lease_owner FROM probe_schedules WHERE name = 'due'");
    expect(after.rows[0]).toEqual({ last_run_at: claimed.scheduledFor, lease_owner: null });
    const wait = await millisUntilClaimable(db.pool, PROBES);
    expect(wait).toBeGreaterThan(50_000);
    expect(wait).toBeLessThanOrEqual(60_000);
  });

  it('never waits for rows that are never due (next run infinity), whatever the server version', async () => {
    await resetTable();
    await db.pool.query("INSERT INTO probe_schedules (name, schedule, next_run_at) VALUES ('unscheduled', '@every 1m', 'infinity')");
    expect(await millisUntilClaimable(db.pool, PROBES)).toBeUndefined();
    expect(await claimDueRows(db.pool, PROBES, { owner: 'a', limit: 10, leaseMillis: 60_000 })).toEqual([]);
    await db.pool.query("INSERT INTO probe_schedules (name, schedule, next_run_at) VALUES ('soon', '@every 1m', now() + interval '30 seconds')");
    expect(await millisUntilClaimable(db.pool, PROBES)).toBeLessThanOrEqual(30_000);
  });

  it('lets an expired lease be claimed again, and only then', async () => {
    await resetTable();
    await db.pool.query("INSERT INTO probe_schedules (name, schedule, next_run_at) VALUES ('r', '@every 1s', now() - interval '1 second')");
    const [row] = await claimDueRows(db.pool, PROBES, { owner: 'dead', limit: 1, leaseMillis: 300 });
    if (!row) throw new Error('nothing claimed');
    await sleep(1_100); // the next slot is due, but the lease is still... expired after 300 ms
    const again = await claimDueRows(db.pool, PROBES, { owner: 'alive', limit: 1, leaseMillis: 10_000 });
    expect(again).toHaveLength(1);
    expect(again[0]?.scheduledFor.getTime()).toBeGreaterThan(row.scheduledFor.getTime());
    // While the live lease holds, the row is not claimable even once its next slot is due.
    await sleep(1_100);
    expect(await claimDueRows(db.pool, PROBES, { owner: 'other', limit: 1, leaseMillis: 10_000 })).toEqual([]);
  });

  it('moves a row with a bad schedule an hour on and reports it as a FAILED run', async () => {
    await resetTable();
    const registry = new BackgroundWork();
    registry.rows({ name: 'ProbeBad', table: PROBES, resourceType: 'probe', run: async () => undefined });
    await db.pool.query("INSERT INTO probe_schedules (name, schedule) VALUES ('broken', '@every never')");
    const runtime = await startTestRuntime(db.url, registry);
    try {
      const history = await eventually(async () => {
        const { rows } = await db.pool.query<{ status: string; details: { errors: string[] }; resource_name: string; resource_type: string }>(
          "SELECT status, details, resource_name, resource_type FROM job_history WHERE name = 'ProbeBad' AND status <> 'RUNNING'",
        );
        return rows[0];
      });
      expect(history.status).toBe('FAILED');
      expect(history.details.errors[0]).toMatch(/invalid schedule "@every never"/);
      expect(history.resource_type).toBe('probe');
      expect(history.resource_name).toBe('broken');
      const { rows } = await db.pool.query<{ minutes: number }>("SELECT extract(epoch FROM next_run_at - now())::float8 / 60 AS minutes FROM probe_schedules WHERE name = 'broken'");
      expect(rows[0]?.minutes).toBeGreaterThan(55);
    } finally {
      await runtime.stop();
    }
  });
});

describe('rows shared over the live instances', () => {
  it('lets each instance claim only its own share as rows fall due, and any instance a row past the grace', async () => {
    await resetTable();
    await db.pool.query('DELETE FROM job_instances');
    for (const owner of ['a', 'b', 'c']) await heartbeatInstance(db.pool, owner, 60_000);
    await db.pool.query("INSERT INTO probe_schedules (name, schedule, next_run_at) SELECT 'shared-' || g, '@every 1m', now() - interval '100 milliseconds' FROM generate_series(1, 30) AS g");
    const share = { graceMillis: 5_000 };
    // Due for 100 ms, within the grace: each owner takes its own tenth-of-thirty, whoever asks first.
    const claimed = new Map<string, string[]>();
    for (const owner of ['c', 'a', 'b']) claimed.set(owner, (await claimDueRows(db.pool, PROBES, { owner, limit: 100, leaseMillis: 60_000, share })).map((row) => row.id));
    expect([...claimed.values()].map((ids) => ids.length)).toEqual([10, 10, 10]);
    expect(new Set([...claimed.values()].flat()).size).toBe(30);
    // The share follows the row order (ids) and the instance order, the same for every instance.
    const { rows: ordered } = await db.pool.query<{ id: string }>('SELECT id::text AS id FROM probe_schedules ORDER BY id');
    expect(claimed.get('a')).toEqual(expect.arrayContaining(ordered.filter((_, i) => i % 3 === 0).map((row) => row.id)));

    // Next slot: 'b' is gone (its rows are nobody's until the grace passes); 'a' and 'c' share all thirty again.
    await db.pool.query('UPDATE probe_schedules SET lease_owner = NULL, lease_until = NULL, next_run_at = now() - interval \'100 milliseconds\'');
    await db.pool.query("DELETE FROM job_instances WHERE id = 'b'");
    const a = await claimDueRows(db.pool, PROBES, { owner: 'a', limit: 100, leaseMillis: 60_000, share });
    expect(a).toHaveLength(15);
    // An instance sleeps until its own next row is due, or another's is past the grace, whichever comes first.
    await db.pool.query("UPDATE probe_schedules SET next_run_at = now() + CASE WHEN lease_owner = 'a' THEN interval '10 seconds' ELSE interval '20 seconds' END, lease_owner = NULL, lease_until = NULL");
    const waitOf = (owner: string) => millisUntilClaimable(db.pool, PROBES, undefined, { ...share, owner });
    const [waitOfA, waitOfC] = [await waitOf('a'), await waitOf('c')];
    expect(waitOfA).toBeGreaterThan(8_000);
    expect(waitOfA).toBeLessThanOrEqual(10_000);
    expect(waitOfC).toBeGreaterThan(13_000);
    expect(waitOfC).toBeLessThanOrEqual(15_000);
    expect(await millisUntilClaimable(db.pool, PROBES)).toBeLessThanOrEqual(10_000);
    // Rows past the grace are anyone's: a row whose instance is slow or stopped still runs.
    await db.pool.query("UPDATE probe_schedules SET lease_owner = NULL, lease_until = NULL, next_run_at = now() - interval '6 seconds'");
    expect(await claimDueRows(db.pool, PROBES, { owner: 'a', limit: 100, leaseMillis: 60_000, share })).toHaveLength(30);
    // An instance not (yet) registered takes every row as its own.
    await db.pool.query("UPDATE probe_schedules SET lease_owner = NULL, lease_until = NULL, next_run_at = now() - interval '100 milliseconds'");
    expect(await claimDueRows(db.pool, PROBES, { owner: 'unregistered', limit: 100, leaseMillis: 60_000, share })).toHaveLength(30);
    await db.pool.query('DELETE FROM job_instances');
  });
});

describe('scheduled rows across instances', () => {
  it('runs every due slot exactly once with four concurrent instances on separate pools', async () => {
    await resetTable();
    await db.pool.query("INSERT INTO probe_schedules (name, schedule) SELECT 'probe-' || g, '@every 1s' FROM generate_series(1, 12) AS g");
    const runtimes: TestRuntime[] = [];
    for (let i = 0; i < 4; i += 1) {
      const registry = new BackgroundWork();
      registry.rows({
        name: 'Probe',
        table: PROBES,
        resourceType: 'probe',
        concurrency: 4,
        async run(row, run) {
          await run.pool.query('INSERT INTO probe_runs (row_id, slot, instance) VALUES ($1, $2, $3)', [row.id, row.scheduledFor, `i${i}`]);
          await sleep(20);
          run.success();
        },
      });
      runtimes.push(await startTestRuntime(db.url, registry));
    }
    try {
      await sleep(4_500);
    } finally {
      await Promise.all(runtimes.map((runtime) => runtime.stop()));
    }
    const duplicates = await db.pool.query('SELECT row_id, slot, count(*) FROM probe_runs GROUP BY row_id, slot HAVING count(*) > 1');
    expect(duplicates.rows).toEqual([]);
    const perRow = await db.pool.query<{ runs: number }>('SELECT count(*)::int AS runs FROM probe_runs GROUP BY row_id');
    expect(perRow.rows).toHaveLength(12);
    for (const row of perRow.rows) expect(row.runs).toBeGreaterThanOrEqual(3);
    const instances = await db.pool.query('SELECT DISTINCT instance FROM probe_runs');
    expect(instances.rowCount).toBeGreaterThan(1);

    // Every run has its history, linked to its row, and nothing is left RUNNING or leased.
    const history = await db.pool.query<{ status: string; count: number }>(
      "SELECT status, count(*)::int AS count FROM job_history WHERE name = 'Probe' GROUP BY status",
    );
    const total = await db.pool.query<{ count: number }>('SELECT count(*)::int AS count FROM probe_runs');
    expect(history.rows).toEqual([{ status: 'SUCCESS', count: total.rows[0]?.count }]);
    const linked = await db.pool.query(
      "SELECT 1 FROM job_history jh JOIN probe_schedules p ON p.id::text = jh.resource_id AND p.name = jh.resource_name WHERE jh.name = 'Probe' AND jh.resource_type = 'probe'",
    );
    expect(linked.rowCount).toBe(total.rows[0]?.count);
    const leased = await db.pool.query('SELECT 1 FROM probe_schedules WHERE lease_owner IS NOT NULL');
    expect(leased.rowCount).toBe(0);
  });
});

describe('waking on a new or sooner row', () => {
  it('runs a row created while the worker sleeps at once, not at its next poll (migration 0045)', async () => {
    await resetTable();
    await db.pool.query('CREATE TRIGGER scheduled_rows_notify_insert AFTER INSERT ON probe_schedules FOR EACH ROW EXECUTE FUNCTION scheduled_rows_notify()');
    const registry = new BackgroundWork();
    registry.rows({
      name: 'ProbeWake',
      table: PROBES,
      async run(row, run) {
        await run.pool.query('INSERT INTO probe_runs (row_id, slot, instance) VALUES ($1, $2, $3)', [row.id, row.scheduledFor, 'w']);
        run.success();
      },
    });
    // The worker polls once a minute: only the notification can make the run come within seconds.
    const runtime = await startTestRuntime(db.url, registry, { pollMillis: 60_000 });
    try {
      await sleep(300);
      const created = Date.now();
      await db.pool.query("INSERT INTO probe_schedules (name, schedule) VALUES ('fresh', '@every 1h')");
      await eventually(async () => ((await db.pool.query('SELECT 1 FROM probe_runs')).rowCount ? true : undefined), 5_000, 'the new row to run');
      expect(Date.now() - created).toBeLessThan(5_000);
    } finally {
      await runtime.stop();
      await db.pool.query('DROP TRIGGER scheduled_rows_notify_insert ON probe_schedules');
    }
    // The product's scheduled tables carry the same triggers.
    const { rows } = await db.pool.query<{ table: string }>(
      "SELECT DISTINCT c.relname AS table FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname LIKE 'scheduled_rows_notify_%' ORDER BY 1",
    );
    expect(rows.map((row) => row.table)).toEqual(['canaries', 'config_scrapers', 'playbook_schedules', 'topologies']);
  });
});
