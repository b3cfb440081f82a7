import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../app';
import { createTestApp, type TestApp } from '../../../../../test/app';
import { createTestDatabase, type TestDatabase } from '../../../../../test/db';
import { createLogger } from '../../../../platform/logger';
import { seedAgentDatabase, type AgentRows } from '../../testing/fixtures';
import { installOutbox, PUSHED_TABLES, readTableInfo } from '../outbox';
import { Pusher } from '../pusher';
import { waitFor } from './fake-upstream';

/**
 * The agent's pusher against the real upstream (POST /api/agent/push of this app): every pushed table
 * arrives with the same ids, owned by the agent; upstream stops while the agent keeps producing, comes
 * back, and every row arrives once (check results counted once by upstream's rollups).
 */
let upstream: TestApp;
let agentDb: TestDatabase;
let seeded: AgentRows;
let pusher: Pusher | undefined;
let second: FastifyInstance | undefined;
let agentId: string;
let token: string;
let base: string;
const log = createLogger('silent');

beforeAll(async () => {
  upstream = await createTestApp();
  base = await upstream.listen();
  const res = await upstream.app.inject({ method: 'POST', url: '/api/agent/generate', headers: upstream.adminHeaders, payload: { name: 'edge-1' } });
  expect(res.statusCode, res.body).toBe(200);
  ({ id: agentId, access_token: token } = res.json<{ id: string; access_token: string }>());
  agentDb = await createTestDatabase();
  seeded = await seedAgentDatabase(agentDb.pool);
}, 60_000);

afterAll(async () => {
  await pusher?.stop();
  await second?.close();
  await agentDb?.drop();
  await upstream?.close();
});

/** Every key of a pushed table on one side (agent: all rows; upstream: the rows this agent owns or its children). */
async function keys(db: TestDatabase, table: string): Promise<string[]> {
  const info = (await readTableInfo(db.pool)).get(table as (typeof PUSHED_TABLES)[number]);
  const columns = info!.key.map((column) => `t."${column.name}"::text`).join(` || '|' || `);
  const { rows } = await db.pool.query<{ k: string }>(`SELECT ${columns} AS k FROM "${table}" t ORDER BY 1`);
  return rows.map((row) => row.k);
}

async function queueDepth(): Promise<number> {
  return Number((await agentDb.pool.query<{ n: string }>('SELECT count(*) AS n FROM agent_push_queue')).rows[0]?.n);
}

describe('agent → upstream', () => {
  it('pushes the whole state of a new agent: every table, same ids, agent_id upstream', async () => {
    const { refilled } = await installOutbox(agentDb.pool, { upstream: base, agentName: 'edge-1' });
    expect(refilled).toBeGreaterThanOrEqual(PUSHED_TABLES.length);
    pusher = new Pusher({ pool: agentDb.pool, log, upstream: { url: base, token, agentName: 'edge-1', heartbeatSeconds: 30, pushIntervalMs: 50 }, minBackoffMs: 50, maxBackoffMs: 500 });
    await pusher.start();
    await waitFor('the queue to drain', async () => (await queueDepth()) === 0, 20_000);
    for (const table of PUSHED_TABLES) {
      const agentKeys = await keys(agentDb, table);
      const upstreamKeys = await keys(upstream.db, table);
      for (const key of agentKeys) expect(upstreamKeys, table).toContain(key);
    }
    const owned = await upstream.db.pool.query<{ agent_id: string }>('SELECT agent_id FROM checks WHERE id = $1', [seeded.ids.check]);
    expect(owned.rows[0]?.agent_id).toBe(agentId);
    const agent = await upstream.db.pool.query<{ last_seen: Date | null; last_received: Date | null }>('SELECT last_seen, last_received FROM agents WHERE id = $1', [agentId]);
    expect(agent.rows[0]?.last_seen).not.toBeNull();
    expect(agent.rows[0]?.last_received).not.toBeNull();
    const status = await agentDb.pool.query('SELECT last_error, agent_id FROM agent_push_state');
    expect(status.rows[0]).toEqual({ last_error: null, agent_id: agentId });
  });

  it('upstream stops while the agent keeps producing; after the restart every result arrives once', async () => {
    const before = Number((await upstream.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM check_statuses WHERE check_id = $1', [seeded.ids.check])).rows[0]?.n);
    const port = Number(new URL(base).port);
    await upstream.app.close();

    // While upstream is down: 200 results of the check, a new config item, a changed one.
    await agentDb.pool.query(
      "INSERT INTO check_statuses (check_id, time, status, duration) SELECT $1, '2025-03-01T00:00:00Z'::timestamptz + make_interval(secs => g * 30), g % 7 <> 0, g FROM generate_series(1, 200) g",
      [seeded.ids.check],
    );
    await agentDb.pool.query("UPDATE checks SET status = 'unhealthy', last_runtime = '2025-03-01T01:40:00Z' WHERE id = $1", [seeded.ids.check]);
    const added = (await agentDb.pool.query<{ id: string }>("INSERT INTO config_items (type, name, config) VALUES ('Kubernetes::Pod', 'late-pod', '{\"a\":1}') RETURNING id")).rows[0]!.id;
    await agentDb.pool.query("UPDATE config_items SET labels = '{\"changed\":\"yes\"}' WHERE id = $1", [seeded.ids.config]);
    await waitFor('failed attempts', () => pusher!.stats.errors >= 2, 10_000);
    expect(await queueDepth()).toBeGreaterThanOrEqual(203);
    const state = await agentDb.pool.query<{ last_error: string }>('SELECT last_error FROM agent_push_state');
    expect(state.rows[0]?.last_error).toBeTruthy();

    // The upstream comes back on the same address (same database).
    const rebuilt = await buildApp({ config: upstream.context.config, pool: upstream.db.pool, log });
    second = rebuilt.app;
    await second.listen({ port, host: '127.0.0.1' });
    await waitFor('the queue to drain', async () => (await queueDepth()) === 0, 30_000);

    const after = await upstream.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM check_statuses WHERE check_id = $1', [seeded.ids.check]);
    expect(Number(after.rows[0]?.n)).toBe(before + 200);
    // Counted once by upstream's rollups: the day rollup totals equal the stored results.
    const rollup = await upstream.db.pool.query<{ passed: string; failed: string }>(
      "SELECT passed::text, failed::text FROM check_rollups_10m WHERE check_id = $1 ORDER BY bucket DESC LIMIT 1",
      [seeded.ids.check],
    );
    const counts = await upstream.db.pool.query<{ passed: string; failed: string }>(
      'SELECT count(*) FILTER (WHERE status)::text AS passed, count(*) FILTER (WHERE NOT status)::text AS failed FROM check_statuses WHERE check_id = $1',
      [seeded.ids.check],
    );
    expect(rollup.rows[0]).toEqual(counts.rows[0]);
    const check = await upstream.db.pool.query<{ status: string }>('SELECT status FROM checks WHERE id = $1', [seeded.ids.check]);
    expect(check.rows[0]?.status).toBe('unhealthy');
    const configs = await upstream.db.pool.query<{ id: string; labels: Record<string, string>; agent_id: string }>('SELECT id, labels, agent_id FROM config_items WHERE id = ANY($1) ORDER BY name', [[added, seeded.ids.config]]);
    expect(configs.rows).toHaveLength(2);
    expect(configs.rows.every((row) => row.agent_id === agentId)).toBe(true);
    expect(configs.rows.find((row) => row.id === seeded.ids.config)?.labels).toEqual({ changed: 'yes' });
    expect((await agentDb.pool.query('SELECT last_error FROM agent_push_state')).rows[0]).toEqual({ last_error: null });
    expect(Number((await agentDb.pool.query<{ n: string }>('SELECT count(*) AS n FROM agent_push_failures')).rows[0]?.n)).toBe(0);
  });

  it('a hard delete on the agent removes the row upstream', async () => {
    const gone = (await agentDb.pool.query<{ id: string }>("INSERT INTO config_items (type, name) VALUES ('Kubernetes::Pod', 'short-lived') RETURNING id")).rows[0]!.id;
    await waitFor('the config pushed', async () => (await upstream.db.pool.query('SELECT 1 FROM config_items WHERE id = $1', [gone])).rowCount === 1, 10_000);
    await agentDb.pool.query('DELETE FROM config_items WHERE id = $1', [gone]);
    await waitFor('the delete pushed', async () => (await upstream.db.pool.query('SELECT 1 FROM config_items WHERE id = $1', [gone])).rowCount === 0, 10_000);
  });
});
