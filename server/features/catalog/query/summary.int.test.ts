import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { DAY, insertChange, insertInsight, insertItem } from './testing';

/**
 * POST /api/catalog/summary at the HTTP edge, on a small catalog whose every number is known: two clusters
 * of deployments and pods, an S3 bucket without a cluster, a deleted pod, changes inside and outside the
 * period, and open, resolved and silenced insights.
 */
let t: TestApp;

type Group = Record<string, unknown> & { keys: Record<string, string | null>; count: number; changes: number; insights: number };

async function summary(payload: unknown, headers = t.adminHeaders): Promise<{ status: number; body: unknown }> {
  const response = await t.app.inject({ method: 'POST', url: '/api/catalog/summary', headers, payload: payload as object });
  return { status: response.statusCode, body: response.json() };
}

async function groups(payload: unknown): Promise<Group[]> {
  const answer = await summary(payload);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as Group[];
}

const created = new Date('2025-01-01T00:00:00Z');
const updated = new Date('2025-06-01T00:00:00Z');

beforeAll(async () => {
  t = await createTestApp();
  const pool = t.db.pool;
  const east = { cluster: 'east', team: 'shop' };
  const west = { cluster: 'west' };
  const d1 = await insertItem(pool, { type: 'Kubernetes::Deployment', name: 'web', tags: east, health: 'healthy', status: 'Running', created_at: created });
  const d2 = await insertItem(pool, { type: 'Kubernetes::Deployment', name: 'api', tags: west, health: 'warning', status: 'Running', updated_at: updated });
  const p1 = await insertItem(pool, { type: 'Kubernetes::Pod', name: 'web-1', parent: d1, tags: east, health: 'healthy', status: 'Running', labels: { app: 'web' } });
  const p2 = await insertItem(pool, { type: 'Kubernetes::Pod', name: 'web-2', parent: d1, tags: east, health: 'unhealthy', status: 'CrashLoopBackOff', labels: { app: 'web' } });
  const p3 = await insertItem(pool, { type: 'Kubernetes::Pod', name: 'api-1', parent: d2, tags: west, health: null, status: 'Pending' });
  const gone = await insertItem(pool, { type: 'Kubernetes::Pod', name: 'web-0', parent: d1, tags: east, health: 'unhealthy', status: 'Error', deleted: true });
  const bucket = await insertItem(pool, { type: 'AWS::S3::Bucket', name: 'assets', health: 'unknown', tags: { account: 'prod' } });
  // Changes: 3 of d1 in the week, 1 of d1 older; 2 of p2 in the week; 1 of p3 30 days ago; 2 of the deleted pod.
  for (const ago of [1, 2, 3]) await insertChange(pool, d1, { ago: ago * 3_600_000 });
  await insertChange(pool, d1, { ago: 9 * DAY });
  await insertChange(pool, p2, { change_type: 'BackOff', ago: DAY });
  await insertChange(pool, p2, { change_type: 'BackOff', ago: 2 * DAY });
  await insertChange(pool, p3, { ago: 30 * DAY });
  await insertChange(pool, gone, { ago: DAY });
  await insertChange(pool, gone, { ago: DAY });
  // Insights: open ones count, resolved and silenced ones do not.
  await insertInsight(pool, p2, 'crash-looping', 'availability');
  await insertInsight(pool, p2, 'no-limits', 'performance');
  await insertInsight(pool, p1, 'no-limits', 'performance');
  await insertInsight(pool, p3, 'image-latest', 'reliability', 'resolved');
  await insertInsight(pool, d2, 'single-replica', 'availability', 'silenced');
  await insertInsight(pool, bucket, 'public-bucket', 'security', 'open', 20 * DAY);
  await insertInsight(pool, gone, 'crash-looping', 'availability');
});

afterAll(async () => {
  await t?.close();
});

describe('POST /api/catalog/summary', () => {
  it('counts live items per type with health, statuses, changes of the last 7 days, open insights and dates', async () => {
    const answer = await groups({});
    expect(answer.map((group) => group.type)).toEqual(['AWS::S3::Bucket', 'Kubernetes::Deployment', 'Kubernetes::Pod']);
    const [bucket, deployments, pods] = answer;
    expect(bucket).toMatchObject({
      type: 'AWS::S3::Bucket', keys: { type: 'AWS::S3::Bucket' }, count: 1, health: { healthy: 0, unhealthy: 0, warning: 0, unknown: 1 },
      status: {}, changes: 0, analysis: { security: 1 }, insights: 1,
    });
    expect(deployments).toMatchObject({
      count: 2, health: { healthy: 1, unhealthy: 0, warning: 1, unknown: 0 }, status: { Running: 2 }, changes: 3, analysis: {}, insights: 0,
      created_at: created.toISOString(),
    });
    expect(Date.parse(String(deployments?.updated_at))).toBeGreaterThan(updated.getTime());
    // The deleted pod, its changes and its insight are left out; a pod without health counts as unknown.
    expect(pods).toMatchObject({
      count: 3, health: { healthy: 1, unhealthy: 1, warning: 0, unknown: 1 }, status: { Running: 1, CrashLoopBackOff: 1, Pending: 1 },
      changes: 2, analysis: { availability: 1, performance: 2 }, insights: 3,
    });
    expect(Object.keys(pods ?? {}).sort()).toEqual(['analysis', 'changes', 'count', 'created_at', 'health', 'insights', 'keys', 'status', 'type', 'updated_at']);
  });

  it('counts deleted items too when asked, and changes over another period', async () => {
    const answer = await groups({ deleted: true, changes: { since: '10d' } });
    expect(answer.find((group) => group.type === 'Kubernetes::Pod')).toMatchObject({ count: 4, changes: 4, insights: 4, status: { Error: 1 } });
    expect(answer.find((group) => group.type === 'Kubernetes::Deployment')).toMatchObject({ changes: 4 });
    const month = await groups({ changes: { since: 'now-31d' } });
    expect(month.find((group) => group.type === 'Kubernetes::Pod')?.changes).toBe(3);
    const recent = await groups({ analysis: { since: '7d' } });
    expect(recent.find((group) => group.type === 'AWS::S3::Bucket')).toMatchObject({ analysis: {}, insights: 0 });
  });

  it('groups by a tag key (items without it in a null group), and by several keys', async () => {
    const byCluster = await groups({ groupBy: ['cluster'] });
    expect(byCluster.map((group) => [group.cluster, group.count, group.changes, group.insights])).toEqual([
      ['east', 3, 5, 3],
      ['west', 2, 0, 0],
      [null, 1, 0, 1],
    ]);
    const explicit = await groups({ groupBy: ['tags.cluster'] });
    expect(explicit.map((group) => group.keys['tags.cluster'])).toEqual(['east', 'west', null]);
    const two = await groups({ groupBy: ['type', 'cluster'] });
    expect(two.map((group) => `${group.type}|${group.cluster}|${group.count}`)).toEqual([
      'AWS::S3::Bucket|null|1',
      'Kubernetes::Deployment|east|1',
      'Kubernetes::Deployment|west|1',
      'Kubernetes::Pod|east|2',
      'Kubernetes::Pod|west|1',
    ]);
    // health and status name the counts of every group: as keys they stay in `keys`.
    const byHealth = await groups({ groupBy: ['health'] });
    expect(byHealth.map((group) => [group.keys.health, group.count])).toEqual([['healthy', 2], ['unhealthy', 1], ['unknown', 1], ['warning', 1], [null, 1]]);
    expect(byHealth[0]?.health).toMatchObject({ healthy: 2 });
    const byLabel = await groups({ groupBy: ['labels.app'] });
    expect(byLabel.map((group) => [group.keys['labels.app'], group.count])).toEqual([['web', 2], [null, 4]]);
  });

  it('counts the same changes whichever way it groups', async () => {
    const total = (list: Group[]) => list.reduce((sum, group) => sum + group.changes, 0);
    const { rows } = await t.db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM config_changes c JOIN config_items ci ON ci.id = c.config_id WHERE ci.deleted_at IS NULL AND c.created_at >= now() - interval '7 days'",
    );
    expect(rows[0]?.n).toBe(5);
    for (const groupBy of [['type'], ['cluster'], ['type', 'status'], ['config_class']]) expect(total(await groups({ groupBy }))).toBe(5);
    expect(total(await groups({ groupBy: ['type'], filter: { type: '!Kubernetes::Pod' } }))).toBe(3);
  });

  it('filters by type, health, status, tags, labels and name, with ! to exclude and * as a wildcard', async () => {
    const types = async (filter: unknown) => (await groups({ filter, groupBy: ['type'] })).map((group) => `${group.type}:${group.count}`);
    expect(await types({ type: 'Kubernetes::*' })).toEqual(['Kubernetes::Deployment:2', 'Kubernetes::Pod:3']);
    expect(await types({ type: ['!Kubernetes::Pod'] })).toEqual(['AWS::S3::Bucket:1', 'Kubernetes::Deployment:2']);
    expect(await types({ health: 'unhealthy,warning' })).toEqual(['Kubernetes::Deployment:1', 'Kubernetes::Pod:1']);
    // An excluded value keeps items without one (the bucket has no status).
    expect(await types({ status: '!Running' })).toEqual(['AWS::S3::Bucket:1', 'Kubernetes::Pod:2']);
    expect(await types({ tags: { cluster: 'east' } })).toEqual(['Kubernetes::Deployment:1', 'Kubernetes::Pod:2']);
    expect(await types({ tags: 'cluster!=east' })).toEqual(['AWS::S3::Bucket:1', 'Kubernetes::Deployment:1', 'Kubernetes::Pod:1']);
    expect(await types({ labels: { app: 'web' } })).toEqual(['Kubernetes::Pod:2']);
    expect(await types({ search: 'web' })).toEqual(['Kubernetes::Deployment:1', 'Kubernetes::Pod:2']);
    expect(await types({ search: '100%' })).toEqual([]);
    const east = await groups({ filter: { tags: { cluster: 'east' } } });
    expect(east.find((group) => group.type === 'Kubernetes::Pod')).toMatchObject({ changes: 2, insights: 3 });
  });

  it('refuses bad input with every field named', async () => {
    const bad = await summary({ groupBy: [], filter: { colour: 'red', tags: 'nonsense' }, changes: { since: 'a while' }, deleted: 'perhaps' });
    expect(bad.status).toBe(400);
    const body = bad.body as { error: string; details: Array<{ path: string; message: string }> };
    expect(body.error).toBe('invalid_request');
    const paths = body.details.map((issue) => issue.path);
    for (const field of ['body.groupBy', 'body.filter', 'body.filter.tags', 'body.deleted']) expect(paths).toContain(field);
    expect(JSON.stringify(body)).toContain('colour');
    const since = await summary({ changes: { since: 'a while' }, analysis: { since: 'later' } });
    expect((since.body as { details: Array<{ path: string }> }).details.map((issue) => issue.path)).toEqual(['body.changes.since', 'body.analysis.since']);
    const key = await summary({ groupBy: ['type; DROP TABLE config_items'] });
    expect(key.status).toBe(400);
    expect(JSON.stringify(key.body)).toContain('body.groupBy[0]');
  });

  it('needs a reader of the catalog', async () => {
    const nobody = await t.userWith([]);
    expect((await summary({}, nobody.headers)).status).toBe(403);
    const guest = await t.userWith(['guest']);
    expect((await summary({}, guest.headers)).status).toBe(200);
  });
});
