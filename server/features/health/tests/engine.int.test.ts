import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort as freeClosedPort } from '../testing/check-harness';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { canaryKind } from '../canary-kind';
import { runCanary } from '../run-canary';

/** The engine end to end: a canary-checker YAML applies, runs against a real TCP peer and a script, and reports. */
let t: TestApp;
let server: net.Server;
let port = 0;
let closedPort = 0;

beforeAll(async () => {
  t = await createTestApp();
  server = net.createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  closedPort = await freeClosedPort();
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t?.close();
});

const apply = (text: string) => applyDocuments(t.db.pool, [canaryKind], [{ file: 'canary.yaml', text }], 'ConfigFile', createLogger('silent'));

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, headers = t.adminHeaders) {
  const res = await t.app.inject({ method, url, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { payload: JSON.stringify(body) }) });
  return { status: res.statusCode, json: (): Record<string, unknown> => JSON.parse(res.body), body: res.body };
}

const deps = () => ({ pool: t.db.pool, log: createLogger('silent') });

async function canaryId(name: string): Promise<string> {
  const { rows } = await t.db.pool.query<{ id: string }>('SELECT id FROM canaries WHERE name = $1 AND deleted_at IS NULL', [name]);
  return rows[0]?.id ?? '';
}

describe('canaries', () => {
  it('apply a canary-checker file, reporting unsupported types and fields by name', async () => {
    const results = await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: local
  labels: {team: ops}
spec:
  schedule: "@every 1m"
  env:
    GREETING: {value: hello}
  tcp:
    - name: open-port
      endpoint: 127.0.0.1:${port}
      labels: {tier: db}
    - name: closed-port
      endpoint: 127.0.0.1:${closedPort}
  exec:
    - name: script
      script: echo "$GREETING world"
      test:
        expr: stdout == "hello world" && exitCode == 0
      display:
        template: "said {{.stdout}}"
      metrics: [{name: x}]
  docker:
    - name: pull
      image: nginx
`);
    expect(results[0]).toMatchObject({ ok: true, outcome: { action: 'created', name: 'local' } });
    expect(results[0]?.outcome?.warnings).toEqual([
      'spec.exec[0].metrics[0] (x) has no value: it is not exported',
      'spec.docker: the check type "docker" is not supported by this version; its 1 check is left out',
    ]);
    const { rows } = await t.db.pool.query('SELECT key, endpoint, labels, severity FROM checks ORDER BY key');
    expect(rows).toEqual([
      { key: 'exec/script', endpoint: 'echo "$GREETING world"', labels: { team: 'ops' }, severity: 'info' },
      { key: 'tcp/closed-port', endpoint: `127.0.0.1:${closedPort}`, labels: { team: 'ops' }, severity: 'info' },
      { key: 'tcp/open-port', endpoint: `127.0.0.1:${port}`, labels: { team: 'ops', tier: 'db' }, severity: 'info' },
    ]);
    const next = await t.db.pool.query<{ schedule: string; due: boolean }>("SELECT schedule, next_run_at < now() + interval '61 seconds' AS due FROM canaries WHERE name = 'local'");
    expect(next.rows[0]).toEqual({ schedule: '@every 1m', due: true });
  });

  it('refuses an invalid canary with every problem and its path, writing nothing', async () => {
    const results = await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: broken}
spec:
  schedule: "every minute"
  tcp:
    - endpoint: nowhere
    - name: dup
      endpoint: a:1
    - name: dup
      endpoint: b:2
`);
    expect(results[0]?.ok).toBe(false);
    expect(results[0]?.errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^spec\.schedule: /),
        'spec.tcp[0].name: is required',
        'spec.tcp[0].endpoint: must be host:port, e.g. db.internal:5432',
        'spec.tcp[2].name: another tcp check is named "dup"; names must be unique per type',
      ]),
    );
    expect(await canaryId('broken')).toBe('');
  });

  it('runs the checks, stores results, transitions and events', async () => {
    const id = await canaryId('local');
    const ran = await runCanary(deps(), id, new AbortController().signal);
    const byName = Object.fromEntries(ran.map((item) => [item.check.name, item.outcome.result]));
    expect(byName['open-port']).toMatchObject({ pass: true, invalid: false });
    expect(byName['closed-port']).toMatchObject({ pass: false });
    expect(byName['closed-port']?.message).toContain(`could not connect to 127.0.0.1:${closedPort}`);
    expect(byName.script).toMatchObject({ pass: true, message: 'said hello world' });
    const { rows } = await t.db.pool.query<{ name: string; status: string; transition: boolean }>(
      'SELECT name, status, last_transition_time IS NOT NULL AS transition FROM checks ORDER BY name',
    );
    expect(rows).toEqual([
      { name: 'closed-port', status: 'unhealthy', transition: true },
      { name: 'open-port', status: 'healthy', transition: false },
      { name: 'script', status: 'healthy', transition: false },
    ]);
    const events = await t.db.pool.query<{ name: string; properties: Record<string, unknown> }>("SELECT DISTINCT name, properties FROM event_queue WHERE name LIKE 'check.%'");
    const closed = await t.db.pool.query<{ id: string }>("SELECT id FROM checks WHERE name = 'closed-port'");
    expect(events.rows).toEqual([
      {
        name: 'check.failed',
        properties: expect.objectContaining({
          id: closed.rows[0]?.id,
          check_id: closed.rows[0]?.id,
          canary_id: id,
          name: 'closed-port',
          type: 'tcp',
          namespace: 'default',
          status: 'unhealthy',
          previous: { status: null },
        }),
      },
    ]);
    const rollup = await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM check_rollups_daily');
    expect(rollup.rows[0]?.n).toBe(3);
  });

  it('refuses an expression that does not compile at apply, and fails a run whose expression fails, naming it', async () => {
    const refused = await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: expressions}
spec:
  exec:
    - name: bad-test
      script: echo 1
      test: {expr: "stdout =="}
    - name: bad-template
      script: echo 1
      display: {template: "{{ .stdout | nosuchfunc }}"}
`);
    expect(refused[0]?.ok).toBe(false);
    expect(refused[0]?.errors).toEqual([
      expect.stringMatching(/^spec\.exec\[0\]\.test\.expr: "stdout ==" at 1:\d+: /),
      'spec.exec[1].display.template: "{{ .stdout | nosuchfunc }}" at 1:14: function "nosuchfunc" not defined',
    ]);
    const results = await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: expressions}
spec:
  exec:
    - name: not-boolean
      script: echo 1
      test: {expr: "stdout"}
    - name: failing-template
      script: echo 1
      display: {template: "{{ index .stdout 7 }}"}
`);
    expect(results[0]?.ok).toBe(true);
    const ran = await runCanary(deps(), await canaryId('expressions'), new AbortController().signal);
    const messages = Object.fromEntries(ran.map((item) => [item.check.name, item.outcome.result]));
    expect(messages['not-boolean']).toMatchObject({ pass: false, message: 'test.expr "stdout": expecting either \'true\' or \'false\' but got \'1\'' });
    expect(messages['failing-template']).toMatchObject({ pass: false });
    expect(messages['failing-template']?.message).toMatch(/^display\.template "\{\{ index \.stdout 7 \}\}" at 1:\d+: .*index out of range/);
  });

  it('turns one result into several checks with transform, and removes those no longer reported', async () => {
    await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: fan-out}
spec:
  exec:
    - name: services
      script: 'echo "{\\"api\\": true, \\"worker\\": false}"'
      transform:
        expr: "[{'name': 'api', 'pass': true, 'message': 'up'}, {'name': 'worker', 'pass': false, 'message': 'down'}]"
`);
    const id = await canaryId('fan-out');
    await runCanary(deps(), id, new AbortController().signal);
    const { rows } = await t.db.pool.query<{ key: string; status: string; parent: boolean }>(
      'SELECT key, status, transformed_from IS NOT NULL AS parent FROM checks WHERE canary_id = $1 AND deleted_at IS NULL ORDER BY key',
      [id],
    );
    expect(rows).toEqual([
      { key: 'exec/services', status: 'healthy', parent: false },
      { key: 'exec/services/api', status: 'healthy', parent: true },
      { key: 'exec/services/worker', status: 'unhealthy', parent: true },
    ]);
  });
});

describe('the health API', () => {
  it('summarises every check over a range, from raw results, with filters, sorting and paging', async () => {
    const all = await call('GET', '/api/canary/api/summary?start=1h');
    expect(all.status).toBe(200);
    const body = all.json();
    expect(body).toMatchObject({ source: 'raw', estimate: true });
    const rows = body.checks_summary as Array<Record<string, unknown>>;
    const open = rows.find((row) => row.name === 'open-port');
    expect(open).toMatchObject({ canary_name: 'local', type: 'tcp', status: 'healthy', uptime: { passed: 1, failed: 0 } });
    expect((open?.latency as Record<string, unknown>).p95).toEqual(expect.any(Number));

    const query = await call('GET', `/api/canary/api/summary?${new URLSearchParams({ query: 'type=tcp health=unhealthy' })}`);
    expect((query.json().checks_summary as Array<{ name: string }>).map((row) => row.name)).toEqual(['closed-port']);
    const labelled = await call('GET', `/api/canary/api/summary?${new URLSearchParams({ labels: 'tier=db' })}`);
    expect((labelled.json().checks_summary as Array<{ name: string }>).map((row) => row.name)).toEqual(['open-port']);
    const excluded = await call('POST', '/api/canary/api/summary', { labels: ['team!=ops'], hidePassing: true, canaryId: await canaryId('fan-out') });
    expect((excluded.json().checks_summary as Array<{ name: string }>).map((row) => row.name)).toEqual(['worker']);
    const paged = await call('GET', '/api/canary/api/summary?sortBy=name&sortDesc=true&limit=2&offset=1');
    expect(paged.json().total).toBe(rows.length);
    expect((paged.json().checks_summary as unknown[]).length).toBe(2);
    const bad = await call('GET', '/api/canary/api/summary?start=yesterday-ish&limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('query.limit');
  });

  it('answers longer ranges from rollups and says so', async () => {
    const month = await call('GET', '/api/canary/api/summary?start=30d&query=name=open-port');
    expect(month.json()).toMatchObject({ source: 'daily' });
    expect((month.json().checks_summary as Array<Record<string, unknown>>)[0]).toMatchObject({ uptime: { passed: 1, failed: 0 } });
    const week = await call('GET', '/api/canary/api/summary?start=2d&query=name=open-port');
    expect(week.json()).toMatchObject({ source: 'hourly' });
    expect((week.json().checks_summary as Array<Record<string, unknown>>)[0]).toMatchObject({ uptime: { passed: 1, failed: 0 } });
    const day = await call('GET', '/api/canary/api/summary?start=1d&query=name=open-port');
    expect(day.json()).toMatchObject({ source: 'raw' });
  });

  it('runs a check now for the roles that may, and graphs its history', async () => {
    const { rows } = await t.db.pool.query<{ id: string }>("SELECT id FROM checks WHERE name = 'open-port'");
    const id = rows[0]?.id ?? '';
    const viewer = await t.userWith(['viewer']);
    expect((await call('POST', `/api/canary/run/check/${id}`, undefined, viewer.headers)).status).toBe(403);
    const responder = await t.userWith(['responder']);
    const run = await call('POST', `/api/canary/run/check/${id}`, undefined, responder.headers);
    expect(run.status).toBe(200);
    expect(run.json()).toMatchObject({ check_id: id, status: 'healthy', pass: true, name: 'open-port' });
    const graph = await call('GET', `/api/canary/api/graph?check=${id}&start=1h`);
    expect(graph.json()).toMatchObject({ source: 'raw', uptime: { passed: 2, failed: 0 } });
    const points = graph.json().status as Array<{ passed: number }>;
    expect(points.reduce((sum, point) => sum + point.passed, 0)).toBe(2);
    const history = await call('GET', `/api/db/check_statuses?check_id=eq.${id}&order=time.desc&limit=50`);
    expect(history.json()).toHaveLength(2);
  });

  it('creates, updates and deletes canaries from the console, with name and namespace fixed', async () => {
    const created = await call('POST', '/api/canary/canaries', { name: 'ui-made', spec: { schedule: '@every 5m', tcp: [{ name: 'port', endpoint: `127.0.0.1:${port}` }] } });
    expect(created.status).toBe(201);
    const id = String(created.json().id);
    const again = await call('POST', '/api/canary/canaries', { name: 'ui-made', spec: { schedule: '@every 1m', tcp: [{ name: 'other', endpoint: `127.0.0.1:${port}` }] } });
    expect(again.status).toBe(409);
    expect(again.body).toContain('a canary \\"ui-made\\" already exists in the namespace \\"default\\"');
    const fileNamed = await call('POST', '/api/canary/canaries', { name: 'local', spec: { tcp: [{ name: 'port', endpoint: `127.0.0.1:${port}` }] } });
    expect(fileNamed.status).toBe(409);
    const invalid = await call('PUT', `/api/canary/canaries/${id}`, { name: 'renamed', spec: { tcp: [{ endpoint: 'x' }] } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toContain('body.name');
    const renamed = await call('PUT', `/api/canary/canaries/${id}`, { name: 'ui-made', spec: { tcp: [{ name: 'port', endpoint: 'x' }] } });
    expect(renamed.status).toBe(400);
    expect(renamed.body).toContain('spec.tcp[0].endpoint');
    const updated = await call('PUT', `/api/canary/canaries/${id}`, { name: 'ui-made', spec: { exec: [{ name: 'only', script: 'true' }] } });
    expect(updated.json()).toMatchObject({ action: 'updated', checks: 1 });
    const fileMade = await call('PUT', `/api/canary/canaries/${await canaryId('local')}`, { name: 'local', spec: {} });
    expect(fileMade.status).toBe(409);
    const editor = await t.userWith(['viewer']);
    expect((await call('DELETE', `/api/canary/canaries/${id}`, undefined, editor.headers)).status).toBe(403);
    expect((await call('DELETE', `/api/canary/canaries/${id}`)).status).toBe(200);
    expect(await canaryId('ui-made')).toBe('');
  });

  it('describes itself and its spec schema', async () => {
    expect((await call('GET', '/api/canary/about')).json()).toMatchObject({ name: 'watchkeeper', Version: expect.any(String), check_types: expect.arrayContaining([expect.objectContaining({ type: 'tcp' })]) });
    const schema = (await call('GET', '/api/canary/schema')).json();
    expect(JSON.stringify(schema)).toContain('"endpoint"');
    const validated = await call('POST', '/api/canary/canaries/validate', { spec: { tcp: [{ name: 'x', endpoint: 'bad' }], nope: 1 } });
    expect(validated.json()).toMatchObject({ errors: [{ path: 'spec.tcp[0].endpoint' }], warnings: [expect.stringContaining('spec.nope')] });
  });
});
