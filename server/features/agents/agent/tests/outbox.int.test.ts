import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../../test/db';
import { dequeue, installOutbox, loadRows, PUSHED_TABLES, readQueue, readTableInfo, removeOutbox } from '../outbox';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

async function queue(): Promise<Array<{ table_name: string; row_key: Record<string, unknown>; op: string }>> {
  return (await db.pool.query('SELECT table_name, row_key, op FROM agent_push_queue ORDER BY seq')).rows;
}

async function triggerCount(): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_trigger WHERE tgname LIKE 'agent_push_%' AND NOT tgisinternal");
  return rows[0]?.n ?? 0;
}

describe('agent outbox', () => {
  it('reads every pushed table primary key from the database', async () => {
    const info = await readTableInfo(db.pool);
    expect([...info.keys()].sort()).toEqual([...PUSHED_TABLES].sort());
    expect(info.get('check_statuses')?.key.map((column) => column.name)).toEqual(['check_id', 'time']);
    expect(info.get('config_relationships')?.key.map((column) => column.name)).toEqual(['config_id', 'related_id', 'selector_id']);
    expect(info.get('check_config_relationships')?.key.map((column) => column.name)).toEqual(['check_id', 'config_id']);
    expect(info.get('checks')?.key).toEqual([{ name: 'id', type: 'uuid' }]);
    expect(info.get('canaries')?.hasSpec).toBe(true);
    expect(info.get('config_items')?.hasSpec).toBe(false);
  });

  it('a first install queues every existing row, parents first; a second install with the same target queues nothing', async () => {
    const canary = (await db.pool.query<{ id: string }>("INSERT INTO canaries (name, spec) VALUES ('before', '{\"http\":[{\"password\":\"s3cret\"}]}') RETURNING id")).rows[0]!.id;
    await db.pool.query("INSERT INTO checks (canary_id, key, type, name) VALUES ($1, 'http/a', 'http', 'a')", [canary]);
    const first = await installOutbox(db.pool, { upstream: 'http://upstream.test', agentName: 'edge-1' });
    expect(first.refilled).toBeGreaterThanOrEqual(2);
    const rows = await queue();
    const canaryAt = rows.findIndex((row) => row.table_name === 'canaries' && row.row_key.id === canary);
    const checkAt = rows.findIndex((row) => row.table_name === 'checks');
    expect(canaryAt).toBeGreaterThanOrEqual(0);
    expect(checkAt).toBeGreaterThan(canaryAt);
    expect(await triggerCount()).toBe(PUSHED_TABLES.length * 3);

    const again = await installOutbox(db.pool, { upstream: 'http://upstream.test', agentName: 'edge-1' });
    expect(again.refilled).toBe(0);
    expect((await queue()).length).toBe(rows.length);

    // Another upstream: the queue is refilled for it (its rows replace the old queue, none twice).
    const moved = await installOutbox(db.pool, { upstream: 'http://other.test', agentName: 'edge-1' });
    expect(moved.refilled).toBe(first.refilled);
    expect((await queue()).length).toBe(first.refilled);
    await db.pool.query('DELETE FROM agent_push_queue');
  });

  it('inserts, updates and deletes queue their keys; an update that changes nothing queues nothing', async () => {
    const canary = (await db.pool.query<{ id: string }>("INSERT INTO canaries (name) VALUES ('c1') RETURNING id")).rows[0]!.id;
    const check = (await db.pool.query<{ id: string }>("INSERT INTO checks (canary_id, key, type, name) VALUES ($1, 'http/x', 'http', 'x') RETURNING id", [canary])).rows[0]!.id;
    await db.pool.query(
      "INSERT INTO check_statuses (check_id, time, status, duration) SELECT $1, '2024-05-01T10:00:00.123456Z'::timestamptz + make_interval(secs => g), true, 5 FROM generate_series(0, 2) g",
      [check],
    );
    let rows = await queue();
    expect(rows.map((row) => `${row.table_name}:${row.op}`)).toEqual(['canaries:upsert', 'checks:upsert', 'check_statuses:upsert', 'check_statuses:upsert', 'check_statuses:upsert']);
    expect(rows[2]?.row_key).toEqual({ check_id: check, time: expect.stringMatching(/^2024-05-01T10:00:00\.123456/) });

    await db.pool.query('DELETE FROM agent_push_queue');
    // Same bytes: nothing queued (the rollup trigger's own writes are not pushed tables).
    await db.pool.query('UPDATE check_statuses SET status = status WHERE check_id = $1', [check]);
    expect(await queue()).toEqual([]);
    await db.pool.query("UPDATE checks SET status = 'healthy' WHERE id = $1", [check]);
    expect((await queue()).map((row) => `${row.table_name}:${row.op}`)).toEqual(['checks:upsert']);

    await db.pool.query('DELETE FROM agent_push_queue');
    // A hard delete of the canary cascades: every row gone is queued as a delete.
    await db.pool.query('DELETE FROM canaries WHERE id = $1', [canary]);
    rows = await queue();
    expect(rows.every((row) => row.op === 'delete')).toBe(true);
    expect(rows.map((row) => row.table_name).sort()).toEqual(['canaries', 'check_statuses', 'check_statuses', 'check_statuses', 'checks']);
    await db.pool.query('DELETE FROM agent_push_queue');
  });

  it('coalesces a key queued many times, loads the current row (secrets redacted) and treats a missing row as a delete', async () => {
    const canary = (await db.pool.query<{ id: string }>("INSERT INTO canaries (name, spec) VALUES ('c2', '{\"http\":[{\"url\":\"https://x\",\"password\":\"hunter2\"}]}') RETURNING id")).rows[0]!.id;
    for (let i = 0; i < 5; i += 1) await db.pool.query('UPDATE canaries SET labels = $2 WHERE id = $1', [canary, JSON.stringify({ n: String(i) })]);
    const gone = (await db.pool.query<{ id: string }>("INSERT INTO canaries (name) VALUES ('gone') RETURNING id")).rows[0]!.id;
    await db.pool.query('DELETE FROM canaries WHERE id = $1', [gone]);
    await db.pool.query("INSERT INTO agent_push_queue (table_name, row_key, op) VALUES ('canaries', $1, 'upsert')", [JSON.stringify({ id: canary })]);

    const pending = await readQueue(db.pool, 2000);
    expect(pending.map((row) => [row.table, row.key.id, row.seqs.length])).toEqual([
      ['canaries', canary, 7],
      ['canaries', gone, 2],
    ]);
    await loadRows(db.pool, await readTableInfo(db.pool), pending);
    const row = JSON.parse(pending[0]!.row!) as Record<string, unknown>;
    expect(row.id).toBe(canary);
    expect(row.labels).toEqual({ n: '4' });
    expect(JSON.stringify(row.spec)).not.toContain('hunter2');
    expect(pending[1]!.row).toBeUndefined();

    // A change queued after the read stays queued when the read rows are dequeued.
    await db.pool.query("UPDATE canaries SET labels = '{\"n\":\"late\"}' WHERE id = $1", [canary]);
    await dequeue(db.pool, pending);
    expect((await queue()).map((entry) => entry.row_key.id)).toEqual([canary]);
    await db.pool.query('DELETE FROM agent_push_queue');
  });

  it('loads rows by composite keys with microsecond times', async () => {
    const canary = (await db.pool.query<{ id: string }>("INSERT INTO canaries (name) VALUES ('c3') RETURNING id")).rows[0]!.id;
    const check = (await db.pool.query<{ id: string }>("INSERT INTO checks (canary_id, key, type, name) VALUES ($1, 'http/y', 'http', 'y') RETURNING id", [canary])).rows[0]!.id;
    await db.pool.query("INSERT INTO check_statuses (check_id, time, status) VALUES ($1, '2024-05-01T10:00:00.000001Z', true), ($1, '2024-05-01T10:00:00.000002Z', false)", [check]);
    const pending = (await readQueue(db.pool, 2000)).filter((row) => row.table === 'check_statuses');
    expect(pending).toHaveLength(2);
    await loadRows(db.pool, await readTableInfo(db.pool), pending);
    expect(pending.map((row) => (JSON.parse(row.row!) as { status: boolean }).status)).toEqual([true, false]);
    await db.pool.query('DELETE FROM agent_push_queue');
  });

  it('a plain console start drops the triggers and the queue; writes then queue nothing', async () => {
    await db.pool.query("INSERT INTO canaries (name) VALUES ('c4')");
    expect(await removeOutbox(db.pool)).toBe(true);
    expect(await triggerCount()).toBe(0);
    expect(await queue()).toEqual([]);
    await db.pool.query("INSERT INTO canaries (name) VALUES ('c5')");
    expect(await queue()).toEqual([]);
    expect(await removeOutbox(db.pool)).toBe(false);
    // Back as an agent: the missing triggers mean a refill, so what was written meanwhile is pushed.
    const back = await installOutbox(db.pool, { upstream: 'http://other.test', agentName: 'edge-1' });
    expect(back.refilled).toBeGreaterThan(0);
    const names = (await db.pool.query<{ name: string }>("SELECT c.name FROM agent_push_queue q JOIN canaries c ON q.table_name = 'canaries' AND c.id = (q.row_key->>'id')::uuid")).rows.map((row) => row.name);
    expect(names).toContain('c5');
  });
});
