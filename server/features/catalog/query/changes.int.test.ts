import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { DAY, insertChange, insertItem } from './testing';

/**
 * POST /api/catalog/changes at the HTTP edge: items and changes made by a real Kubernetes scrape (and a
 * re-scrape after an edit), plus changes placed in time with SQL for paging, filters and sorting.
 */
let t: TestApp;
let root = '';

const manifests = (replicas: number, podPhase: string) => `
apiVersion: v1
kind: Namespace
metadata: {name: shop, uid: ns-1}
status: {phase: Active}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, uid: dep-1, labels: {app: web}}
spec: {replicas: ${replicas}}
status: {replicas: 2, readyReplicas: 2}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-7d9
  namespace: shop
  uid: rs-1
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: dep-1, controller: true}]
spec: {replicas: 2}
status: {replicas: 2, readyReplicas: 2}
---
apiVersion: v1
kind: Pod
metadata:
  name: web-7d9-abc
  namespace: shop
  uid: pod-1
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-7d9, uid: rs-1, controller: true}]
spec: {nodeName: node-1}
status: {phase: ${podPhase}, conditions: [{type: Ready, status: "True"}]}
`;

async function post(url: string, payload: unknown, headers = t.adminHeaders) {
  const response = await t.app.inject({ method: 'POST', url, headers, payload: payload as object });
  return { status: response.statusCode, body: response.json() };
}

interface Answer {
  summary: Record<string, number>;
  total: number;
  page: number;
  page_size: number;
  changes: Array<Record<string, unknown> & { id: string; config_id: string; change_type: string; severity: string; created_at: string; config: Record<string, unknown> }>;
}

async function changes(payload: Record<string, unknown>): Promise<Answer> {
  const answer = await post('/api/catalog/changes', payload);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as Answer;
}

const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  root = await mkdtemp(path.join(os.tmpdir(), 'wk-changes-'));
  await writeFile(path.join(root, 'shop.yaml'), manifests(2, 'Pending'));
  const created = await post('/api/catalog/scrapers', { name: 'shop', spec: { kubernetesFile: [{ paths: [root], tags: { cluster: 'east' } }] } });
  expect(created.status).toBe(201);
  const scraper = String((created.body as { id: string }).id);
  const first = await post(`/api/config/run/${scraper}`, undefined);
  expect(first.body).toMatchObject({ created: 4, errors: [] });
  // An edit of the deployment and of the pod: the re-scrape records one diff each.
  await writeFile(path.join(root, 'shop.yaml'), manifests(3, 'Running'));
  const second = await post(`/api/config/run/${scraper}`, undefined);
  expect(second.body).toMatchObject({ changes: 2, errors: [] });
  const { rows } = await t.db.pool.query<{ id: string; type: string }>('SELECT id, type FROM config_items WHERE scraper_id = $1', [scraper]);
  for (const row of rows) ids[row.type.replace('Kubernetes::', '')] = row.id;
  // Older events on the chain, placed in time.
  await insertChange(t.db.pool, ids.Namespace ?? '', { change_type: 'CREATE', severity: 'low', ago: 2 * DAY });
  await insertChange(t.db.pool, ids.ReplicaSet ?? '', { change_type: 'ScalingReplicaSet', severity: 'medium', ago: 3 * DAY, details: { from: 1, to: 2 } });
  await insertChange(t.db.pool, ids.Pod ?? '', { change_type: 'BackOff', severity: 'high', ago: 10 * DAY, count: 7, external_created_by: 'kubelet' });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await t?.close();
});

describe('POST /api/catalog/changes', () => {
  it('answers each change with its item, without the diff or the patches', async () => {
    const answer = await changes({ id: ids.Pod });
    expect(answer.total).toBe(2);
    expect(answer.summary).toEqual({ diff: 1, BackOff: 1 });
    expect(answer.changes.map((change) => change.change_type)).toEqual(['diff', 'BackOff']);
    const backOff = answer.changes[1];
    expect(backOff).toMatchObject({
      config_id: ids.Pod,
      config_type: 'Kubernetes::Pod',
      change_type: 'BackOff',
      severity: 'high',
      source: 'test',
      summary: 'replicas changed',
      count: 7,
      external_created_by: 'kubelet',
      created_by: null,
      details: null,
      config: { id: ids.Pod, name: 'web-7d9-abc', type: 'Kubernetes::Pod', config_class: 'Pod', tags: { cluster: 'east' }, deleted_at: null },
    });
    expect(Object.keys(backOff ?? {}).sort()).toEqual(
      ['change_type', 'config', 'config_id', 'config_type', 'count', 'created_at', 'created_by', 'details', 'external_created_by', 'first_observed', 'id', 'severity', 'source', 'summary'],
    );
    const diff = answer.changes[0];
    expect(diff).toMatchObject({ change_type: 'diff', config: { status: 'Running' } });
    expect(diff).not.toHaveProperty('diff');
    expect(diff).not.toHaveProperty('patches');
    // The diff is read per change through /api/db.
    const one = await t.app.inject({ method: 'GET', url: `/api/db/config_changes?id=eq.${diff?.id}&select=diff,patches`, headers: t.adminHeaders });
    expect(one.json()[0].diff).toContain('Running');
  });

  it('follows the tree down (children), up (parents) or both ways, to the depth asked', async () => {
    const types = (answer: Answer) => [...new Set(answer.changes.map((change) => String(change.config.type).replace('Kubernetes::', '')))].sort();
    expect(types(await changes({ id: ids.Deployment }))).toEqual(['Deployment']);
    expect(types(await changes({ id: ids.Deployment, recursive: 'none' }))).toEqual(['Deployment']);
    expect(types(await changes({ id: ids.Deployment, recursive: 'down' }))).toEqual(['Deployment', 'Pod', 'ReplicaSet']);
    expect(types(await changes({ id: ids.Deployment, recursive: 'down', depth: 1 }))).toEqual(['Deployment', 'ReplicaSet']);
    expect(types(await changes({ id: ids.Deployment, recursive: 'up' }))).toEqual(['Deployment', 'Namespace']);
    expect(types(await changes({ id: ids.Pod, recursive: 'up' }))).toEqual(['Deployment', 'Namespace', 'Pod', 'ReplicaSet']);
    const all = await changes({ id: ids.Deployment, recursive: 'all' });
    expect(types(all)).toEqual(['Deployment', 'Namespace', 'Pod', 'ReplicaSet']);
    expect(all.total).toBe(5);
    expect(all.summary).toEqual({ diff: 2, BackOff: 1, CREATE: 1, ScalingReplicaSet: 1 });
  });

  it('filters by time (relative or ISO), change type (with ! to exclude), severity and tags', async () => {
    expect((await changes({ id: ids.Deployment, recursive: 'all', from: 'now-5d' })).total).toBe(4);
    expect((await changes({ id: ids.Deployment, recursive: 'all', from: '1d' })).total).toBe(2);
    expect((await changes({ id: ids.Deployment, recursive: 'all', to: new Date(Date.now() - 5 * DAY).toISOString() })).summary).toEqual({ BackOff: 1 });
    expect((await changes({ id: ids.Deployment, recursive: 'all', type: '!diff' })).summary).toEqual({ BackOff: 1, CREATE: 1, ScalingReplicaSet: 1 });
    expect((await changes({ id: ids.Deployment, recursive: 'all', type: ['CREATE', 'BackOff'] })).total).toBe(2);
    expect((await changes({ id: ids.Deployment, recursive: 'all', type: 'Scaling*' })).total).toBe(1);
    expect((await changes({ id: ids.Deployment, recursive: 'all', severity: 'high,medium' })).summary).toEqual({ BackOff: 1, ScalingReplicaSet: 1 });
    expect((await changes({ tags: { cluster: 'east' } })).total).toBe(5);
    expect((await changes({ tags: 'cluster=west' })).total).toBe(0);
    expect((await changes({ config_type: 'Kubernetes::Pod' })).total).toBe(2);
    expect((await changes({ config_type: '!Kubernetes::Pod', tags: { cluster: 'east' } })).total).toBe(3);
  });

  it('answers only the summary and total when asked', async () => {
    const answer = await changes({ id: ids.Deployment, recursive: 'all', summary_only: true });
    expect(answer).toMatchObject({ total: 5, changes: [] });
  });

  describe('paging a type with many changes', () => {
    let lastId = '';
    beforeAll(async () => {
      const parent = await insertItem(t.db.pool, { type: 'AWS::Lambda::Function', name: 'resize' });
      for (let i = 0; i < 120; i += 1) {
        lastId = await insertChange(t.db.pool, parent, { change_type: i % 3 === 0 ? 'UPDATE' : 'Invoke', severity: ['info', 'low', 'medium', 'high', 'critical'][i % 5], ago: i * 60_000, count: 1 + (i % 4) });
      }
      // A deleted function's changes are left out unless asked for.
      const gone = await insertItem(t.db.pool, { type: 'AWS::Lambda::Function', name: 'old', deleted: true });
      await insertChange(t.db.pool, gone, { change_type: 'DELETE', ago: 1000 });
    });

    it('pages with a stable order and the total of every page', async () => {
      const seen = new Set<string>();
      const sizes: number[] = [];
      for (let page = 1; page <= 3; page += 1) {
        const answer = await changes({ config_type: 'AWS::Lambda::Function', page, page_size: 50 });
        expect(answer).toMatchObject({ total: 120, page, page_size: 50, summary: { Invoke: 80, UPDATE: 40 } });
        sizes.push(answer.changes.length);
        for (const change of answer.changes) seen.add(change.id);
        const times = answer.changes.map((change) => Date.parse(change.created_at));
        expect(times).toEqual([...times].sort((a, b) => b - a));
      }
      expect(sizes).toEqual([50, 50, 20]);
      expect(seen.size).toBe(120);
      expect(seen.has(lastId)).toBe(true);
      expect((await changes({ config_type: 'AWS::Lambda::Function', page: 4 })).changes).toEqual([]);
    });

    it('includes the changes of deleted items when asked', async () => {
      const answer = await changes({ config_type: 'AWS::Lambda::Function', include_deleted_configs: true, page_size: 1 });
      expect(answer.total).toBe(121);
      expect(answer.summary.DELETE).toBe(1);
      const deletes = await changes({ config_type: 'AWS::Lambda::Function', include_deleted_configs: true, type: 'DELETE' });
      expect(deletes.changes).toHaveLength(1);
      expect(deletes.changes[0]).toMatchObject({ change_type: 'DELETE', config: { name: 'old' } });
      expect(deletes.changes[0]?.config.deleted_at).not.toBeNull();
      expect((await changes({ config_type: 'AWS::Lambda::Function', type: 'DELETE' })).total).toBe(0);
    });

    it('sorts by severity (by rank, not alphabet), change type, count and created_at ascending', async () => {
      const rank = ['info', 'low', 'medium', 'high', 'critical'];
      const bySeverity = await changes({ config_type: 'AWS::Lambda::Function', sort_by: '-severity', page_size: 500 });
      const severities = bySeverity.changes.map((change) => rank.indexOf(change.severity));
      expect(severities).toEqual([...severities].sort((a, b) => b - a));
      expect(bySeverity.changes[0]?.severity).toBe('critical');
      const ascending = await changes({ config_type: 'AWS::Lambda::Function', sort_by: 'severity', page_size: 24 });
      expect(new Set(ascending.changes.map((change) => change.severity))).toEqual(new Set(['info']));
      const byType = await changes({ config_type: 'AWS::Lambda::Function', sort_by: 'change_type', page_size: 80 });
      expect(new Set(byType.changes.map((change) => change.change_type))).toEqual(new Set(['Invoke']));
      const byCount = await changes({ config_type: 'AWS::Lambda::Function', sort_by: '-count', page_size: 30 });
      expect(byCount.changes.every((change) => change.count === 4)).toBe(true);
      const oldest = await changes({ config_type: 'AWS::Lambda::Function', sort_by: 'created_at', page_size: 2 });
      const newest = await changes({ config_type: 'AWS::Lambda::Function', page_size: 200 });
      expect(oldest.changes[0]?.id).toBe(newest.changes[newest.changes.length - 1]?.id);
    });
  });

  it('refuses bad input with every field named, and changes nothing', async () => {
    const bad = await post('/api/catalog/changes', {
      id: 'not-a-uuid',
      page: 0,
      page_size: 501,
      sort_by: 'colour',
      recursive: 'sideways',
      depth: 11,
      include_deleted_configs: 'maybe',
      bogus: 1,
    });
    expect(bad.status).toBe(400);
    const body = bad.body as { error: string; message: string; details: Array<{ path: string }> };
    expect(body.error).toBe('invalid_request');
    const paths = body.details.map((issue) => issue.path);
    for (const field of ['body.id', 'body.page', 'body.page_size', 'body.sort_by', 'body.recursive', 'body.depth', 'body.include_deleted_configs']) expect(paths).toContain(field);
    expect(body.message).toContain('bogus');

    const noId = await post('/api/catalog/changes', { recursive: 'down' });
    expect(noId.status).toBe(400);
    expect(JSON.stringify(noId.body)).toContain('body.recursive');

    const times = await post('/api/catalog/changes', { from: 'last tuesday', to: 'soon' });
    expect(times.status).toBe(400);
    expect((times.body as { details: Array<{ path: string }> }).details.map((issue) => issue.path)).toEqual(['body.from', 'body.to']);

    const backwards = await post('/api/catalog/changes', { from: 'now-1d', to: 'now-2d' });
    expect(backwards.status).toBe(400);
    expect(JSON.stringify(backwards.body)).toContain('body.from');
  });

  it('binds every value: quotes and SQL in filters are only text', async () => {
    const answer = await changes({ type: "x'; DROP TABLE config_changes; --", tags: { team: "c'd" }, severity: ['!info'], source: 'te*' });
    expect(answer.total).toBe(0);
    const { rows } = await t.db.pool.query('SELECT count(*)::int AS n FROM config_changes');
    expect(rows[0]?.n).toBeGreaterThan(100);
  });

  it('needs a signed-in reader of the catalog', async () => {
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/catalog/changes', payload: {} });
    expect(anonymous.statusCode).toBe(401);
    const nobody = await t.userWith([]);
    expect((await post('/api/catalog/changes', {}, nobody.headers)).status).toBe(403);
    const viewer = await t.userWith(['viewer']);
    expect((await post('/api/catalog/changes', {}, viewer.headers)).status).toBe(200);
  });
});
