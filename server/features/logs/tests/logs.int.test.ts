import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../../test/cli';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { logBackendKind } from '../backends';

let t: TestApp;
let dir: string;
let webId: string;
let dbId: string;
const log = createLogger('silent');
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

interface Line {
  time: string;
  message: string;
  level?: string;
  source: string;
  labels: Record<string, string>;
}
interface SearchAnswer {
  results: Line[];
  total: number;
  files: number;
  truncated: string[];
  backends: string[];
  component?: { id: string; name: string };
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-logs-'));
  // Backends read only under the log roots (docs/LOGS.md): this test's folder, and /var/log for the examples.
  t = await createTestApp({ env: { WATCHKEEPER_LOG_ROOTS: [dir, '/var/log'].join(path.delimiter) } });
  await fs.mkdir(path.join(dir, 'shop'));
  await fs.writeFile(
    path.join(dir, 'app.log'),
    [
      `${minutesAgo(240)} INFO started long ago`,
      `${minutesAgo(30)} INFO request served in 12 ms`,
      `${minutesAgo(20)} ERROR payment failed: Connection refused`,
      '    at Socket.connect (net.js:1:1)',
      `${minutesAgo(10)} WARN retrying payment`,
      '',
    ].join('\n'),
  );
  await fs.writeFile(
    path.join(dir, 'json.log'),
    [
      JSON.stringify({ level: 50, time: Date.now() - 5 * 60_000, msg: 'cart checkout timed out' }),
      JSON.stringify({ level: 30, time: Date.now() - 4 * 60_000, msg: 'cart ok' }),
      '',
    ].join('\n'),
  );
  await fs.writeFile(path.join(dir, 'shop', 'web.log'), `${minutesAgo(2)} ERROR web: upstream payment unavailable\n`);
  const old = path.join(dir, 'old.log');
  await fs.writeFile(old, 'a line without a time\n');
  const week = new Date(Date.now() - 7 * 86_400_000);
  await fs.utimes(old, week, week);
  const { rows } = await t.db.pool.query<{ id: string; name: string }>(
    `INSERT INTO components (external_id, name, type, labels) VALUES
       ('shop/web', 'web', 'Service', '{"team": "shop"}'), ('shop/db', 'db', 'Database', '{"team": "shop"}') RETURNING id, name`,
  );
  webId = rows.find((row) => row.name === 'web')?.id ?? '';
  dbId = rows.find((row) => row.name === 'db')?.id ?? '';
});

afterAll(async () => {
  await t?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

async function call(method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, headers = t.adminHeaders) {
  const res = await t.app.inject({ method, url, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' }, ...(body === undefined ? {} : { payload: JSON.stringify(body) }) });
  return { status: res.statusCode, json: <T = Record<string, unknown>>(): T => JSON.parse(res.body) as T };
}
const search = async (body: unknown, headers = t.adminHeaders) => {
  const res = await call('POST', '/api/logs', body, headers);
  return { status: res.status, answer: res.json<SearchAnswer>(), raw: res.json() };
};

describe('log backends', () => {
  it('refuses a spec without files, by path, and writes nothing', async () => {
    const res = await call('POST', '/api/logs/backends', { name: 'bad', spec: { files: [{ paths: [] }], components: [{}], extra: 1 } });
    expect(res.status).toBe(400);
    expect(res.json<{ details: unknown[] }>().details).toEqual(
      expect.arrayContaining([
        { path: 'body.spec.files.0.paths', message: 'give at least one path or glob' },
        { path: 'body.spec.components.0', message: 'give a name, type or labels' },
      ]),
    );
    expect((await call('POST', '/api/logs/backends', { spec: { files: [{ paths: ['x'] }] } })).json<{ details: unknown[] }>().details).toEqual([{ path: 'body.name', message: 'is required' }]);
    const { rows } = await t.db.pool.query("SELECT count(*)::int AS n FROM logging_backends WHERE name = 'bad'");
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('creates, refuses a duplicate name, updates and deletes; viewers may read but not write', async () => {
    const viewer = await t.userWith(['viewer']);
    expect((await call('POST', '/api/logs/backends', { name: 'v', spec: { files: [{ paths: ['/tmp/x.log'] }] } }, viewer.headers)).status).toBe(403);
    const created = await call('POST', '/api/logs/backends', { name: 'app', spec: { files: [{ paths: [path.join(dir, '*.log')], labels: { host: 'a' } }] } });
    expect(created.status).toBe(201);
    const again = await call('POST', '/api/logs/backends', { name: 'app', spec: { files: [{ paths: [path.join(dir, 'x')] }] } });
    expect(again.status).toBe(409);
    const temp = await call('POST', '/api/logs/backends', { name: 'temp', spec: { files: [{ paths: [path.join(dir, 'nowhere', '*.log')] }] } });
    const id = temp.json<{ id: string }>().id;
    expect((await call('PUT', `/api/logs/backends/${id}`, { spec: { files: [{ paths: [path.join(dir, 'elsewhere.log')] }] } })).status).toBe(200);
    expect((await call('DELETE', `/api/logs/backends/${id}`)).status).toBe(200);
    expect((await call('DELETE', `/api/logs/backends/${id}`)).status).toBe(404);
    const read = await t.app.inject({ method: 'GET', url: '/api/db/logging_backends?select=name&order=name', headers: viewer.headers });
    expect(JSON.parse(read.body)).toEqual([{ name: 'app' }]);
  });
});

describe('POST /api/logs', () => {
  it('answers a backend\'s lines newest first, with times, levels and the file, inside the range', async () => {
    const { status, answer } = await search({ name: 'app' });
    expect(status).toBe(200);
    expect(answer.backends).toEqual(['app']);
    expect(answer.results.map((line) => line.message)).toEqual([
      'cart ok',
      'cart checkout timed out',
      'WARN retrying payment',
      '    at Socket.connect (net.js:1:1)',
      'ERROR payment failed: Connection refused',
      'INFO request served in 12 ms',
    ]);
    expect(answer.results[1]).toMatchObject({ level: 'error', source: path.join(dir, 'json.log'), labels: { backend: 'app', host: 'a' } });
    expect(answer.results[4]?.level).toBe('error');
    // The stack trace line takes the time of the line before it.
    expect(answer.results[3]?.time).toBe(answer.results[4]?.time);
    expect(answer.total).toBe(6);
  });

  it('filters by text (any case), by range and by limit, and says how many matched', async () => {
    expect((await search({ name: 'app', query: 'PAYMENT' })).answer.results.map((line) => line.message)).toEqual([
      expect.stringContaining('retrying payment'),
      expect.stringContaining('payment failed'),
    ]);
    const day = await search({ name: 'app', start: '1d' });
    expect(day.answer.results.some((line) => line.message.includes('started long ago'))).toBe(true);
    expect(day.answer.results.some((line) => line.message.includes('without a time'))).toBe(false);
    const window = await search({ name: 'app', start: minutesAgo(25), end: minutesAgo(8) });
    expect(window.answer.results.map((line) => line.message)).toEqual([expect.stringContaining('retrying'), expect.stringContaining('at Socket'), expect.stringContaining('payment failed')]);
    const limited = await search({ name: 'app', limit: 2 });
    expect(limited.answer.results).toHaveLength(2);
    expect(limited.answer.total).toBe(6);
  });

  it('searches a component\'s logs through the backends whose selectors name it, with {{name}} in paths', async () => {
    expect((await call('POST', '/api/logs/backends', { name: 'shop', spec: { files: [{ paths: [path.join(dir, 'shop', '{{name}}.log')] }], components: [{ type: 'Service', labels: { team: 'shop' } }] } })).status).toBe(201);
    const listed = await t.app.inject({ method: 'GET', url: '/api/db/components_with_logs?select=name,logs', headers: t.adminHeaders });
    expect(JSON.parse(listed.body)).toEqual([{ name: 'web', logs: [{ id: expect.any(String), name: 'shop' }] }]);
    const { status, answer } = await search({ id: webId });
    expect(status).toBe(200);
    expect(answer.component).toMatchObject({ id: webId, name: 'web' });
    expect(answer.results.map((line) => line.message)).toEqual([expect.stringContaining('upstream payment unavailable')]);
    const none = await search({ id: dbId });
    expect(none.status).toBe(404);
    expect(none.raw).toMatchObject({ message: 'no log backend holds the logs of db' });
    expect((await search({ id: webId, name: 'app' })).status).toBe(404);
  });

  it('answers 400 by field for a bad request and 404 for an unknown backend', async () => {
    const neither = await search({ query: 'x' });
    expect(neither.status).toBe(400);
    expect(neither.raw).toMatchObject({ details: [{ path: 'body.name', message: expect.stringContaining('give a log backend name') }] });
    const backwards = await search({ name: 'app', start: minutesAgo(5), end: minutesAgo(10) });
    expect(backwards.raw).toMatchObject({ details: [{ path: 'body.start', message: 'must be before end' }] });
    const bad = await search({ name: 'app', start: 'yesterday-ish', limit: 0 });
    expect(bad.status).toBe(400);
    expect(bad.raw).toMatchObject({
      details: expect.arrayContaining([
        { path: 'body.start', message: 'must be an ISO 8601 time or a duration before now such as 15m, 1h or 7d' },
        { path: 'body.limit', message: 'must be at least 1' },
      ]),
    });
    expect((await search({ name: 'nope' })).status).toBe(404);
    expect((await search({ name: 'app' }, {})).status).toBe(401);
  });

  it('attaches log lines of a component to an incident as evidence, shown by incidents_by_component', async () => {
    const lines = (await search({ id: webId })).answer.results.map((line) => `${line.time} ${line.message}`);
    const linked = await call('POST', '/api/incidents/link', {
      incident: { title: 'Payments down', type: 'availability', severity: 'high' },
      hypothesis: {},
      evidence: { type: 'log', component_id: webId, description: 'web log', evidence: { lines, backend: 'shop', query: '' } },
    });
    expect(linked.status).toBe(201);
    const { rows } = await t.db.pool.query("SELECT e.evidence->'lines' AS lines FROM evidences e WHERE e.type = 'log'");
    expect(rows).toEqual([{ lines }]);
    const related = await t.app.inject({ method: 'GET', url: `/api/db/incidents_by_component?component_id=eq.${webId}&select=title`, headers: t.adminHeaders });
    expect(JSON.parse(related.body)).toEqual([{ title: 'Payments down' }]);
  });
});

describe('kind LogBackend', () => {
  it('applies examples/logs/backends.yaml as written, and reports a bad spec by path', async () => {
    const file = path.join(ROOT, 'examples', 'logs', 'backends.yaml');
    const results = await applyDocuments(t.db.pool, [logBackendKind], [{ file, text: await fs.readFile(file, 'utf8') }], 'ConfigFile', log);
    expect(results.map((result) => [result.name, result.ok, result.errors])).toEqual([
      ['system', true, []],
      ['shop-services', true, []],
    ]);
    const [bad] = await applyDocuments(t.db.pool, [logBackendKind], [{ file: 'x.yaml', text: 'apiVersion: watchkeeper.dev/v1\nkind: LogBackend\nmetadata: {name: x}\nspec: {files: []}\n' }], 'ConfigFile', log);
    expect(bad).toMatchObject({ ok: false, errors: ['spec.files: a backend reads files: give at least one entry with paths'] });
  });
});
