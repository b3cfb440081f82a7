import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presetScopes, type TokenScope } from '../../../../common/rbac';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { insertItem } from '../../catalog/query/testing';
import { features } from '../../index';
import { callTool, connect, tokenFor } from './client';

/**
 * Issue 24 (docs/MCP.md): playbooks and views marked `spec.mcp` as their own tools, resources, prompts,
 * the token semantics of an mcp-only token, and bad input answered as JSON-RPC errors.
 */

let t: TestApp;
let base: string;
let adminToken: string;
let viewerToken: string;
let mcpOnlyToken: string;
let mcpOnlyViewerToken: string;
let mcpCanariesToken: string;
let podId: string;
let checkId: string;
let incidentNumber: string;
let playbookId: string;

interface Answer {
  items: Array<Record<string, unknown>>;
  columns: Array<{ name: string; type: string }>;
  total: number;
  next_cursor?: string;
  variables: Record<string, string>;
  run_id: string;
  status: string;
}

const call = (client: Client, name: string, args?: Record<string, unknown>) => callTool<Answer>(client, name, args);

const MCP: TokenScope = { subject: '', object: 'mcp', action: '*' };

/** The catalog search tool, listed. */
async function searchTool(client: Client): Promise<string> {
  const names = (await client.listTools()).tools.map((tool) => tool.name);
  expect(names).toContain('search_resources');
  return 'search_resources';
}

function post(body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/api/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });
}

/** A JSON-RPC error body: its code and message; never a stack trace nor Fastify's own error shape. */
async function rpcError(response: Response): Promise<{ code: number; message: string }> {
  const text = await response.text();
  expect(text).not.toMatch(/at \w+ \(|node_modules|"statusCode"/);
  const body = JSON.parse(text) as { jsonrpc: string; error: { code: number; message: string } };
  expect(body.jsonrpc).toBe('2.0');
  return body.error;
}

beforeAll(async () => {
  t = await createTestApp();
  base = await t.listen();
  adminToken = (await tokenFor(t, ['admin'], presetScopes('Admin'))).token;
  viewerToken = (await tokenFor(t, ['viewer'], presetScopes('Admin'))).token;
  mcpOnlyToken = (await tokenFor(t, ['admin'], [MCP])).token;
  mcpOnlyViewerToken = (await tokenFor(t, ['viewer'], [MCP])).token;
  mcpCanariesToken = (await tokenFor(t, ['admin'], [MCP, { subject: '', object: 'canaries', action: 'read' }])).token;

  podId = await insertItem(t.db.pool, { type: 'Kubernetes::Pod', name: 'checkout-7f9', namespace: 'shop', health: 'unhealthy', status: 'CrashLoopBackOff' });
  for (let i = 0; i < 5; i += 1) await insertItem(t.db.pool, { type: 'Kubernetes::Pod', name: `cart-${i}`, namespace: 'shop', health: 'healthy' });
  const canary = await t.db.pool.query<{ id: string }>("INSERT INTO canaries (name, namespace) VALUES ('web', 'shop') RETURNING id");
  const check = await t.db.pool.query<{ id: string }>(
    "INSERT INTO checks (canary_id, key, type, name, status, last_runtime) VALUES ($1, 'http/checkout', 'http', 'checkout-api', 'unhealthy', now()) RETURNING id",
    [canary.rows[0]?.id],
  );
  checkId = check.rows[0]!.id;
  await t.db.pool.query("INSERT INTO check_statuses (check_id, time, status, duration, message) VALUES ($1, now(), false, 120, 'connection refused')", [checkId]);
  const incident = await t.db.pool.query<{ id: string; incident_id: string }>("INSERT INTO incidents (title, severity, status) VALUES ('Checkout failing', 'high', 'open') RETURNING id, incident_id");
  incidentNumber = incident.rows[0]!.incident_id;
  await t.db.pool.query("INSERT INTO hypotheses (incident_id, title) VALUES ($1, 'Pod crash loop')", [incident.rows[0]!.id]);

  const playbook = (name: string, mcp: unknown, extra: Record<string, unknown> = {}, namespace = 'default') =>
    t.app.inject({
      method: 'POST',
      url: '/api/playbooks',
      headers: t.adminHeaders,
      payload: { name, namespace, spec: { description: `${name} playbook`, ...(mcp === undefined ? {} : { mcp }), actions: [{ name: 'say', exec: { script: 'echo hi' } }], ...extra } },
    });
  const marked = await playbook('restart-pod', { title: 'Restart a pod', description: 'Restarts a crash-looping pod' }, {
    configs: [{ types: ['Kubernetes::Pod'] }],
    parameters: [
      { name: 'reason', label: 'Reason', required: true },
      { name: 'force', type: 'checkbox' },
    ],
    approval: { type: 'any', approvers: { people: ['someone-else@example.com'] } },
  });
  expect(marked.statusCode, marked.body).toBe(201);
  playbookId = marked.json().id as string;
  expect((await playbook('not-for-llms', undefined)).statusCode).toBe(201);
  expect((await playbook('switched-off', { enabled: false })).statusCode).toBe(201);
  // Same name in another namespace, and a name too long for a tool name: made unique, cut at 64.
  const twin = await playbook('restart-pod', true, {}, 'ops');
  expect(twin.statusCode, twin.body).toBe(201);
  expect(twin.json().warnings ?? []).toEqual([]);
  expect((await playbook(`long-${'x'.repeat(60)}`, true)).statusCode).toBe(201);

  const view = {
    apiVersion: 'mission-control.flanksource.com/v1',
    kind: 'View',
    metadata: { name: 'pods-by-health' },
    spec: {
      description: 'Pods by health',
      mcp: true,
      templating: [{ key: 'health', label: 'Health', values: ['healthy', 'unhealthy'] }],
      columns: [{ name: 'name', type: 'string', primaryKey: true }, { name: 'health', type: 'health' }],
      queries: { pods: { configs: { types: ['Kubernetes::Pod'], health: '$(var.health)' } } },
      display: { table: { sort: 'name' } },
    },
  };
  const kinds = features.flatMap((feature) => feature.kinds ?? []);
  const results = await applyDocuments(t.db.pool, kinds, [{ file: 'view.yaml', text: JSON.stringify(view) }], 'ConfigFile', createLogger('silent'));
  expect(results[0], JSON.stringify(results)).toMatchObject({ ok: true });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('spec.mcp tools', () => {
  it('lists a marked playbook and view as tools, with schemas from parameters, targets and variables', async () => {
    const client = await connect(base, adminToken);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['playbook_restart-pod', 'view_pods-by-health', 'get_config']));
    expect(names.filter((name) => name.startsWith('playbook_')).sort()).toEqual([`playbook_long-${'x'.repeat(50)}`, 'playbook_restart-pod', 'playbook_restart-pod_ops']);
    const playbookTool = tools.find((tool) => tool.name === 'playbook_restart-pod');
    expect(playbookTool?.title).toBe('Restart a pod');
    expect(playbookTool?.description).toContain('Restarts a crash-looping pod');
    expect(playbookTool?.inputSchema.required).toEqual(expect.arrayContaining(['config_id', 'params']));
    expect(JSON.stringify(playbookTool?.inputSchema.properties)).toContain('"reason"');
    const viewTool = tools.find((tool) => tool.name === 'view_pods-by-health');
    expect(Object.keys(viewTool?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['health', 'limit', 'cursor']));
    expect(viewTool?.annotations?.readOnlyHint).toBe(true);
    await client.close();
  });

  it('runs the playbook tool as run_playbook does (parameters checked, approval applies, as the token owner)', async () => {
    const client = await connect(base, adminToken);
    const missing = await call(client, 'playbook_restart-pod', { config_id: podId });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('params');
    const badBox = await call(client, 'playbook_restart-pod', { config_id: podId, params: { reason: 'x', force: 'maybe' } });
    expect(badBox.isError).toBe(true);
    expect(badBox.text).toContain('force');
    const run = await call(client, 'playbook_restart-pod', { config_id: podId, params: { reason: 'crash loop', force: 'true' } });
    expect(run.isError, run.text).toBe(false);
    expect(run.json.status).toBe('pending_approval');
    const { rows } = await t.db.pool.query<{ playbook_id: string; config_id: string; parameters: Record<string, string>; request: Record<string, string> }>(
      'SELECT playbook_id, config_id, parameters, request FROM playbook_runs WHERE id = $1',
      [run.json.run_id],
    );
    expect(rows[0]).toMatchObject({ playbook_id: playbookId, config_id: podId, parameters: { reason: 'crash loop', force: 'true' }, request: { via: 'mcp', tool: 'playbook_restart-pod' } });
    const wrongTarget = await call(client, 'playbook_restart-pod', { config_id: '00000000-0000-4000-8000-000000000001', params: { reason: 'x' } });
    expect(wrongTarget.isError).toBe(true);
    expect(wrongTarget.text).toContain('not found');
    await client.close();
  });

  it('answers the view tool: columns, a page of rows for the variables, a cursor', async () => {
    const client = await connect(base, adminToken);
    const healthy = await call(client, 'view_pods-by-health', { health: 'healthy', limit: 3 });
    expect(healthy.isError, healthy.text).toBe(false);
    expect(healthy.json.columns).toEqual([{ name: 'name', type: 'string' }, { name: 'health', type: 'health' }]);
    expect(healthy.json.variables).toEqual({ health: 'healthy' });
    expect(healthy.json.total).toBe(5);
    expect(healthy.json.items.map((row) => row.name)).toEqual(['cart-0', 'cart-1', 'cart-2']);
    const rest = await call(client, 'view_pods-by-health', { health: 'healthy', limit: 3, cursor: healthy.json.next_cursor });
    expect(rest.json.items.map((row) => row.name)).toEqual(['cart-3', 'cart-4']);
    expect(rest.json.next_cursor).toBeUndefined();
    const unhealthy = await call(client, 'view_pods-by-health', { health: 'unhealthy' });
    expect(unhealthy.json.items).toEqual([{ name: 'checkout-7f9', health: 'unhealthy' }]);
    const bad = await call(client, 'view_pods-by-health', { health: 'purple' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('health');
    await client.close();
  });

  it("lists only what the caller may use: a viewer sees the view but not the playbook it may not run", async () => {
    const client = await connect(base, viewerToken);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('view_pods-by-health');
    expect(names).not.toContain('playbook_restart-pod');
    const refused = await client.callTool({ name: 'playbook_restart-pod', arguments: { config_id: podId, params: { reason: 'x' } } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('not found');
    const { rowCount } = await t.db.pool.query("SELECT 1 FROM playbook_runs WHERE parameters->>'reason' = 'x'");
    expect(rowCount).toBe(0);
    await client.close();
  });
});

describe('resources and prompts', () => {
  it('lists the health resource and the templates, and reads each (compact JSON)', async () => {
    const client = await connect(base, adminToken);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['watchkeeper://health']);
    expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate).sort()).toEqual(
      ['watchkeeper://check/{id}', 'watchkeeper://config/{id}', 'watchkeeper://incident/{number}'],
    );
    const read = async (uri: string) => {
      const result = await client.readResource({ uri });
      const content = result.contents[0] as { uri: string; mimeType: string; text: string };
      expect(content).toMatchObject({ uri, mimeType: 'application/json' });
      return JSON.parse(content.text) as Record<string, unknown>;
    };
    expect(await read('watchkeeper://health')).toEqual({ checks: { unhealthy: 1 }, config_items: { healthy: 5, unhealthy: 1 }, open_incidents: { high: 1 } });
    expect(await read(`watchkeeper://config/${podId}`)).toMatchObject({ id: podId, name: 'checkout-7f9', health: 'unhealthy', status: 'CrashLoopBackOff' });
    expect(await read(`watchkeeper://check/${checkId}`)).toMatchObject({ name: 'checkout-api', canary: 'shop/web', results: [{ pass: false, message: 'connection refused' }] });
    const incident = await read(`watchkeeper://incident/${incidentNumber}`);
    expect(incident).toMatchObject({ number: incidentNumber, title: 'Checkout failing', hypotheses: [{ title: 'Pod crash loop' }] });
    expect(JSON.stringify(incident)).not.toContain('null');
    await expect(client.readResource({ uri: 'watchkeeper://config/00000000-0000-4000-8000-000000000001' })).rejects.toThrow(/not found/);
    await expect(client.readResource({ uri: 'watchkeeper://config/not-a-uuid' })).rejects.toThrow(/id: must be a UUID/);
    await expect(client.readResource({ uri: 'watchkeeper://nothing/1' })).rejects.toThrow(/not found/);
    await client.close();
  });

  it('checks resources as the tools: a token with only canaries reads the check, not the config item', async () => {
    const client = await connect(base, mcpCanariesToken);
    await expect(client.readResource({ uri: `watchkeeper://check/${checkId}` })).resolves.toBeDefined();
    await expect(client.readResource({ uri: `watchkeeper://config/${podId}` })).rejects.toThrow(/forbidden.*config_scrapers/);
    const health = JSON.parse((((await client.readResource({ uri: 'watchkeeper://health' })).contents[0]) as { text: string }).text) as Record<string, unknown>;
    expect(health.checks).toEqual({ unhealthy: 1 });
    expect(health.config_items).toBeUndefined();
    expect(health.not_shown).toEqual(['config_items (needs read on config_scrapers)', 'open_incidents (needs read on incident)']);
    await client.close();
  });

  it('offers troubleshoot and incident_summary prompts that name the tools to call', async () => {
    const client = await connect(base, adminToken);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual(['incident_summary', 'troubleshoot']);
    expect(prompts.find((prompt) => prompt.name === 'troubleshoot')?.arguments).toEqual([expect.objectContaining({ name: 'resource', required: true })]);
    const byId = await client.getPrompt({ name: 'troubleshoot', arguments: { resource: podId } });
    const text = (byId.messages[0]?.content as { text: string }).text;
    expect(text).toContain('config item "checkout-7f9" (Kubernetes::Pod');
    expect(text).toContain('`get_config`');
    const search = await searchTool(client);
    expect(text).not.toContain(`\`${search}\``);
    const byName = (await client.getPrompt({ name: 'troubleshoot', arguments: { resource: 'checkout' } })).messages[0]?.content as { text: string };
    expect(byName.text).toContain(`\`${search}\` with query "checkout"`);
    const summary = (await client.getPrompt({ name: 'incident_summary', arguments: { number: incidentNumber } })).messages[0]?.content as { text: string };
    expect(summary.text).toContain(`\`get_incident\` with id "${incidentNumber}"`);
    await expect(client.getPrompt({ name: 'incident_summary', arguments: { number: 'drop table' } })).rejects.toThrow(/incident number/);
    await client.close();
  });
});

describe('token semantics', () => {
  it('a token with only the mcp scope acts as its owner', async () => {
    const admin = await connect(base, mcpOnlyToken);
    const search = await searchTool(admin);
    const found = await call(admin, search, { query: 'checkout' });
    expect(found.isError, found.text).toBe(false);
    expect(found.json.items.map((item) => item.name)).toContain('checkout-7f9');
    expect((await admin.listTools()).tools.map((tool) => tool.name)).toContain('playbook_restart-pod');
    await admin.close();

    // Bounded by the owner: a viewer's mcp-only token reads but does not write.
    const viewer = await connect(base, mcpOnlyViewerToken);
    expect((await call(viewer, search, { query: 'checkout' })).isError).toBe(false);
    const refused = await call(viewer, 'create_incident', { title: 'not allowed' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('no role or permission');
    await viewer.close();
  });

  it('a token with object scopes besides mcp stays limited by them', async () => {
    const client = await connect(base, mcpCanariesToken);
    const refused = await call(client, 'get_config', { id: podId });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('the token’s scopes do not allow it');
    // The search leaves out (or refuses) config items: the token has no catalog scope.
    const search = await call(client, await searchTool(client), { query: 'checkout' });
    expect(search.text).not.toContain('checkout-7f9');
    expect((await call(client, 'health_summary')).isError).toBe(false);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('playbook_restart-pod');
    expect(names).not.toContain('view_pods-by-health');
    await client.close();
  });
});

describe('bad input', () => {
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };

  it('a body over 1 MB answers 413 with a JSON-RPC error naming the limit', async () => {
    const big = JSON.stringify({ ...init, params: { ...init.params, padding: 'x'.repeat(1_100_000) } });
    const response = await post(big);
    expect(response.status).toBe(413);
    const error = await rpcError(response);
    expect(error.code).toBe(-32600);
    expect(error.message).toContain('1 MB');
  });

  it('malformed JSON, another content type, an empty body: JSON-RPC errors', async () => {
    const broken = await post('{"jsonrpc": "2.0", "method": ');
    expect(broken.status).toBe(400);
    expect((await rpcError(broken)).code).toBe(-32700);
    const text = await post(JSON.stringify(init), { 'content-type': 'application/xml' });
    expect(text.status).toBe(415);
    expect((await rpcError(text)).code).toBe(-32600);
    const empty = await fetch(`${base}/api/mcp`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}` } });
    expect(empty.status).toBe(400);
    expect((await rpcError(empty)).code).toBe(-32700);
  });

  it('a message without jsonrpc and a batch answer as the SDK does, in JSON-RPC', async () => {
    const noVersion = await post(JSON.stringify({ id: 1, method: 'tools/list' }));
    expect(noVersion.status).toBe(400);
    expect((await rpcError(noVersion)).code).toBe(-32700);
    const batch = await post(JSON.stringify([init, { jsonrpc: '2.0', id: 2, method: 'tools/list' }]));
    const text = await batch.text();
    expect(text).not.toMatch(/at \w+ \(/);
    const body = JSON.parse(text) as unknown;
    // The SDK takes a batch holding initialize only alone: a JSON-RPC error.
    expect(batch.status).toBe(400);
    expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    const lists = await post(JSON.stringify([{ jsonrpc: '2.0', id: 2, method: 'prompts/list' }, { jsonrpc: '2.0', id: 3, method: 'nothing/here' }]));
    expect(lists.status).toBe(200);
    const answers = (await lists.json()) as Array<{ id: number; result?: { prompts: unknown[] }; error?: { code: number } }>;
    expect(answers.map((answer) => answer.id)).toEqual([2, 3]);
    expect(answers[0]?.result?.prompts).toHaveLength(2);
    expect(answers[1]?.error?.code).toBe(-32601);
  });

  it('an unknown tool and arguments failing the schema answer tool errors naming the tool or the argument', async () => {
    const client = await connect(base, adminToken);
    const unknown = await call(client, 'drop_tables');
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('drop_tables');
    const badLimit = await call(client, await searchTool(client), { limit: 'ten' });
    expect(badLimit.isError).toBe(true);
    expect(badLimit.text).toContain('limit');
    const badView = await call(client, 'view_pods-by-health', { limit: 1000 });
    expect(badView.isError).toBe(true);
    expect(badView.text).toContain('limit');
    await client.close();
  });
});
