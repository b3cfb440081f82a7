import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { runningVersion } from '../../../platform/version';

const NIL = '00000000-0000-0000-0000-000000000000';

/**
 * Issue 38: Jobs History links a local run's agent to /settings/agents?id=<nil uuid>; agents_summary leaves
 * the local agent out, so GET /api/agent/local answers it in the same shape.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  const pool = t.context.pool;
  const canary = (await pool.query<{ id: string }>("INSERT INTO canaries (name) VALUES ('local-one') RETURNING id")).rows[0]!.id;
  await pool.query("INSERT INTO checks (canary_id, key, type, name) VALUES ($1, 'http/a', 'http', 'a'), ($1, 'http/b', 'http', 'b')", [canary]);
  // Deleted rows and another agent's rows are not the local agent's.
  await pool.query("INSERT INTO checks (canary_id, key, type, name, deleted_at) VALUES ($1, 'http/c', 'http', 'c', now())", [canary]);
  const other = (await pool.query<{ id: string }>("INSERT INTO agents (name) VALUES ('edge-9') RETURNING id")).rows[0]!.id;
  await pool.query("INSERT INTO canaries (name, agent_id) VALUES ('remote-one', $1)", [other]);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/agent/local', () => {
  it("answers the local agent as an agents_summary row: this instance, online, this server's version, what it runs", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/agent/local', headers: t.adminHeaders });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: NIL,
      name: 'local',
      description: 'This instance',
      health: 'online',
      local: true,
      version: runningVersion().backend,
      canaries: 1,
      checks: 2,
      configs: 0,
      scrapers: 0,
      topologies: 0,
    });
    // agents_summary still lists only the remote agents (the Agents page's list).
    const summary = await t.app.inject({ method: 'GET', url: '/api/db/agents_summary?select=id', headers: t.adminHeaders });
    expect(summary.json<Array<{ id: string }>>().map((row) => row.id)).not.toContain(NIL);
  });

  it('needs read on agents', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/agent/local' })).statusCode).toBe(401);
    const guest = await t.userWith([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/agent/local', headers: guest.headers })).statusCode).toBe(403);
    const viewer = await t.userWith(['viewer']);
    expect((await t.app.inject({ method: 'GET', url: '/api/agent/local', headers: viewer.headers })).statusCode).toBe(200);
  });
});
