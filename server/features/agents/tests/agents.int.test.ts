import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createTestDatabase, type TestDatabase } from '../../../../test/db';
import { dumpTables, seedAgentDatabase, type AgentRows } from '../testing/fixtures';

const NIL = '00000000-0000-0000-0000-000000000000';

interface Generated {
  id: string;
  name: string;
  person_id: string;
  access_token: string;
  username: string;
  upstream: string;
  command: string;
  helm_values: string;
  rotated: boolean;
  previousTokenValidUntil: string | null;
  previousTokenGraceSeconds: number;
}

let t: TestApp;
let agentDb: TestDatabase;
let seeded: AgentRows;

async function generate(payload: unknown, headers = t.adminHeaders) {
  return t.app.inject({ method: 'POST', url: '/api/agent/generate', headers, payload: payload as Record<string, unknown> });
}

function push(token: string, body: unknown) {
  return t.app.inject({ method: 'POST', url: '/api/agent/push', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
}

async function summary(name: string): Promise<Record<string, unknown> | undefined> {
  const res = await t.app.inject({ method: 'GET', url: `/api/db/agents_summary?name=eq.${name}`, headers: t.adminHeaders });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Array<Record<string, unknown>>>()[0];
}

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://console.example.com' } });
  agentDb = await createTestDatabase();
  seeded = await seedAgentDatabase(agentDb.pool);
}, 60_000);

afterAll(async () => {
  await agentDb?.drop();
  await t?.close();
});

describe('POST /api/agent/generate', () => {
  it('makes the agent, its person and an agent-push token, and answers how to start it', async () => {
    const res = await generate({ name: 'edge-1', properties: { region: 'eu' } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<Generated>();
    expect(body).toMatchObject({ name: 'edge-1', username: 'token', upstream: 'https://console.example.com' });
    expect(body.access_token).toMatch(/^wk_at_/);
    expect(body.command).toBe(`watchkeeper serve --upstream https://console.example.com --agent-name edge-1 --token ${body.access_token}`);
    expect(body.helm_values).toContain('url: "https://console.example.com"');
    expect(body.helm_values).toContain('agentName: "edge-1"');
    expect(body.helm_values).toContain(`value: "${body.access_token}"`);
    const { rows } = await t.db.pool.query(
      `SELECT a.properties, a.person_id, p.type, p.name, tk.name AS token_name, tk.scopes
         FROM agents a JOIN people p ON p.id = a.person_id JOIN access_tokens tk ON tk.person_id = p.id WHERE a.id = $1`,
      [body.id],
    );
    expect(rows).toEqual([{ properties: { region: 'eu' }, person_id: body.person_id, type: 'agent', name: 'edge-1', token_name: 'agent-edge-1', scopes: [{ object: 'agent-push', action: '*' }] }]);
  });

  it('a second generate for the name rotates: same agent, new token, the old one still pushes during the grace period', async () => {
    const first = (await generate({ name: 'rotating' })).json<Generated>();
    expect(first).toMatchObject({ rotated: false, previousTokenValidUntil: null });
    const second = (await generate({ name: 'rotating' })).json<Generated>();
    expect(second.id).toBe(first.id);
    expect(second.person_id).toBe(first.person_id);
    expect(second.access_token).not.toBe(first.access_token);
    // The earlier token stops working 5 minutes later (test/security/tokens-and-agents.int.test.ts waits one out).
    expect(second).toMatchObject({ rotated: true, previousTokenGraceSeconds: 300, previousTokenValidUntil: expect.any(String) });
    const { rows } = await t.db.pool.query<{ expires_at: Date | null }>("SELECT expires_at FROM access_tokens WHERE name = 'agent-rotating' ORDER BY created_at");
    expect(rows.map((row) => row.expires_at?.toISOString() ?? null)).toEqual([second.previousTokenValidUntil, null]);
    for (const token of [first.access_token, second.access_token]) {
      const res = await push(token, { agent: { name: 'rotating' } });
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('the token works for the push and for nothing else', async () => {
    const { access_token: token } = (await generate({ name: 'narrow' })).json<Generated>();
    expect((await push(token, { agent: { name: 'narrow' } })).statusCode).toBe(200);
    for (const url of ['/api/db/agents', '/api/db/checks', '/api/auth/whoami', '/api/auth/tokens', '/api/db/agents_summary']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode, url).toBe(401);
    }
    const basic = Buffer.from(`token:${token}`).toString('base64');
    const res = await t.app.inject({ method: 'POST', url: '/api/agent/push', headers: { authorization: `Basic ${basic}` }, payload: { agent: { name: 'narrow' } } });
    expect(res.statusCode).toBe(200);
    const other = await t.app.inject({ method: 'POST', url: '/api/agent/generate', headers: { authorization: `Bearer ${token}` }, payload: { name: 'sneaky' } });
    expect(other.statusCode).toBe(401);
  });

  it('400 naming name for a bad name, the local agent\'s name, or none', async () => {
    for (const payload of [{}, { name: '' }, { name: 'Edge_1' }, { name: '-edge' }, { name: 'a'.repeat(64) }, { name: 'local' }]) {
      const res = await generate(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toContain('name');
    }
    expect((await t.db.pool.query("SELECT count(*)::int AS n FROM agents WHERE name IN ('Edge_1', '-edge')")).rows[0].n).toBe(0);
  });

  it('needs write on agents, and the capability agent_tokens (issue 35)', async () => {
    const viewer = await t.userWith(['viewer']);
    const res = await generate({ name: 'viewer-made' }, viewer.headers);
    expect(res.statusCode).toBe(403);
    const editor = await t.userWith(['editor']);
    const refused = await generate({ name: 'editor-made' }, editor.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'forbidden', details: { error: 'capability_required', capabilities: ['agent_tokens'] } });
    const list = await t.app.inject({ method: 'GET', url: '/api/db/agents_summary', headers: viewer.headers });
    expect(list.statusCode).toBe(200);
  });
});

describe('agents_summary', () => {
  it('lists agents (not the local one) with counts, online until 3 heartbeats are missed', async () => {
    const made = (await generate({ name: 'counted' })).json<Generated>();
    expect(await summary('counted')).toMatchObject({ id: made.id, health: 'offline', checks: 0, configs: 0, last_seen: null });
    const rows = await dumpTables(agentDb.pool);
    const res = await push(made.access_token, { agent: { name: 'counted', version: '1.2.3', hostname: 'edge-host', heartbeat_seconds: 2 }, upserts: rows });
    expect(res.statusCode, res.body).toBe(200);
    expect(await summary('counted')).toMatchObject({
      health: 'online',
      version: '1.2.3',
      hostname: 'edge-host',
      heartbeat_seconds: 2,
      checks: 2,
      configs: 2,
      canaries: 1,
      scrapers: 1,
      topologies: 1,
      person_id: made.person_id,
    });
    // 2 missed heartbeats: still online; past 3: offline.
    await t.db.pool.query("UPDATE agents SET last_seen = now() - interval '5 seconds' WHERE id = $1", [made.id]);
    expect((await summary('counted'))?.health).toBe('online');
    await t.db.pool.query("UPDATE agents SET last_seen = now() - interval '7 seconds' WHERE id = $1", [made.id]);
    expect((await summary('counted'))?.health).toBe('offline');
    expect((await push(made.access_token, { agent: { name: 'counted' } })).statusCode).toBe(200);
    expect((await summary('counted'))?.health).toBe('online');
    const all = await t.app.inject({ method: 'GET', url: '/api/db/agents_summary?select=id,name', headers: t.adminHeaders });
    expect(all.json<Array<{ id: string }>>().map((row) => row.id)).not.toContain(NIL);
  });
});

describe('DELETE /api/agent/{id}', () => {
  it('without cleanup: the agent goes, its tokens stop working, its resources stay', async () => {
    const made = (await generate({ name: 'keep-things' })).json<Generated>();
    const rows = await dumpTables(agentDb.pool, ['canaries', 'job_history']);
    const canary = { ...rows.canaries[0], id: '5d1f1a3e-1111-4c3a-9a55-000000000001', name: 'kept' };
    expect((await push(made.access_token, { agent: { name: 'keep-things' }, upserts: { canaries: [canary] } })).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/agent/${made.id}`, headers: t.adminHeaders });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: made.id, name: 'keep-things', cleanup: false, tokens_revoked: 1, cleaned: {} });
    expect((await push(made.access_token, { agent: { name: 'keep-things' } })).statusCode).toBe(401);
    expect((await t.db.pool.query('SELECT deleted_at IS NULL AS alive FROM canaries WHERE id = $1', [canary.id])).rows[0]).toEqual({ alive: true });
    expect(await summary('keep-things')).toBeUndefined();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/agent/${made.id}`, headers: t.adminHeaders })).statusCode).toBe(404);
  });

  it('with cleanup: its canaries, checks, scrapers, configs, topologies and components are soft-deleted', async () => {
    const made = (await generate({ name: 'clean-me' })).json<Generated>();
    // A fresh agent database: the same rows under new ids are pushed by this agent.
    const db = await createTestDatabase();
    try {
      await seedAgentDatabase(db.pool);
      expect((await push(made.access_token, { agent: { name: 'clean-me' }, upserts: await dumpTables(db.pool) })).statusCode).toBe(200);
    } finally {
      await db.drop();
    }
    const res = await t.app.inject({ method: 'DELETE', url: `/api/agent/${made.id}?cleanup=true`, headers: t.adminHeaders });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      id: made.id,
      name: 'clean-me',
      cleanup: true,
      tokens_revoked: 1,
      cleaned: { canaries: 1, checks: 2, config_scrapers: 1, config_items: 2, topologies: 1, components: 2 },
    });
    for (const table of ['canaries', 'checks', 'config_scrapers', 'config_items', 'topologies', 'components']) {
      const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE agent_id = $1 AND deleted_at IS NULL`, [made.id]);
      expect(rows[0].n, table).toBe(0);
    }
    // Another agent's rows are untouched.
    expect((await t.db.pool.query('SELECT count(*)::int AS n FROM checks WHERE id = $1 AND deleted_at IS NULL', [seeded.ids.check])).rows[0].n).toBe(1);
  });

  it('the local agent: 400; a bad id: 400; needs delete on agents', async () => {
    const local = await t.app.inject({ method: 'DELETE', url: `/api/agent/${NIL}`, headers: t.adminHeaders });
    expect(local.statusCode).toBe(400);
    expect(local.json().message).toContain('local agent');
    expect((await t.app.inject({ method: 'DELETE', url: '/api/agent/nope', headers: t.adminHeaders })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/agent/${NIL}?cleanup=maybe`, headers: t.adminHeaders })).json().message).toContain('cleanup');
    const made = (await generate({ name: 'guarded' })).json<Generated>();
    const viewer = await t.userWith(['viewer']);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/agent/${made.id}`, headers: viewer.headers })).statusCode).toBe(403);
  });
});
