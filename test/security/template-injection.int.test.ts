import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../app';
import { createRunner } from '../../server/features/playbooks/index';
import type { PlaybookRunner } from '../../server/features/playbooks/runner';
import { finishedRun } from '../../server/features/playbooks/testing/runs';

/**
 * Issue 35, finding 7: no request or parameter value changes the command that runs. A webhook body, a text
 * parameter given by a person who may only run the playbook, a SQL query's value and a URL's value are
 * data; a webhook without authentication is refused when the playbook runs exec actions.
 */

let t: TestApp;
let runner: PlaybookRunner | undefined;
let sink: Server;
let sinkUrl = '';
const received: string[] = [];
const created: string[] = [];

/** A file path no test creates on purpose: a payload that runs would create it. */
function canary(): string {
  const file = path.join(os.tmpdir(), `wk-injected-${randomUUID()}`);
  created.push(file);
  return file;
}

async function post(url: string, payload: unknown, headers = t.adminHeaders) {
  return t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers });
}

async function playbook(name: string, spec: Record<string, unknown>): Promise<string> {
  const response = await post('/api/playbooks', { name, spec });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

async function run(body: Record<string, unknown>, headers = t.adminHeaders): Promise<string> {
  const response = await post('/api/playbook/run', body, headers);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().run_id;
}

const finished = (id: string, millis?: number) => finishedRun(t.db.pool, id, millis);

beforeAll(async () => {
  t = await createTestApp();
  runner = createRunner(t.context, { pollMillis: 200, leaseMillis: 3_000 });
  await runner.start();
  sink = createServer((req, res) => {
    received.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await runner?.stop();
  if (sink) await new Promise((resolve) => sink.close(resolve));
  for (const file of created) rmSync(file, { force: true });
  await t?.close();
});

describe('template values reach the shell as data', () => {
  it('a webhook body cannot run commands (authenticated webhook)', async () => {
    await playbook('hook-echo', {
      on: { webhook: { path: 'inject/echo', authentication: { basic: { username: { value: 'ci' }, password: { value: 'pw' } } } } },
      actions: [{ name: 'echo', exec: { script: 'echo "got {{.request.json.x}}"' } }],
    });
    const file = canary();
    const payload = `$(touch ${file})`;
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/playbook/webhook/inject/echo',
      payload: { x: payload },
      headers: { authorization: `Basic ${Buffer.from('ci:pw').toString('base64')}` },
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const done = await finished(posted.json().run_id);
    expect(done.status).toBe('completed');
    expect(done.actions[0]?.result.stdout).toBe(`got ${payload}`);
    expect(existsSync(file)).toBe(false);
  });

  it('a person who may only run the playbook cannot inject shell through a text parameter', async () => {
    const id = await playbook('param-echo', {
      parameters: [{ name: 'who', label: 'Who' }],
      actions: [
        { name: 'double', exec: { script: 'echo "hello {{.params.who}}"' } },
        { name: 'single', exec: { script: "echo 'hello {{.params.who}}'" } },
        { name: 'bare', exec: { script: 'echo hello {{.params.who}}' } },
      ],
    });
    const runnerOnly = await t.userWith(['guest']);
    await t.db.pool.query("INSERT INTO permissions (subject, subject_type, person_id, action, playbook_id) VALUES ($1::text, 'person', $1::uuid, 'playbook:run', $2)", [runnerOnly.id, id]);
    // The guest may run it, and may not change it.
    const edit = await t.app.inject({ method: 'PUT', url: `/api/playbooks/${id}`, payload: { spec: { actions: [{ name: 'x', exec: { script: 'id' } }] } }, headers: runnerOnly.headers });
    expect(edit.statusCode).toBeGreaterThanOrEqual(400);

    for (const template of [(file: string) => `x"; touch ${file}; echo "`, (file: string) => `x'; touch ${file}; echo '`, (file: string) => `x\ntouch ${file}`, (file: string) => `\`touch ${file}\``]) {
      const file = canary();
      const who = template(file);
      const runId = await run({ id, params: { who } }, runnerOnly.headers);
      const done = await finished(runId);
      expect(done.status, JSON.stringify(done.actions)).toBe('completed');
      for (const action of done.actions) expect(action.result.stdout).toBe(`hello ${who}`);
      expect(existsSync(file), who).toBe(false);
    }
    // Ordinary values print as they always did.
    const plain = await finished(await run({ id, params: { who: 'world' } }, runnerOnly.headers));
    expect(plain.actions.map((action) => action.result.stdout)).toEqual(['hello world', 'hello world', 'hello world']);
  });

  it('literal text inside {{if}} and {{range}} still runs as code; the values inside do not', async () => {
    const made = canary();
    const file = canary();
    const id = await playbook('if-block', {
      parameters: [{ name: 'mode', label: 'Mode' }, { name: 'x', label: 'X' }],
      actions: [{ name: 'go', exec: { script: `{{if eq .params.mode "make"}}touch ${made}; echo "made {{.params.x}}"{{else}}echo skipped{{end}}{{range $i := 2}}; echo "n={{$i}}"{{end}}` } }],
    });
    const done = await finished(await run({ id, params: { mode: 'make', x: `$(touch ${file})` } }));
    expect(done.status).toBe('completed');
    expect(done.actions[0]?.result.stdout).toBe(`made $(touch ${file})\nn=0\nn=1`);
    expect(existsSync(made)).toBe(true);
    expect(existsSync(file)).toBe(false);
    // The stored script shows references, not the values.
    expect(JSON.stringify(done.actions[0]?.result.args)).toContain('${WK_TPL_1}');
  });
});

describe('sql and http actions take template values as values', () => {
  it('a value in a sql query is a value, not SQL (PostgreSQL)', async () => {
    const table = `wk_inject_${randomUUID().replace(/-/g, '').slice(0, 8)}`;
    await t.db.pool.query(`CREATE TABLE ${table} (name text)`);
    await t.db.pool.query(`INSERT INTO ${table} VALUES ('alice'), ('bob')`);
    const id = await playbook('sql-inject', {
      parameters: [{ name: 'x', label: 'X' }],
      actions: [
        { name: 'quoted', sql: { url: t.db.url, query: `SELECT count(*)::int AS n FROM ${table} WHERE name = '{{.params.x}}'` } },
        { name: 'bare', if: 'always()', sql: { url: t.db.url, query: `SELECT {{.params.x}} AS v, (SELECT count(*)::int FROM ${table}) AS n` } },
      ],
    });
    const payload = `'; DROP TABLE ${table}; --`;
    const done = await finished(await run({ id, params: { x: payload } }));
    expect(done.actions.map((action) => action.error)).toEqual([null, null]);
    expect(done.actions[0]?.result.rows).toEqual([{ n: 0 }]);
    expect(done.actions[1]?.result.rows).toEqual([{ v: payload, n: 2 }]);
    const still = await t.db.pool.query(`SELECT count(*)::int AS n FROM ${table}`);
    expect(still.rows[0].n).toBe(2);
    // Ordinary values work as before.
    const alice = await finished(await run({ id, params: { x: 'alice' } }));
    expect(alice.actions[0]?.result.rows).toEqual([{ n: 1 }]);
  });

  it('a value in a URL is encoded for its place and cannot change the host', async () => {
    const id = await playbook('http-inject', {
      parameters: [{ name: 'x', label: 'X' }],
      actions: [{ name: 'call', http: { url: `${sinkUrl}/items/{{.params.x}}?q={{.params.x}}` } }],
    });
    received.length = 0;
    const done = await finished(await run({ id, params: { x: '../admin?role=admin#x' } }));
    expect(done.status, JSON.stringify(done.actions)).toBe('completed');
    expect(received).toEqual(['/items/..%2Fadmin%3Frole%3Dadmin%23x?q=..%2Fadmin%3Frole%3Dadmin%23x']);

    const host = await playbook('http-host', {
      parameters: [{ name: 'x', label: 'X' }],
      actions: [{ name: 'call', http: { url: 'http://{{.params.x}}/ping' } }],
    });
    const refused = await finished(await run({ id: host, params: { x: 'evil.example@127.0.0.1' } }));
    expect(refused.status).toBe('failed');
    expect(refused.actions[0]?.error).toMatch(/call\.http\.url: the 1st template value is in the URL's host/);
  });
});

describe('a webhook without authentication', () => {
  it('is refused when the playbook runs exec actions, naming the path', async () => {
    const response = await post('/api/playbooks', { name: 'open-hook', spec: { on: { webhook: { path: 'open/exec' } }, actions: [{ name: 'a', exec: { script: 'echo "{{.request.json.x}}"' } }] } });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({
      path: 'body.spec.on.webhook.authentication',
      message: expect.stringMatching(/^is required when the playbook runs exec actions \(spec\.actions\[0\]\.exec\): anyone who can reach the console could run it/),
    });
    const empty = await post('/api/playbooks', { name: 'open-hook', spec: { on: { webhook: { path: 'open/exec', authentication: {} } }, actions: [{ name: 'a', exec: { script: 'true' } }] } });
    expect(empty.statusCode).toBe(400);
  });

  it('is accepted with a warning naming the path when there is no exec action', async () => {
    const response = await post('/api/playbooks', { name: 'open-notify', spec: { on: { webhook: { path: 'open/http' } }, actions: [{ name: 'a', http: { url: `${sinkUrl}/hook` } }] } });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().warnings).toContainEqual(expect.stringMatching(/^spec\.on\.webhook\.authentication: is not set/));
  });
});
