import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { insertItem } from './testing';

/** POST /api/resources/search: configs and checks by words, name, type, tags and agent, for resource pickers. */
let t: TestApp;
let edgeAgent = '';
const ids: Record<string, string> = {};

type Found = { id: string; name: string; type: string; tags: Record<string, string>; icon?: string | null };
interface Answer {
  checks: Found[];
  components: Found[];
  configs: Found[];
  connections: Found[];
  playbooks: Found[];
}

async function search(payload: unknown, headers: Record<string, string> | null = t.adminHeaders) {
  const response = await t.app.inject({ method: 'POST', url: '/api/resources/search', ...(headers ? { headers } : {}), payload: payload as object });
  return { status: response.statusCode, body: response.json() };
}

async function names(payload: unknown, kind: 'configs' | 'checks' = 'configs'): Promise<string[]> {
  const answer = await search(payload);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body as Answer)[kind].map((found) => found.name);
}

beforeAll(async () => {
  t = await createTestApp();
  const pool = t.db.pool;
  const { rows } = await pool.query<{ id: string }>("INSERT INTO agents (name) VALUES ('edge-1') RETURNING id");
  edgeAgent = rows[0]?.id ?? '';
  ids.payments = await insertItem(pool, { type: 'Kubernetes::Deployment', name: 'payments-api', tags: { cluster: 'east', namespace: 'shop' } });
  ids.worker = await insertItem(pool, { type: 'Kubernetes::Deployment', name: 'payments-worker', tags: { cluster: 'west' } });
  ids.gateway = await insertItem(pool, { type: 'Kubernetes::Service', name: 'api-gateway', tags: { cluster: 'east' } });
  ids.api = await insertItem(pool, { type: 'Kubernetes::Service', name: 'api', tags: {} });
  ids.checkout = await insertItem(pool, { type: 'AWS::Lambda::Function', name: 'checkout', agent_id: edgeAgent, tags: { account: 'prod' } });
  await insertItem(pool, { type: 'Kubernetes::Deployment', name: 'payments-old', deleted: true });
  const canary = await t.app.inject({
    method: 'POST',
    url: '/api/canary/canaries',
    headers: t.adminHeaders,
    payload: {
      name: 'ports',
      labels: { team: 'platform' },
      spec: { schedule: '@every 5m', tcp: [{ name: 'payments-db', endpoint: '127.0.0.1:5432' }, { name: 'cache', endpoint: '127.0.0.1:6379', icon: 'redis' }] },
    },
  });
  expect(canary.statusCode, canary.body).toBe(201);
});

afterAll(async () => {
  await t?.close();
});

describe('POST /api/resources/search', () => {
  it('finds connections by name and type, without their URL or credentials', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/connections', headers: t.adminHeaders, payload: { name: 'payments-db', type: 'postgres', url: 'postgres://db:5432/pay', username: 'pay', password: 'pay-secret' } });
    expect(created.statusCode).toBe(201);
    const answer = await search({ connections: [{ search: 'payments' }, { types: ['slack'] }] });
    const body = answer.body as Answer;
    expect(body.connections).toEqual([{ id: created.json().id, name: 'payments-db', icon: 'postgres', type: 'postgres', tags: {}, namespace: 'default', agent_id: '00000000-0000-0000-0000-000000000000' }]);
    expect(JSON.stringify(body)).not.toContain('pay-secret');
    await t.app.inject({ method: 'DELETE', url: `/api/connections/${String(created.json().id)}`, headers: t.adminHeaders });
  });

  it('answers every kind, with id, name, type and tags; kinds without a table yet are empty (no component matches x here)', async () => {
    const answer = await search({ configs: [{ search: 'payments' }], checks: [{ search: 'payments' }], components: [{ search: 'x' }], connections: [{}], playbooks: [{}] });
    expect(answer.status).toBe(200);
    const body = answer.body as Answer;
    expect(body.components).toEqual([]);
    expect(body.connections).toEqual([]);
    expect(body.playbooks).toEqual([]);
    expect(body.configs.map((found) => found.name)).toEqual(['payments-api', 'payments-worker']);
    expect(body.configs[0]).toMatchObject({ id: ids.payments, name: 'payments-api', type: 'Kubernetes::Deployment', tags: { cluster: 'east', namespace: 'shop' } });
    expect(body.checks).toHaveLength(1);
    expect(body.checks[0]).toMatchObject({ name: 'payments-db', type: 'tcp' });
    expect(body.checks[0]?.tags).toMatchObject({ team: 'platform' });
    expect(body.checks[0]).toHaveProperty('icon');
    expect(await search({})).toMatchObject({ status: 200, body: { checks: [], components: [], configs: [], connections: [], playbooks: [] } });
  });

  it('finds playbooks by name, title and category', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/playbooks', headers: t.adminHeaders, payload: { name: 'restart-payments', spec: { title: 'Restart payments', category: 'Remediation', actions: [{ name: 'a', exec: { script: 'true' } }] } } });
    expect(created.statusCode, created.body).toBe(201);
    const body = (await search({ playbooks: [{ search: 'Restart pay' }, { types: ['Remediation'] }] })).body as Answer;
    expect(body.playbooks).toEqual([expect.objectContaining({ id: created.json().id, name: 'restart-payments', type: 'Remediation', title: 'Restart payments' })]);
    expect(((await search({ playbooks: [{ search: 'nothing-like-it' }] })).body as Answer).playbooks).toEqual([]);
  });

  it('puts an exact name first, then names that start with the words', async () => {
    expect(await names({ configs: [{ search: 'api' }] })).toEqual(['api', 'api-gateway', 'payments-api']);
    expect(await names({ configs: [{ search: 'API' }] })).toEqual(['api', 'api-gateway', 'payments-api']);
    expect(await names({ configs: [{ search: 'pay wor' }] })).toEqual(['payments-worker']);
  });

  it('selects by name (with *), types, tags, agent, id and search terms, up to the limit', async () => {
    expect(await names({ configs: [{ name: 'checkout' }] })).toEqual(['checkout']);
    expect(await names({ configs: [{ name: 'payments-*' }] })).toEqual(['payments-api', 'payments-worker']);
    expect(await names({ configs: [{ types: ['Kubernetes::Service'] }] })).toEqual(['api', 'api-gateway']);
    expect(await names({ configs: [{ types: '!Kubernetes::Service,!Kubernetes::Deployment' }] })).toEqual(['checkout']);
    expect(await names({ configs: [{ tag_selector: 'cluster=east' }] })).toEqual(['api-gateway', 'payments-api']);
    expect(await names({ configs: [{ tag_selector: 'cluster=east,namespace=shop' }] })).toEqual(['payments-api']);
    expect(await names({ configs: [{ tag_selector: 'cluster!=east,cluster' }] })).toEqual(['payments-worker']);
    expect(await names({ configs: [{ tag_selector: '!cluster' }] })).toEqual(['api', 'checkout']);
    expect(await names({ configs: [{ agent: 'edge-1' }] })).toEqual(['checkout']);
    expect(await names({ configs: [{ agent: edgeAgent }] })).toEqual(['checkout']);
    expect(await names({ configs: [{ agent: 'local', search: 'checkout' }] })).toEqual([]);
    expect(await names({ configs: [{ id: ids.gateway }] })).toEqual(['api-gateway']);
    expect(await names({ configs: [{ search: 'type=Kubernetes::Service' }] })).toEqual(['api', 'api-gateway']);
    expect(await names({ configs: [{ search: 'cluster=west' }] })).toEqual(['payments-worker']);
    expect(await names({ configs: [{ search: 'payments', limit: 1 }] })).toEqual(['payments-api']);
    // Selectors add up; an item found twice is listed once.
    expect(await names({ configs: [{ name: 'checkout' }, { search: 'payments' }, { name: 'checkout' }] })).toEqual(['checkout', 'payments-api', 'payments-worker']);
    expect(await names({ checks: [{ search: 'cache' }] }, 'checks')).toEqual(['cache']);
    expect(await names({ checks: [{ tag_selector: 'team=platform' }] }, 'checks')).toEqual(['cache', 'payments-db']);
    expect(await names({ checks: [{ search: 'canary=ports', types: 'tcp' }] }, 'checks')).toEqual(['cache', 'payments-db']);
  });

  it('leaves deleted items out', async () => {
    expect(await names({ configs: [{ name: 'payments-old' }] })).toEqual([]);
  });

  it('refuses bad input with every field named', async () => {
    const bad = await search({ configs: [{ limit: 0, colour: 'red' }], checks: [{ id: 'nope', limit: 1001 }], widgets: [] });
    expect(bad.status).toBe(400);
    const paths = (bad.body as { details: Array<{ path: string }> }).details.map((issue) => issue.path);
    for (const field of ['body.configs[0].limit', 'body.configs[0]', 'body.checks[0].id', 'body.checks[0].limit', 'body']) expect(paths).toContain(field);
    expect(JSON.stringify(bad.body)).toContain('widgets');
  });

  it('needs a signed-in person who may read each kind asked', async () => {
    expect((await search({ configs: [{}] }, null)).status).toBe(401);
    const nobody = await t.userWith([]);
    const refused = await search({ configs: [{}], checks: [{}] }, nobody.headers);
    expect(refused.status).toBe(403);
    expect((refused.body as { message: string }).message).toContain('checks or configs');
    expect((await search({ components: [{}] }, nobody.headers)).status).toBe(403);
    expect((await search({ playbooks: [{}] }, nobody.headers)).status).toBe(403);
    const viewer = await t.userWith(['viewer']);
    // Connections are the admins' (spec §6).
    expect((await search({ connections: [{}] }, viewer.headers)).status).toBe(403);
    expect((await search({ configs: [{ search: 'api' }] }, viewer.headers)).status).toBe(200);
  });
});
