import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presetScopes } from '../../../../common/rbac';
import { createTestApp, type TestApp } from '../../../../test/app';
import { insertChange, insertInsight, insertItem, relate } from '../../catalog/query/testing';
import { bearer, callTool, connect, tokenFor } from './client';

let t: TestApp;
let base: string;
let adminToken: string;
let viewerToken: string;
let noMcpToken: string;
let podId: string;
let checkId: string;
let incidentId: string;

/** The fields of the tools' JSON answers these tests read (a tool that failed answers text, not JSON). */
interface ToolJson {
  items: Array<{ name: string; number: string; [field: string]: unknown }>;
  next_cursor?: string;
  counts: Record<string, number>;
  hypotheses: unknown[];
  comments: unknown[];
  changes: unknown[];
  insights: unknown[];
  relationships: unknown[];
  id: string;
  number: string;
  status: string;
  run_id: string;
}

const call = (client: Client, name: string, args?: Record<string, unknown>) => callTool<ToolJson>(client, name, args);

beforeAll(async () => {
  t = await createTestApp();
  base = await t.listen();
  adminToken = (await tokenFor(t, ['admin'], presetScopes('Admin'))).token;
  viewerToken = (await tokenFor(t, ['viewer'], presetScopes('Admin'))).token;
  noMcpToken = (await tokenFor(t, ['admin'], presetScopes('Admin').filter((scope) => scope.object !== 'mcp'))).token;
  podId = await insertItem(t.db.pool, { type: 'Kubernetes::Pod', name: 'checkout-7f9', namespace: 'shop', health: 'unhealthy', status: 'CrashLoopBackOff', tags: { cluster: 'prod' } });
  const deployment = await insertItem(t.db.pool, { type: 'Kubernetes::Deployment', name: 'checkout', namespace: 'shop', health: 'healthy' });
  for (let i = 0; i < 5; i += 1) await insertItem(t.db.pool, { type: 'Kubernetes::Pod', name: `cart-${i}`, namespace: 'shop', health: 'healthy' });
  await insertChange(t.db.pool, podId, { change_type: 'BackOff', severity: 'high', summary: 'back-off restarting failed container' });
  await insertInsight(t.db.pool, podId, 'oom', 'reliability');
  await relate(t.db.pool, deployment, podId, 'owns');
  const canary = await t.db.pool.query<{ id: string }>("INSERT INTO canaries (name, namespace) VALUES ('web', 'shop') RETURNING id");
  const check = await t.db.pool.query<{ id: string }>(
    "INSERT INTO checks (canary_id, key, type, name, status, last_runtime) VALUES ($1, 'http/checkout', 'http', 'checkout-api', 'unhealthy', now()) RETURNING id",
    [canary.rows[0]?.id],
  );
  checkId = check.rows[0]!.id;
  await t.db.pool.query(
    "INSERT INTO check_statuses (check_id, time, status, duration, message) SELECT $1, now() - (g || ' minutes')::interval, g % 2 = 0, 100 + g, 'attempt ' || g FROM generate_series(1, 30) g",
    [checkId],
  );
  const incident = await t.db.pool.query<{ id: string }>("INSERT INTO incidents (title, severity, status) VALUES ('Checkout failing', 'high', 'open') RETURNING id");
  incidentId = incident.rows[0]!.id;
  const hypothesis = await t.db.pool.query<{ id: string }>("INSERT INTO hypotheses (incident_id, title) VALUES ($1, 'Pod crash loop') RETURNING id", [incidentId]);
  await t.db.pool.query("INSERT INTO evidences (hypothesis_id, type, description, config_id) VALUES ($1, 'config', 'the pod', $2)", [hypothesis.rows[0]!.id, podId]);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('MCP server', () => {
  it('initializes (latest and 2024-11-05), lists its tools and answers with Bearer auth', async () => {
    const client = await connect(base, adminToken);
    expect(client.getServerVersion()?.name).toBe('watchkeeper');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ['add_comment', 'create_incident', 'get_check_history', 'get_config', 'get_incident', 'get_playbook_run', 'health_summary', 'list_changes', 'list_incidents', 'list_playbooks', 'query_view', 'read_logs', 'run_playbook', 'search_resources'].sort(),
    );
    await client.close();

    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { ...bearer(adminToken), 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'console', version: '1' } } }),
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.result.protocolVersion).toBe('2024-11-05');
    expect(body.result.serverInfo.name).toBe('watchkeeper');
  });

  it('Basic auth with user "token" works; the old protocol version is spoken by the SDK client', async () => {
    const basic = { authorization: `Basic ${Buffer.from(`token:${adminToken}`).toString('base64')}` };
    const client = await connect(base, basic, '2024-11-05');
    const { json } = await call(client, 'search_resources', { query: 'checkout' });
    expect(json.items.map((item: { name: string }) => item.name)).toContain('checkout-7f9');
    await client.close();
  });

  it('search_resources pages with a cursor and filters by type', async () => {
    const client = await connect(base, adminToken);
    const first = await call(client, 'search_resources', { type: 'Kubernetes::Pod', limit: 4 });
    expect(first.json.items).toHaveLength(4);
    expect(first.json.next_cursor).toBeTypeOf('string');
    const second = await call(client, 'search_resources', { type: 'Kubernetes::Pod', limit: 4, cursor: first.json.next_cursor });
    expect(second.json.items).toHaveLength(2);
    expect(second.json.next_cursor).toBeUndefined();
    const names = [...first.json.items, ...second.json.items].map((item: { name: string }) => item.name);
    expect(new Set(names).size).toBe(6);
    expect(names).not.toContain('checkout');
    // No nulls in answers.
    expect(first.text).not.toContain('null');
    const bad = await call(client, 'search_resources', { cursor: 'not-a-cursor' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('cursor');
    await client.close();
  });

  it('get_config answers changes, insights and relationships', async () => {
    const client = await connect(base, adminToken);
    const { json, isError } = await call(client, 'get_config', { id: podId });
    expect(isError).toBe(false);
    expect(json).toMatchObject({ name: 'checkout-7f9', type: 'Kubernetes::Pod', health: 'unhealthy' });
    expect(json.changes[0]).toMatchObject({ change_type: 'BackOff', severity: 'high' });
    expect(json.insights[0]).toMatchObject({ analyzer: 'oom' });
    expect(json.relationships[0]).toMatchObject({ direction: 'incoming', relation: 'owns', name: 'checkout' });
    const missing = await call(client, 'get_config', { id: '00000000-0000-4000-8000-000000000001' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('not found');
    await client.close();
  });

  it('health_summary and get_check_history', async () => {
    const client = await connect(base, adminToken);
    const summary = await call(client, 'health_summary', { health: 'unhealthy' });
    expect(summary.json.counts.unhealthy).toBe(1);
    expect(summary.json.items[0]).toMatchObject({ id: checkId, name: 'checkout-api', status: 'unhealthy', canary: 'shop/web' });
    const history = await call(client, 'get_check_history', { id: checkId, limit: 25 });
    expect(history.json.items).toHaveLength(25);
    expect(history.json.items[0]).toMatchObject({ message: 'attempt 1', pass: false });
    const rest = await call(client, 'get_check_history', { id: checkId, limit: 25, cursor: history.json.next_cursor });
    expect(rest.json.items).toHaveLength(5);
    await client.close();
  });

  it('incidents: list, get with hypotheses and evidence, create and comment', async () => {
    const client = await connect(base, adminToken);
    const list = await call(client, 'list_incidents', { status: ['open'] });
    expect(list.json.items[0]).toMatchObject({ title: 'Checkout failing', severity: 'high' });
    const number = list.json.items[0]?.number ?? '';
    const one = await call(client, 'get_incident', { id: number });
    expect(one.json.hypotheses[0]).toMatchObject({ title: 'Pod crash loop', evidence: [{ type: 'config', config_id: podId }] });
    const created = await call(client, 'create_incident', { title: 'Payments slow', severity: 'medium', type: 'performance' });
    expect(created.isError).toBe(false);
    expect(created.json.number).toMatch(/^INC-\d+$/);
    const comment = await call(client, 'add_comment', { incident: created.json.number, comment: 'looking at the database' });
    expect(comment.isError).toBe(false);
    const again = await call(client, 'get_incident', { id: created.json.id });
    expect(again.json.comments[0]).toMatchObject({ comment: 'looking at the database' });
    // Written as the token's owner.
    const owner = await t.db.pool.query<{ same: boolean }>(
      'SELECT i.commander_id = c.created_by AND i.created_by = c.created_by AS same FROM incidents i JOIN comments c ON c.incident_id = i.id WHERE i.id = $1',
      [created.json.id],
    );
    expect(owner.rows[0]?.same).toBe(true);
    await client.close();
  });

  it('playbooks: list runnable ones with parameters, run one (approval applies) and read the run', async () => {
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/playbooks',
      headers: t.adminHeaders,
      payload: {
        name: 'restart-pod',
        spec: {
          description: 'Restarts a pod',
          configs: [{ types: ['Kubernetes::Pod'] }],
          parameters: [{ name: 'reason', label: 'Reason', required: true }],
          approval: { type: 'any', approvers: { people: ['someone-else@example.com'] } },
          actions: [{ name: 'restart', exec: { script: 'echo restart' } }],
        },
      },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const playbookId = saved.json().id as string;
    const client = await connect(base, adminToken);
    const list = await call(client, 'list_playbooks', { config_id: podId });
    expect(list.json.items).toEqual([expect.objectContaining({ id: playbookId, name: 'default/restart-pod', parameters: [expect.objectContaining({ name: 'reason', required: true })] })]);
    const missingParam = await call(client, 'run_playbook', { id: playbookId, config_id: podId });
    expect(missingParam.isError).toBe(true);
    expect(missingParam.text).toContain('reason');
    const run = await call(client, 'run_playbook', { id: playbookId, config_id: podId, params: { reason: 'crash loop' } });
    expect(run.isError, run.text).toBe(false);
    expect(run.json.status).toBe('pending_approval');
    const status = await call(client, 'get_playbook_run', { id: run.json.run_id });
    expect(status.json).toMatchObject({ id: run.json.run_id, playbook: 'default/restart-pod', status: 'pending_approval', config_id: podId });
    await client.close();

    const viewer = await connect(base, viewerToken);
    const refused = await call(viewer, 'run_playbook', { id: playbookId, config_id: podId, params: { reason: 'x' } });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('playbook:run');
    await viewer.close();
  });

  it("a viewer's token may read but create_incident answers a tool error naming the permission", async () => {
    const client = await connect(base, viewerToken);
    expect((await call(client, 'list_incidents')).isError).toBe(false);
    const refused = await call(client, 'create_incident', { title: 'nope' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('create permission on incident');
    const { rows } = await t.db.pool.query("SELECT 1 FROM incidents WHERE title = 'nope'");
    expect(rows).toHaveLength(0);
    await client.close();
  });

  it('unknown tools and bad arguments are errors, not crashes', async () => {
    const client = await connect(base, adminToken);
    const unknown = await client.callTool({ name: 'drop_tables', arguments: {} }).then((result) => ({ isError: result.isError === true, text: JSON.stringify(result.content) }));
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('Tool drop_tables not found');
    const invalid = await client.callTool({ name: 'get_config', arguments: { id: 'x' } }).then((result) => ({ isError: result.isError === true, text: JSON.stringify(result.content) }));
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toContain('UUID');
    await client.close();
  });

  it('refuses without a token (401), without the mcp scope (403), GET (405), and malformed JSON-RPC', async () => {
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${base}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });

    const anonymous = await post({}, init);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain('Bearer');
    expect((await anonymous.json()).error.code).toBe(-32001);

    const badToken = await post(bearer('wk_not-a-token'), init);
    expect(badToken.status).toBe(401);

    // A console session is no API token.
    expect((await post(t.adminHeaders, init)).status).toBe(401);

    const noScope = await post(bearer(noMcpToken), init);
    expect(noScope.status).toBe(403);
    expect((await noScope.json()).error.message).toContain('mcp scope');

    const get = await fetch(`${base}/api/mcp`, { headers: bearer(adminToken) });
    expect(get.status).toBe(405);

    const broken = await post(bearer(adminToken), '{"jsonrpc": "2.0", "method": ');
    expect(broken.status).toBe(400);
    const brokenBody = await broken.json();
    expect(brokenBody.error.code).toBe(-32700);
    expect(JSON.stringify(brokenBody)).not.toMatch(/at \w+ \(/);

    const notRpc = await post(bearer(adminToken), '{"hello": "world"}');
    expect(notRpc.status).toBe(400);
    const notRpcBody = await notRpc.json();
    expect(notRpcBody.jsonrpc).toBe('2.0');
    expect(notRpcBody.error.code).toBeLessThan(0);
    expect(JSON.stringify(notRpcBody)).not.toMatch(/at \w+ \(/);
  });
});
