import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../../test/app';
import { installOutbox } from '../outbox';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { WATCHKEEPER_UPSTREAM: 'http://127.0.0.1:9', WATCHKEEPER_AGENT_NAME: 'edge-1', WATCHKEEPER_UPSTREAM_TOKEN: 'secret-token' } });
});

afterAll(async () => {
  await t?.close();
});

describe('GET /api/agent/status', () => {
  it('needs a signed-in reader of the database', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/agent/status' })).statusCode).toBe(401);
    const nobody = await t.userWith([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/agent/status', headers: nobody.headers })).statusCode).toBe(403);
  });

  it('shows the queue, the last push and the dead letters, never the token', async () => {
    await installOutbox(t.db.pool, { upstream: 'http://127.0.0.1:9', agentName: 'edge-1' });
    await t.db.pool.query('DELETE FROM agent_push_queue');
    await t.db.pool.query("INSERT INTO canaries (name) VALUES ('a'), ('b')");
    await t.db.pool.query("UPDATE agent_push_state SET last_push_at = '2025-01-01T00:00:00Z', last_error = 'upstream answered 503: down', pushed_total = 12");
    await t.db.pool.query("INSERT INTO agent_push_failures (table_name, row_key, op, row_data, reason) VALUES ('checks', '{\"id\":\"x\"}', 'upsert', '{}', '400: upserts.checks[0]: bad')");
    const res = await t.app.inject({ method: 'GET', url: '/api/agent/status', headers: t.adminHeaders });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain('secret-token');
    const body = res.json();
    expect(body).toMatchObject({
      upstream: 'http://127.0.0.1:9',
      agent_name: 'edge-1',
      queue_depth: 2,
      last_push_at: '2025-01-01T00:00:00.000Z',
      last_error: 'upstream answered 503: down',
      pushed_total: 12,
      failures_total: 1,
      failures: [{ table: 'checks', key: { id: 'x' }, op: 'upsert', reason: '400: upserts.checks[0]: bad' }],
    });
    expect(typeof body.oldest_queued_at).toBe('string');
  });
});
