import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/db';
import { runSystemJobOnce } from '../../../platform/jobs/testing';
import { ensurePartitions, listPartitions } from '../partitions';
import { checkStatusPartitionsJob } from '../retention';

/** check_statuses partitioned by UTC day (migration 0043): the partitions ahead, the default partition, and who reaches them. */
let db: TestDatabase;
const checkId = '55555555-5555-4555-8555-555555555555';

beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query(`INSERT INTO canaries (id, name) VALUES ('66666666-6666-4666-8666-666666666666', 'parts')`);
  await db.pool.query(`INSERT INTO checks (id, canary_id, key, type, name) VALUES ($1, '66666666-6666-4666-8666-666666666666', 'tcp/p', 'tcp', 'p')`, [checkId]);
});

afterAll(async () => {
  await db?.drop();
});

const one = async <T>(sql: string, values: unknown[] = []) => (await db.pool.query(sql, values)).rows[0] as T;
const dayName = (offsetDays: number) => `check_statuses_${new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '')}`;
const totals = async () => Number((await one<{ n: string }>('SELECT passed + failed AS n FROM check_totals WHERE check_id = $1', [checkId]))?.n ?? 0);
const partOf = async (time: string) =>
  (await one<{ part: string }>(`SELECT tableoid::regclass::text AS part FROM check_statuses WHERE check_id = $1 AND time = ${time}`, [checkId]))?.part;

describe('check history partitions', () => {
  it('has a partition for today and each of the next 7 UTC days, and a default one', async () => {
    const partitions = await listPartitions(db.pool);
    const names = partitions.map((partition) => partition.name);
    for (let day = 0; day <= 7; day += 1) expect(names).toContain(dayName(day));
    expect(names.at(-1)).toBe('check_statuses_default');
    const today = partitions.find((partition) => partition.name === dayName(0));
    expect(today?.from?.toISOString()).toBe(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`);
    expect((today?.to?.getTime() ?? 0) - (today?.from?.getTime() ?? 0)).toBe(86_400_000);
  });

  it('takes a result of any day: one without its partition waits in the default one, and moves into its partition once made, counted once', async () => {
    await db.pool.query(
      `INSERT INTO check_statuses (check_id, time, status, duration) VALUES
         ($1, '2024-02-29T12:00:00Z', false, 9), ($1, now() - interval '12 days', true, 8), ($1, now() + interval '20 days', true, 7), ($1, now(), true, 6)`,
      [checkId],
    );
    expect(await totals()).toBe(4);
    expect(await partOf("'2024-02-29T12:00:00Z'")).toBe('check_history.check_statuses_default');
    expect(await partOf("(SELECT min(time) FROM check_statuses WHERE time > now() - interval '13 days')")).toBe('check_history.check_statuses_default');
    expect(await partOf("(SELECT max(time) FROM check_statuses)")).toBe('check_history.check_statuses_default');
    expect(await partOf("(SELECT max(time) FROM check_statuses WHERE time <= now())")).toBe(`check_history.${dayName(0)}`);

    // The daily job: days within the retention (30 days) that wait in the default partition get theirs.
    const run = await runSystemJobOnce<{ made: string[]; days_ahead: number }>(db.pool, db.url, checkStatusPartitionsJob());
    expect(run).toMatchObject({ status: 'SUCCESS', success_count: 1, details: { summary: { made: [dayName(-12)], days_ahead: 7 } } });
    expect(await partOf("(SELECT min(time) FROM check_statuses WHERE time > now() - interval '13 days')")).toBe(`check_history.${dayName(-12)}`);
    // A day before the retention and one beyond the week ahead stay in the default partition.
    expect((await one<{ n: number }>('SELECT count(*)::int AS n FROM check_history.check_statuses_default'))?.n).toBe(2);
    // Moving rows is not a new result: the rollups count each once.
    expect(await totals()).toBe(4);
    expect((await one<{ n: number }>('SELECT count(*)::int AS n FROM check_statuses WHERE check_id = $1', [checkId]))?.n).toBe(4);

    // Twenty days later the week ahead reaches the future result: it moves as its partition is made.
    expect(await ensurePartitions(db.pool, { daysAhead: 21 })).toContain(dayName(20));
    expect(await partOf("(SELECT max(time) FROM check_statuses)")).toBe(`check_history.${dayName(20)}`);
    expect(await ensurePartitions(db.pool, { daysAhead: 21 })).toEqual([]);
    expect(await totals()).toBe(4);
  });

  it('refuses a negative number of days ahead, naming it', async () => {
    await expect(ensurePartitions(db.pool, { daysAhead: -1 })).rejects.toThrow('days_ahead must be 0 or more, not -1');
  });

  it('reaches an organization only through check_statuses and its policy, never the partitions', async () => {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL ROLE watchkeeper_tenant');
      await client.query("SELECT set_config('watchkeeper.organization', '77777777-7777-4777-8777-777777777777', true)");
      expect((await client.query('SELECT count(*)::int AS n FROM check_statuses')).rows[0]?.n).toBe(0);
      await expect(client.query(`SELECT count(*) FROM check_history.${dayName(0)}`)).rejects.toThrow('permission denied for schema check_history');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
