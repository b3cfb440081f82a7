import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createTestDatabase, type TestDatabase } from '../../../../test/db';
import { PUSH_TABLES, TABLE_DEFS, type PushTable } from '../tables';
import { dumpTables, seedAgentDatabase, type AgentRows } from '../testing/fixtures';

const NIL = '00000000-0000-0000-0000-000000000000';

let t: TestApp;
let agentDb: TestDatabase;
let seeded: AgentRows;
let edge: { id: string; token: string };
let other: { id: string; token: string };

async function generate(name: string): Promise<{ id: string; token: string }> {
  const res = await t.app.inject({ method: 'POST', url: '/api/agent/generate', headers: t.adminHeaders, payload: { name } });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ id: string; access_token: string }>();
  return { id: body.id, token: body.access_token };
}

function push(token: string | undefined, body: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/agent/push',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
}

const agentHeader = (name: string) => ({ name, version: '0.1.0-test', hostname: 'edge-host', heartbeat_seconds: 30 });

async function countOf(table: string, where = 'true', values: unknown[] = []): Promise<number> {
  const { rows } = await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, values);
  return rows[0]?.n ?? 0;
}

/** The upstream rows of every pushed table, keyed by primary key. */
async function upstreamRows(table: PushTable): Promise<Map<string, Record<string, unknown>>> {
  const dump = await dumpTables(t.db.pool, [table]);
  return new Map(dump[table].map((row) => [TABLE_DEFS[table].pk.map((column) => String(row[column])).join('|'), row]));
}

beforeAll(async () => {
  t = await createTestApp();
  agentDb = await createTestDatabase();
  seeded = await seedAgentDatabase(agentDb.pool);
  edge = await generate('edge-1');
  other = await generate('edge-2');
}, 60_000);

afterAll(async () => {
  await agentDb?.drop();
  await t?.close();
});

describe('POST /api/agent/push', () => {
  it('stores every pushed table with the same ids, owned by the agent; people unknown upstream become NULL; scheduled rows never run upstream', async () => {
    const rows = await dumpTables(agentDb.pool);
    for (const table of PUSH_TABLES) expect(rows[table].length, table).toBeGreaterThan(0);
    const res = await push(edge.token, { agent: agentHeader('edge-1'), batch_id: randomUUID(), upserts: rows, deletes: {} });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ agent: { id: string; name: string }; accepted: Record<string, number>; deleted: Record<string, number> }>();
    expect(body.agent).toEqual({ id: edge.id, name: 'edge-1' });
    for (const table of PUSH_TABLES) expect(body.accepted[table], table).toBe(rows[table].length);

    for (const table of PUSH_TABLES) {
      const def = TABLE_DEFS[table];
      const stored = await upstreamRows(table);
      expect(stored.size, table).toBe(rows[table].length);
      for (const sent of rows[table]) {
        const key = def.pk.map((column) => String(sent[column])).join('|');
        const got = stored.get(key);
        expect(got, `${table} ${key}`).toBeDefined();
        for (const [column, value] of Object.entries(sent)) {
          const upstream = got?.[column];
          if (column === 'agent_id') expect(upstream, `${table}.${column}`).toBe(edge.id);
          else if (def.people.includes(column)) expect(upstream, `${table}.${column}`).toBeNull();
          else if (def.scheduled && column === 'next_run_at') expect(upstream, `${table}.${column}`).toBe('infinity');
          else if (def.scheduled && (column === 'lease_owner' || column === 'lease_until')) expect(upstream).toBeNull();
          else expect(upstream, `${table}.${column}`).toEqual(value);
        }
      }
    }
    const { rows: agents } = await t.db.pool.query('SELECT last_seen, last_received, version, hostname, heartbeat_seconds FROM agents WHERE id = $1', [edge.id]);
    expect(agents[0]).toMatchObject({ version: '0.1.0-test', hostname: 'edge-host', heartbeat_seconds: 30 });
    expect(agents[0].last_seen).toBeInstanceOf(Date);
    expect(agents[0].last_received).toBeInstanceOf(Date);
    // An agent's check runs there: Run Now here says so instead of running a copy.
    const checkId = String(rows.checks[0]?.id);
    const runNow = await t.app.inject({ method: 'POST', url: `/api/canary/run/check/${checkId}`, headers: t.adminHeaders });
    expect(runNow.statusCode).toBe(409);
    expect(runNow.json().message).toBe('this check runs on the agent "edge-1" on its schedule; it cannot be run from here');
    // The agent's own resources are changed on the agent: an edit here is refused, naming it.
    const canary = rows.canaries[0] as { id: string; name: string; namespace: string; spec: Record<string, unknown> };
    const edit = await t.app.inject({ method: 'PUT', url: `/api/canary/canaries/${canary.id}`, headers: t.adminHeaders, payload: { name: canary.name, namespace: canary.namespace, spec: { http: [{ name: 'x', url: 'http://127.0.0.1:9/' }] } } });
    expect(edit.statusCode, edit.body).toBe(409);
    expect(edit.json().message).toBe('this canary runs on the agent "edge-1", which pushes it here: change it on that agent');
    const scraper = rows.config_scrapers[0] as { id: string; name: string; namespace: string };
    const editScraper = await t.app.inject({ method: 'PUT', url: `/api/catalog/scrapers/${scraper.id}`, headers: t.adminHeaders, payload: { name: scraper.name, namespace: scraper.namespace, spec: { file: [{ type: 'File', paths: ['/tmp/none.json'] }] } } });
    expect(editScraper.json().message ?? editScraper.body).toMatch(/runs on the agent "edge-1"/);
    // Nor deleted here, even by an admin: its next push would bring it back.
    const remove = await t.app.inject({ method: 'DELETE', url: `/api/canary/canaries/${canary.id}`, headers: t.adminHeaders });
    expect(remove.statusCode, remove.body).toBe(409);
    expect(remove.json().message).toBe('this canary runs on the agent "edge-1", which pushes it here: delete it on that agent');
    const removeScraper = await t.app.inject({ method: 'DELETE', url: `/api/catalog/scrapers/${scraper.id}`, headers: t.adminHeaders });
    expect(removeScraper.statusCode, removeScraper.body).toBe(409);
    const kept = await t.db.pool.query('SELECT count(*)::int AS n FROM canaries WHERE id = $1 AND deleted_at IS NULL', [canary.id]);
    expect(kept.rows[0]?.n).toBe(1);
  });

  it('the same batch twice changes nothing: no duplicate rows, statuses counted once by the rollups, rows not rewritten', async () => {
    const rows = await dumpTables(agentDb.pool);
    const before = await Promise.all(PUSH_TABLES.map((table) => countOf(table)));
    const totals = await t.db.pool.query('SELECT passed, failed FROM check_totals WHERE check_id = $1', [seeded.ids.check]);
    expect(totals.rows[0]).toEqual({ passed: 1, failed: 1 });
    const hourly = await t.db.pool.query('SELECT sum(passed + failed)::int AS n FROM check_rollups_hourly WHERE check_id = $1', [seeded.ids.check]);
    const updatedAt = await t.db.pool.query('SELECT updated_at FROM checks WHERE id = $1', [seeded.ids.check]);
    const res = await push(edge.token, { agent: agentHeader('edge-1'), batch_id: randomUUID(), upserts: rows, deletes: {} });
    expect(res.statusCode, res.body).toBe(200);
    expect(await Promise.all(PUSH_TABLES.map((table) => countOf(table)))).toEqual(before);
    expect((await t.db.pool.query('SELECT passed, failed FROM check_totals WHERE check_id = $1', [seeded.ids.check])).rows[0]).toEqual({ passed: 1, failed: 1 });
    expect((await t.db.pool.query('SELECT sum(passed + failed)::int AS n FROM check_rollups_hourly WHERE check_id = $1', [seeded.ids.check])).rows).toEqual(hourly.rows);
    expect((await t.db.pool.query('SELECT updated_at FROM checks WHERE id = $1', [seeded.ids.check])).rows).toEqual(updatedAt.rows);
  });

  it('a changed row is updated; a new status is counted; deletes remove only the agent\'s rows', async () => {
    await agentDb.pool.query("UPDATE checks SET status = 'unhealthy', description = 'changed' WHERE id = $1", [seeded.ids.check]);
    await agentDb.pool.query("INSERT INTO check_statuses (check_id, time, status, duration) VALUES ($1, '2025-01-02T03:06:05Z', false, 99)", [seeded.ids.check]);
    const rows = await dumpTables(agentDb.pool, ['checks', 'check_statuses']);
    const res = await push(edge.token, {
      agent: agentHeader('edge-1'),
      upserts: rows,
      deletes: { check_config_relationships: [{ check_id: seeded.ids.check, config_id: seeded.ids.config }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deleted).toEqual({ check_config_relationships: 1 });
    const { rows: checks } = await t.db.pool.query('SELECT status, description FROM checks WHERE id = $1', [seeded.ids.check]);
    expect(checks[0]).toEqual({ status: 'unhealthy', description: 'changed' });
    expect((await t.db.pool.query('SELECT passed, failed FROM check_totals WHERE check_id = $1', [seeded.ids.check])).rows[0]).toEqual({ passed: 1, failed: 2 });
    expect(await countOf('check_config_relationships', 'check_id = $1', [seeded.ids.check])).toBe(0);
  });

  it('a canary deleted and made again under the same name in one batch goes in whatever the order sent', async () => {
    const [canary] = (await dumpTables(agentDb.pool, ['canaries'])).canaries;
    const old = { ...canary, id: randomUUID(), name: 'recreated' };
    expect((await push(edge.token, { agent: agentHeader('edge-1'), upserts: { canaries: [old] } })).statusCode).toBe(200);
    const again = { ...old, id: randomUUID() };
    const res = await push(edge.token, { agent: agentHeader('edge-1'), upserts: { canaries: [again, { ...old, deleted_at: '2025-03-01T00:00:00+00:00' }] } });
    expect(res.statusCode, res.body).toBe(200);
    const { rows } = await t.db.pool.query("SELECT id FROM canaries WHERE name = 'recreated' AND deleted_at IS NULL");
    expect(rows).toEqual([{ id: again.id }]);
  });

  it('accepts a gzip body', async () => {
    const job = { ...(await dumpTables(agentDb.pool, ['job_history'])).job_history[0], id: randomUUID(), name: 'gzipped' };
    const body = gzipSync(Buffer.from(JSON.stringify({ agent: agentHeader('edge-1'), upserts: { job_history: [job] } })));
    const res = await push(edge.token, body, { 'content-encoding': 'gzip' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await countOf('job_history', "name = 'gzipped' AND agent_id = $1", [edge.id])).toBe(1);
  });

  it('an empty push is a heartbeat: last_seen moves, last_received does not', async () => {
    await t.db.pool.query("UPDATE agents SET last_seen = now() - interval '1 hour', last_received = now() - interval '1 hour' WHERE id = $1", [edge.id]);
    const res = await push(edge.token, { agent: { name: 'edge-1', heartbeat_seconds: 5 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ agent: { id: edge.id, name: 'edge-1' }, accepted: {}, deleted: {} });
    const { rows } = await t.db.pool.query<{ seen: boolean; received: boolean; heartbeat_seconds: number }>(
      "SELECT last_seen > now() - interval '1 minute' AS seen, last_received > now() - interval '1 minute' AS received, heartbeat_seconds FROM agents WHERE id = $1",
      [edge.id],
    );
    expect(rows[0]).toEqual({ seen: true, received: false, heartbeat_seconds: 5 });
  });
});

describe('who may push', () => {
  it('401 without a token or with an unknown one', async () => {
    expect((await push(undefined, { agent: agentHeader('edge-1') })).statusCode).toBe(401);
    const res = await push('wk_at_not-a-token', { agent: agentHeader('edge-1') });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('unauthorized');
  });

  it('403 for a signed-in user or a user token without agent-push', async () => {
    const session = await t.app.inject({ method: 'POST', url: '/api/agent/push', headers: t.adminHeaders, payload: { agent: agentHeader('edge-1') } });
    expect(session.statusCode).toBe(403);
    expect(session.json()).toEqual({ error: 'forbidden', message: 'this token may not push for an agent (scope agent-push)' });
    const made = await t.app.inject({ method: 'POST', url: '/api/auth/create_token', headers: t.adminHeaders, payload: { name: 'not an agent', scope: [{ object: 'canaries', action: 'read' }] } });
    expect(made.statusCode, made.body).toBe(200);
    const token = made.json<{ payload: { token: string } }>().payload.token;
    const res = await push(token, { agent: agentHeader('edge-1') });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('this token may not push for an agent (scope agent-push)');
  });

  it('403 when the batch names another agent than the token\'s', async () => {
    const res = await push(other.token, { agent: agentHeader('edge-1') });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'forbidden', message: 'push for agent "edge-1" with the token of agent "edge-2"' });
  });

  it('403 for a row another agent owns, and for a row of this instance; nothing written', async () => {
    const rows = await dumpTables(agentDb.pool, ['checks', 'job_history']);
    const fresh = { ...(rows.job_history[0] as Record<string, unknown>), id: randomUUID(), name: 'must not land' };
    const res = await push(other.token, { agent: agentHeader('edge-2'), upserts: { job_history: [fresh], checks: rows.checks } });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(new RegExp(`^upserts\\.checks: checks (${seeded.ids.check}|${seeded.ids.check2}) belongs to agent "edge-1", not to agent "edge-2"$`));
    expect(await countOf('job_history', "name = 'must not land'")).toBe(0);

    const local = randomUUID();
    await t.db.pool.query("INSERT INTO job_history (id, name) VALUES ($1, 'local job')", [local]);
    const mine = await push(edge.token, { agent: agentHeader('edge-1'), upserts: { job_history: [{ ...fresh, id: local }] } });
    expect(mine.statusCode).toBe(403);
    expect(mine.json().message).toContain(`job_history ${local} belongs to local`);
    expect((await t.db.pool.query('SELECT name, agent_id FROM job_history WHERE id = $1', [local])).rows[0]).toEqual({ name: 'local job', agent_id: NIL });

    const status = { check_id: seeded.ids.check, time: '2025-02-01T00:00:00Z', status: true, invalid: false, duration: 1, created_at: '2025-02-01T00:00:00Z' };
    const child = await push(other.token, { agent: agentHeader('edge-2'), upserts: { check_statuses: [status] } });
    expect(child.statusCode).toBe(403);
    expect(child.json().message).toContain(`check_id ${seeded.ids.check}`);

    const deleting = await push(other.token, { agent: agentHeader('edge-2'), deletes: { checks: [{ id: seeded.ids.check }] } });
    expect(deleting.statusCode).toBe(403);
    expect(await countOf('checks', 'id = $1', [seeded.ids.check])).toBe(1);
  });
});

describe('malformed batches', () => {
  it('400 naming what is wrong, nothing written', async () => {
    const cases: Array<[unknown, string]> = [
      [[1, 2], 'body'],
      [{ agent: {}, upserts: {} }, 'agent.name'],
      [{ agent: agentHeader('edge-1'), upserts: { users: [] } }, 'upserts.users'],
      [{ agent: agentHeader('edge-1'), upserts: { checks: {} } }, 'upserts.checks'],
      [{ agent: agentHeader('edge-1'), upserts: { job_history: [{ id: randomUUID(), name: 'ok row' }, 'not a row'] } }, 'upserts.job_history[1]'],
      [{ agent: agentHeader('edge-1'), upserts: { job_history: [{ name: 'no id' }] } }, 'upserts.job_history[0]: id is required'],
    ];
    for (const [body, where] of cases) {
      const res = await push(edge.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe('invalid_request');
      expect(res.json().message).toContain(where);
      expect(Array.isArray(res.json().failed)).toBe(true);
    }
    expect(await countOf('job_history', "name IN ('ok row', 'no id')")).toBe(0);
    const notJson = await push(edge.token, '{"agent":');
    expect(notJson.statusCode).toBe(400);
  });

  it('a value PostgreSQL refuses: 400 with the failed rows, the rest of the batch not written', async () => {
    const rows = await dumpTables(agentDb.pool, ['job_history']);
    const good = { ...(rows.job_history[0] as Record<string, unknown>), id: randomUUID(), name: 'good row' };
    const bad = { ...good, id: randomUUID(), name: 'bad row', status: 'NOT A STATUS' };
    const worse = { ...good, id: randomUUID(), name: 'worse row', time_start: 'yesterday-ish' };
    const canary = { ...(await dumpTables(agentDb.pool, ['canaries'])).canaries[0], id: randomUUID(), name: 'fresh' };
    const res = await push(edge.token, { agent: agentHeader('edge-1'), upserts: { canaries: [canary], job_history: [good, bad, worse] } });
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json<{ message: string; failed: Array<{ table: string; index: number; message: string }> }>();
    expect(body.failed.map((failure) => [failure.table, failure.index])).toEqual([
      ['upserts.job_history', 1],
      ['upserts.job_history', 2],
    ]);
    expect(body.message).toContain('upserts.job_history[1]');
    expect(JSON.stringify(body)).not.toMatch(/INSERT|jsonb_populate_recordset/);
    expect(await countOf('job_history', "name IN ('good row', 'bad row', 'worse row')")).toBe(0);
    expect(await countOf('canaries', 'id = $1', [canary.id])).toBe(0);
  });

  it('400 when a child row points at a parent upstream does not know', async () => {
    const status = { check_id: randomUUID(), time: '2025-02-01T00:00:00Z', status: true, invalid: false, duration: 1, created_at: '2025-02-01T00:00:00Z' };
    const res = await push(edge.token, { agent: agentHeader('edge-1'), upserts: { check_statuses: [status] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().failed).toEqual([{ table: 'upserts.check_statuses', index: 0, message: expect.stringContaining(`check_id ${status.check_id}: no such checks row`) }]);
  });
});
