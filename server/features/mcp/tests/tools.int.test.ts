import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presetScopes } from '../../../../common/rbac';
import { createTestApp, type TestApp } from '../../../../test/app';
import { insertChange, insertItem } from '../../catalog/query/testing';
import { tools } from '../tools';
import { callTool, connect, tokenFor } from './client';

let t: TestApp;
let base: string;
let dir: string;
let adminToken: string;
let viewerToken: string;
let viewerId: string;
let podId: string;
let hiddenPodId: string;
let checkId: string;
let hiddenCheckId: string;
let componentId: string;
let viewId: string;

interface Item {
  id: string;
  name: string;
  kind: string;
  [field: string]: unknown;
}
/** The fields of the answers these tests read. */
interface Answer {
  items: Item[];
  next_cursor?: string;
  skipped?: string[];
  configs: Record<string, { name: string; type: string }>;
  by_type?: Record<string, number>;
  columns: Array<{ name: string; type: string }>;
  variables: Array<{ key: string; selected: string }>;
  total: number;
  counts: Record<string, number>;
  components: string[];
  relationships: Item[];
}

const call = (client: Client, name: string, args?: Record<string, unknown>) => callTool<Answer>(client, name, args);

/** Every page of a list tool, following next_cursor. */
async function allPages(client: Client, name: string, args: Record<string, unknown>): Promise<{ items: Item[]; pages: number }> {
  const items: Item[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const { json, isError, text } = await call(client, name, { ...args, ...(cursor ? { cursor } : {}) });
    expect(isError, text).toBe(false);
    items.push(...json.items);
    cursor = json.next_cursor;
    pages += 1;
  } while (cursor && pages < 50);
  return { items, pages };
}

beforeAll(async () => {
  // The log backend below reads a temporary folder: a log root here (docs/LOGS.md).
  t = await createTestApp({ env: { WATCHKEEPER_LOG_ROOTS: os.tmpdir() } });
  base = await t.listen();
  const pool = t.db.pool;
  adminToken = (await tokenFor(t, ['admin'], presetScopes('Admin'))).token;
  const viewer = await tokenFor(t, ['viewer'], presetScopes('Admin'));
  viewerToken = viewer.token;
  viewerId = viewer.id;

  podId = await insertItem(pool, { type: 'Kubernetes::Pod', name: 'orders-1', namespace: 'shop', health: 'unhealthy', status: 'CrashLoopBackOff' });
  hiddenPodId = await insertItem(pool, { type: 'Kubernetes::Pod', name: 'orders-secret', namespace: 'vault', health: 'healthy' });
  for (let i = 2; i <= 5; i += 1) await insertItem(pool, { type: 'Kubernetes::Pod', name: `orders-${i}`, namespace: 'shop' });
  for (let i = 0; i < 7; i += 1) await insertChange(pool, podId, { change_type: i % 2 === 0 ? 'BackOff' : 'diff', severity: i === 0 ? 'high' : 'info', summary: `change ${i}`, ago: i * 60_000 });
  await insertChange(pool, podId, { change_type: 'diff', summary: 'last month', ago: 30 * 86_400_000 });
  await insertChange(pool, hiddenPodId, { change_type: 'diff', summary: 'secret change' });
  await pool.query("INSERT INTO config_relationships (config_id, related_id, relation) VALUES ($1, $2, 'uses')", [podId, hiddenPodId]);

  const canaries = await pool.query<{ id: string; name: string }>("INSERT INTO canaries (name, namespace) VALUES ('orders', 'shop'), ('vault', 'vault') RETURNING id, name");
  const canaryOf = (name: string) => canaries.rows.find((row) => row.name === name)?.id;
  const checks = await pool.query<{ id: string; name: string }>(
    `INSERT INTO checks (canary_id, key, type, name, status) VALUES ($1, 'http/orders', 'http', 'orders-api', 'unhealthy'), ($2, 'http/vault', 'http', 'orders-vault', 'healthy') RETURNING id, name`,
    [canaryOf('orders'), canaryOf('vault')],
  );
  checkId = checks.rows.find((row) => row.name === 'orders-api')?.id ?? '';
  hiddenCheckId = checks.rows.find((row) => row.name === 'orders-vault')?.id ?? '';
  await pool.query("INSERT INTO check_statuses (check_id, time, status, duration, message) SELECT $1, now() - (g || ' minutes')::interval, true, 10, 'ok' FROM generate_series(1, 3) g", [hiddenCheckId]);

  const component = await pool.query<{ id: string }>("INSERT INTO components (external_id, name, type, labels) VALUES ('shop/orders', 'orders', 'Service', '{\"team\": \"shop\"}') RETURNING id");
  componentId = component.rows[0]?.id ?? '';
  await pool.query('INSERT INTO config_component_relationships (component_id, config_id) VALUES ($1, $2)', [componentId, podId]);
  await pool.query('INSERT INTO check_component_relationships (check_id, component_id) VALUES ($1, $2)', [checkId, componentId]);
  await pool.query("INSERT INTO playbooks (name, namespace, category, spec) VALUES ('restart-orders', 'default', 'Kubernetes', '{\"actions\": [{\"name\": \"a\", \"exec\": {\"script\": \"true\"}}]}')");
  await pool.query("INSERT INTO connections (name, namespace, type, url, password) VALUES ('orders-db', 'shop', 'postgres', 'postgres://orders.internal:5432/orders', 'hunter2-secret')");

  // The viewer may not read the vault: a deny on one config item and on one canary.
  await pool.query("INSERT INTO permissions (subject, subject_type, person_id, action, deny, config_id) VALUES ($1::text, 'person', $1::uuid, 'read', true, $2)", [viewerId, hiddenPodId]);
  await pool.query("INSERT INTO permissions (subject, subject_type, person_id, action, deny, canary_id) VALUES ($1::text, 'person', $1::uuid, 'read', true, $2)", [viewerId, canaryOf('vault')]);

  // Log lines of the component, one of them 5,000 characters long.
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-mcp-logs-'));
  const at = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
  const lines = Array.from({ length: 12 }, (_, i) => `${at(30 - i)} ${i === 5 ? 'ERROR' : 'INFO'} order ${i} ${i === 7 ? 'x'.repeat(5000) : 'handled'}`);
  await fs.writeFile(path.join(dir, 'orders.log'), `${lines.join('\n')}\n`);
  const backend = await t.app.inject({ method: 'POST', url: '/api/logs/backends', headers: t.adminHeaders, payload: { name: 'shop-files', spec: { files: [{ paths: [path.join(dir, '{{name}}.log')] }], components: [{ type: 'Service' }] } } });
  expect(backend.statusCode, backend.body).toBe(201);

  const view = await pool.query<{ id: string }>('INSERT INTO views (name, namespace, spec) VALUES ($1, $2, $3) RETURNING id', [
    'pods',
    'shop',
    JSON.stringify({
      display: { title: 'Pods', table: { sort: 'name' } },
      templating: [{ key: 'health', label: 'Health', values: ['any', 'healthy'], default: 'any' }],
      columns: [{ name: 'name', type: 'string', primaryKey: true }, { name: 'health', type: 'health' }],
      queries: { pods: { configs: { types: ['Kubernetes::Pod'] } } },
    }),
  ]);
  viewId = view.rows[0]?.id ?? '';
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe('MCP tools (issue 24, part 2)', () => {
  it('the default tool list stays within 5,000 tokens of descriptions and schemas (o200k_base, as bench/mcp.ts counts)', async () => {
    const client = await connect(base, adminToken);
    const listed = (await client.listTools()).tools.filter((item) => tools.some((own) => own.name === item.name));
    expect(listed.map((item) => item.name).sort()).toEqual(tools.map((item) => item.name).sort());
    expect(listed.map((item) => item.name)).toEqual(expect.arrayContaining(['search_resources', 'list_changes', 'query_view', 'read_logs']));
    expect(listed.map((item) => item.name)).not.toContain('search_catalog');
    // The tools as tools/list answers them (name, description, input schema, annotations), as JSON.
    const text = JSON.stringify(listed);
    const tokens = countTokens(text);
    console.info(`MCP default tool list: ${listed.length} tools, ${text.length} characters of JSON, ${tokens} tokens (o200k_base)`);
    expect(tokens).toBeLessThanOrEqual(5000);
    await client.close();
  });

  it('search_resources finds every kind, pages, and answers a connection by name and type only', async () => {
    const client = await connect(base, adminToken);
    const { items, pages } = await allPages(client, 'search_resources', { query: 'orders', limit: 3 });
    expect(pages).toBeGreaterThan(2);
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
    const kinds = new Set(items.map((item) => item.kind));
    expect([...kinds].sort()).toEqual(['check', 'component', 'config', 'connection', 'playbook']);
    const connection = items.find((item) => item.kind === 'connection');
    expect(connection).toEqual({ kind: 'connection', id: expect.any(String), name: 'orders-db', type: 'postgres', namespace: 'shop' });
    const raw = await call(client, 'search_resources', { query: 'orders', kinds: ['connections'] });
    expect(raw.text).not.toContain('orders.internal');
    expect(raw.text).not.toContain('hunter2');
    const pods = await call(client, 'search_resources', { kinds: ['configs'], type: 'Kubernetes::Pod', limit: 10 });
    expect(pods.json.items).toHaveLength(6);
    expect(pods.json.next_cursor).toBeUndefined();
    expect(pods.text).not.toContain('null');
    await client.close();
  });

  it('a viewer with deny permissions does not see the denied items, and kinds it cannot read are skipped', async () => {
    const client = await connect(base, viewerToken);
    const { items } = await allPages(client, 'search_resources', { query: 'orders', limit: 2 });
    const names = items.map((item) => item.name);
    expect(names).toContain('orders-1');
    expect(names).toContain('orders-api');
    expect(names).not.toContain('orders-secret');
    expect(names).not.toContain('orders-vault');
    const skipped = await call(client, 'search_resources', { query: 'orders' });
    expect(skipped.json.skipped).toEqual(['connections']);

    const config = await call(client, 'get_config', { id: hiddenPodId });
    expect(config.isError).toBe(true);
    expect(config.text).toContain('forbidden');
    const visible = await call(client, 'get_config', { id: podId });
    expect(visible.isError, visible.text).toBe(false);
    expect(visible.text).not.toContain('orders-secret');

    const health = await call(client, 'health_summary', {});
    expect(health.json.items.map((item) => item.name)).toEqual(['orders-api']);
    expect(health.json.counts).toEqual({ unhealthy: 1 });
    const history = await call(client, 'get_check_history', { id: hiddenCheckId });
    expect(history.isError).toBe(true);
    expect(history.text).toContain('forbidden');

    const changes = await call(client, 'list_changes', { query: 'orders', limit: 100 });
    expect(changes.json.items.map((item) => item.summary)).not.toContain('secret change');
    expect(changes.json.items).toHaveLength(7);
    expect((await call(client, 'list_changes', { config_id: hiddenPodId })).text).toContain('forbidden');
    await client.close();

    // The admin sees what the viewer does not.
    const admin = await connect(base, adminToken);
    expect((await call(admin, 'health_summary', {})).json.counts).toEqual({ unhealthy: 1, healthy: 1 });
    expect((await call(admin, 'get_config', { id: podId })).text).toContain('orders-secret');
    await admin.close();
  });

  it('list_changes: one item over a range, filtered by change type and severity, paged, items listed once', async () => {
    const client = await connect(base, adminToken);
    const first = await call(client, 'list_changes', { config_id: podId, limit: 3 });
    expect(first.isError, first.text).toBe(false);
    expect(first.json.items).toHaveLength(3);
    expect(first.json.items[0]).toMatchObject({ summary: 'change 0', change_type: 'BackOff', severity: 'high', config_id: podId });
    expect(first.json.configs).toEqual({ [podId]: { name: 'orders-1', type: 'Kubernetes::Pod', health: 'unhealthy' } });
    expect(first.json.by_type).toEqual({ diff: 3, BackOff: 4 });
    const { items } = await allPages(client, 'list_changes', { config_id: podId, limit: 3 });
    expect(items.map((item) => item.summary)).toEqual(['change 0', 'change 1', 'change 2', 'change 3', 'change 4', 'change 5', 'change 6']);
    const month = await call(client, 'list_changes', { config_id: podId, from: 'now-60d', to: 'now-1d' });
    expect(month.json.items.map((item) => item.summary)).toEqual(['last month']);
    const backoffs = await call(client, 'list_changes', { type: 'Kubernetes::Pod', change_type: 'BackOff', severity: 'high' });
    expect(backoffs.json.items.map((item) => item.summary)).toEqual(['change 0']);
    const tagged = await call(client, 'list_changes', { tags: 'nope=1' });
    expect(tagged.json.items).toEqual([]);
    const bad = await call(client, 'list_changes', { from: 'yesterday-ish' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('from');
    expect(bad.text).toContain('must be an ISO time');
    const backwards = await call(client, 'list_changes', { from: 'now-1h', to: 'now-2h' });
    expect(backwards.text).toBe('invalid_request: from: must not be after to');
    await client.close();
  });

  it('query_view: by namespace/name with variables, columns and paged rows; a deny on the view refuses it', async () => {
    const client = await connect(base, adminToken);
    const first = await call(client, 'query_view', { namespace: 'shop', name: 'pods', variables: { health: 'healthy' }, limit: 4 });
    expect(first.isError, first.text).toBe(false);
    expect(first.json.columns).toEqual([{ name: 'name', type: 'string' }, { name: 'health', type: 'health' }]);
    expect(first.json.variables).toEqual([expect.objectContaining({ key: 'health', selected: 'healthy' })]);
    expect(first.json.total).toBe(6);
    expect(first.json.items.map((row) => row.name)).toEqual(['orders-1', 'orders-2', 'orders-3', 'orders-4']);
    const second = await call(client, 'query_view', { id: viewId, variables: { health: 'healthy' }, limit: 4, cursor: first.json.next_cursor });
    expect(second.json.items.map((row) => row.name)).toEqual(['orders-5', 'orders-secret']);
    expect(second.json.next_cursor).toBeUndefined();
    expect(second.json.columns).toBeUndefined();
    const missing = await call(client, 'query_view', { namespace: 'shop', name: 'nope' });
    expect(missing.text).toBe('not_found: view shop/nope not found');
    const neither = await call(client, 'query_view', {});
    expect(neither.text).toContain('id: give a view id');
    const invalid = await call(client, 'query_view', { id: viewId, limit: 0 });
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toContain('limit');
    await client.close();

    await t.db.pool.query("INSERT INTO permissions (subject, subject_type, person_id, action, deny, object_selector) VALUES ($1::text, 'person', $1::uuid, 'read', true, $2)", [viewerId, JSON.stringify({ views: [{ name: 'pods', namespace: 'shop' }] })]);
    const viewer = await connect(base, viewerToken);
    const refused = await call(viewer, 'query_view', { id: viewId });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('forbidden');
    await viewer.close();
  });

  it('read_logs: a component, or the components of a config item or check; newest first, paged, long lines cut', async () => {
    const client = await connect(base, adminToken);
    const first = await call(client, 'read_logs', { component_id: componentId, limit: 5 });
    expect(first.isError, first.text).toBe(false);
    expect(first.json.components).toEqual(['orders']);
    expect(first.json.total).toBe(12);
    expect(first.json.items.map((line) => line.message)).toEqual(['INFO order 11 handled', 'INFO order 10 handled', 'INFO order 9 handled', 'INFO order 8 handled', expect.stringMatching(/^INFO order 7 x+…$/)]);
    expect(String(first.json.items[4]?.message).length).toBe(2001);
    const { items } = await allPages(client, 'read_logs', { config_id: podId, limit: 5 });
    expect(items).toHaveLength(12);
    const errors = await call(client, 'read_logs', { check_id: checkId, query: 'error' });
    expect(errors.json.items).toEqual([expect.objectContaining({ level: 'error', message: 'ERROR order 5 handled' })]);
    const recent = await call(client, 'read_logs', { component_id: componentId, from: 'now-20m' });
    expect(recent.json.items.length).toBeLessThan(12);
    const none = await call(client, 'read_logs', { check_id: hiddenCheckId });
    expect(none.text).toContain('no log backend holds the logs');
    const two = await call(client, 'read_logs', { component_id: componentId, check_id: checkId });
    expect(two.text).toContain('give exactly one');
    const bad = await call(client, 'read_logs', { component_id: 'x' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('UUID');
    await client.close();

    const viewer = await connect(base, viewerToken);
    expect((await call(viewer, 'read_logs', { config_id: hiddenPodId })).text).toContain('forbidden');
    await viewer.close();
  });
});
