import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { applyCanary, canaryIdOf, runByName } from '../testing/check-harness';

/** webhook checks: real HTTP posts to /webhook/{id or name} on the listening test app. */
let t: TestApp;
let base = '';
const logs: string[] = [];
const TOKEN = 'hook-secret-123';

async function post(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown> }> {
  const isText = typeof body === 'string';
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: body === undefined ? headers : { 'content-type': isText ? 'text/plain' : 'application/json', ...headers },
    ...(body === undefined ? {} : { body: isText ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : {} };
}

async function lastResult(name: string): Promise<{ status: boolean; message: string; details: Record<string, unknown> | null } | undefined> {
  const { rows } = await t.db.pool.query<{ status: boolean; message: string; details: Record<string, unknown> | null }>(
    'SELECT s.status, s.message, s.details FROM check_statuses s JOIN checks c ON c.id = s.check_id WHERE c.name = $1 AND c.deleted_at IS NULL ORDER BY s.time DESC LIMIT 1',
    [name],
  );
  return rows[0];
}

beforeAll(async () => {
  t = await createTestApp({ logs });
  base = await t.listen();
  const applied = await applyCanary(
    t,
    `
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: deploys}
spec:
  schedule: "@every 1m"
  exec:
    - name: local script
      script: "true"
  webhook:
    name: deploy-hook
    token: {value: ${TOKEN}}
    test:
      expr: "!has(results.json.version) || results.json.version != 'bad'"
---
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: alerts}
spec:
  webhook:
    name: alert-hook
    transform:
      expr: "results.json.alerts.map(a, {'name': a.labels.alertname, 'pass': a.status == 'resolved', 'message': a.annotations.summary})"
---
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: text-hook}
spec:
  webhook:
    name: text-hook
    test:
      expr: results.content.contains('OK') && results.headers['x-source'] == 'cron'
---
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: dup-a}
spec:
  webhook: {name: twin}
---
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: dup-b}
spec:
  webhook: {name: twin}
`,
  );
  expect(applied).toMatchObject({ ok: true, warnings: [] });
});

afterAll(async () => {
  await t?.close();
});

describe('webhook', () => {
  it('refuses posts without the right token', async () => {
    expect((await post('/webhook/deploy-hook', { status: 'ok' })).status).toBe(401);
    const wrong = await post('/webhook/deploy-hook?token=nope', { status: 'ok' });
    expect(wrong).toMatchObject({ status: 401, json: { error: 'unauthorized' } });
    expect((await post('/webhook/deploy-hook', { status: 'ok' }, { 'webhook-token': 'nope' })).status).toBe(401);
    expect(await lastResult('deploy-hook')).toBeUndefined();
  });

  it('records what a post says, with transitions and events, by name or by id, token in the query or a header', async () => {
    const failed = await post(`/webhook/deploy-hook?token=${TOKEN}`, { status: 'failed', message: 'deploy 42 failed', error: 'exit 1' });
    expect(failed).toMatchObject({ status: 200, json: { message: 'ok', status: 'unhealthy', result_message: 'deploy 42 failed' } });
    expect(await lastResult('deploy-hook')).toMatchObject({ status: false, message: 'deploy 42 failed', details: { contentType: 'application/json', json: { status: 'failed', message: 'deploy 42 failed', error: 'exit 1' } } });

    const id = String(failed.json.check_id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const recovered = await post(`/webhook/${id}?pass=true&message=recovered`, undefined, { 'webhook-token': TOKEN });
    expect(recovered).toMatchObject({ status: 200, json: { check_id: id, status: 'healthy' } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const tested = await post(`/api/canary/webhook/deploy-hook?token=${TOKEN}`, { version: 'bad' });
    expect(tested.json).toMatchObject({ status: 'unhealthy' });
    expect(String(tested.json.result_message)).toMatch(/^test failed: /);

    // Failing again is no transition: no event.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await post(`/webhook/deploy-hook?token=${TOKEN}`, { status: 'failed', message: 'still failing' })).json).toMatchObject({ status: 'unhealthy' });

    // One row per subscribed consumer may exist for each event: one per event_id.
    const events = await t.db.pool.query<{ name: string; id: string; previous: unknown; name_prop: string }>(
      `SELECT name, id, previous, name_prop FROM (
         SELECT DISTINCT event_id, name, properties->>'id' AS id, properties->'previous' AS previous, properties->>'name' AS name_prop, created_at
         FROM event_queue WHERE properties->>'check_id' = $1) e ORDER BY created_at`,
      [id],
    );
    expect(events.rows).toEqual([
      { name: 'check.failed', id, previous: { status: null }, name_prop: 'deploy-hook' },
      { name: 'check.passed', id, previous: { status: 'unhealthy' }, name_prop: 'deploy-hook' },
      { name: 'check.failed', id, previous: { status: 'healthy' }, name_prop: 'deploy-hook' },
    ]);
    const check = await t.db.pool.query<{ status: string; transition: boolean }>('SELECT status, last_transition_time IS NOT NULL AS transition FROM checks WHERE id = $1', [id]);
    expect(check.rows[0]).toEqual({ status: 'unhealthy', transition: true });
    const rollup = await t.db.pool.query<{ failed: number }>('SELECT sum(failed)::int AS failed FROM check_rollups_hourly WHERE check_id = $1', [id]);
    expect(rollup.rows[0]?.failed).toBe(3);
  });

  it('hands results.content and results.headers to expressions for other content types', async () => {
    const res = await post('/webhook/text-hook', 'backup OK at 02:00', { 'x-source': 'cron', authorization: 'Bearer not-kept' });
    expect(res.json).toMatchObject({ status: 'healthy' });
    expect(await lastResult('text-hook')).toMatchObject({ status: true, details: { contentType: 'text/plain', content: 'backup OK at 02:00' } });
    expect((await post('/webhook/text-hook', 'backup failed', { 'x-source': 'cron' })).json).toMatchObject({ status: 'unhealthy' });
  });

  it('fans a payload out with transform', async () => {
    const res = await post('/webhook/alert-hook', {
      status: 'firing',
      alerts: [
        { status: 'firing', labels: { alertname: 'DiskFull' }, annotations: { summary: 'disk 95% full' } },
        { status: 'resolved', labels: { alertname: 'HighLatency' }, annotations: { summary: 'latency back to normal' } },
      ],
    });
    expect(res.json).toMatchObject({ status: 'healthy', transformed: 2 });
    const children = await t.db.pool.query<{ name: string; status: string }>(
      'SELECT name, status FROM checks WHERE canary_id = $1 AND transformed_from IS NOT NULL AND deleted_at IS NULL ORDER BY name',
      [await canaryIdOf(t, 'alerts')],
    );
    expect(children.rows).toEqual([
      { name: 'DiskFull', status: 'unhealthy' },
      { name: 'HighLatency', status: 'healthy' },
    ]);
  });

  it('answers 404, 400 for an ambiguous name or bad JSON, and takes an id for a shared name', async () => {
    expect(await post('/webhook/nobody', {})).toMatchObject({ status: 404, json: { error: 'not_found' } });
    const twin = await post('/webhook/twin', {});
    expect(twin.status).toBe(400);
    expect(twin.json.message).toBe('2 webhook checks are named "twin": post to /webhook/{check id} instead');
    const { rows } = await t.db.pool.query<{ id: string }>("SELECT id FROM checks WHERE name = 'twin' ORDER BY id LIMIT 1");
    expect((await post(`/webhook/${rows[0]?.id}`, {})).json).toMatchObject({ status: 'healthy' });
    const bad = await fetch(`${base}/webhook/alert-hook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"alerts": [' });
    expect(bad.status).toBe(400);
  });

  it('is never run by the scheduler or Run Now, and keeps its token out of the logs', async () => {
    const ran = await runByName(t, 'deploys');
    expect(Object.keys(ran)).toEqual(['local script']);
    const { rows } = await t.db.pool.query<{ id: string }>("SELECT id FROM checks WHERE name = 'deploy-hook'");
    const runNow = await t.app.inject({ method: 'POST', url: `/api/canary/run/check/${rows[0]?.id}`, headers: t.adminHeaders });
    expect(runNow.statusCode).toBe(409);
    expect(logs.join('\n')).toContain('/webhook/deploy-hook?token=***');
    expect(logs.join('\n')).not.toContain(TOKEN);
    const stored = JSON.stringify(await t.db.pool.query('SELECT message, error, details FROM check_statuses'));
    expect(stored).not.toContain(TOKEN);
    expect(stored).not.toContain('not-kept');
  });
});
