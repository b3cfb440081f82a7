import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { relations } from '../../../postgrest/relations';

/**
 * Issue "never echoed": a run that creates secrets and connections, uses them from checks, a scraper and
 * the connection test (passing and failing), then reads every /api/db relation and the answers it got.
 * No answer and no log line may carry a clear secret value.
 */
const clear = {
  secretPassword: `sp-${randomBytes(8).toString('hex')}`,
  secretToken: `st-${randomBytes(8).toString('hex')}`,
  staticPassword: `cp-${randomBytes(8).toString('hex')}`,
  wrongPassword: `wp-${randomBytes(8).toString('hex')}`,
  webhook: `wh-${randomBytes(8).toString('hex')}`,
};
const values = Object.values(clear);

let t: TestApp;
const logs: string[] = [];
const answers: string[] = [];
let peer: http.Server;
let peerUrl = '';

async function call(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  const answer = await t.app.inject({ method, url, headers: t.adminHeaders, ...(payload !== undefined ? { payload: payload as object } : {}) });
  answers.push(`${method} ${url} ${answer.statusCode} ${JSON.stringify(answer.headers)} ${answer.body}`);
  return answer;
}

beforeAll(async () => {
  t = await createTestApp({ logs });
  peer = http.createServer((req, res) => {
    // The peer echoes nothing secret back; it refuses every credential but the right one.
    const ok = req.headers.authorization === `Basic ${Buffer.from(`web:${clear.secretPassword}`).toString('base64')}`;
    res.statusCode = ok ? 200 : 401;
    res.end(ok ? 'ok' : 'denied');
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => peer?.close(resolve));
  await t?.close();
});

describe('no secret value is ever echoed', () => {
  it('in any answer or log line of a run that creates, uses, tests and reads secrets and connections', async () => {
    expect((await call('POST', '/api/secrets', { name: 'web-auth', data: { password: clear.secretPassword, token: clear.secretToken } })).statusCode).toBe(201);
    expect((await call('POST', '/api/config_maps', { name: 'web-config', data: { user: 'web' } })).statusCode).toBe(201);
    const web = await call('POST', '/api/connections', { name: 'web', type: 'http', url: `${peerUrl}/private`, username: 'configmap://web-config/user', password: 'secret://web-auth/password' });
    expect(web.statusCode).toBe(201);
    const wrong = await call('POST', '/api/connections', { name: 'wrong', type: 'http', url: `${peerUrl}/private`, username: 'web', password: clear.wrongPassword });
    const db = await call('POST', '/api/connections', { name: 'db', type: 'postgres', url: `postgres://postgres:${clear.staticPassword}@127.0.0.1:5432/postgres`, username: 'postgres', password: clear.staticPassword });
    expect(db.statusCode).toBe(201);
    const maria = await call('POST', '/api/connections', { name: 'maria', type: 'mysql', url: 'mysql://127.0.0.1:3306/test', username: 'nobody', password: clear.wrongPassword });
    const chat = await call('POST', '/api/connections', { name: 'chat', type: 'google_chat', url: `${peerUrl}/v1/spaces/x/messages?key=${clear.webhook}` });
    for (const created of [web, wrong, db, maria, chat]) {
      expect(created.statusCode, created.body).toBe(201);
      await call('POST', `/api/connection/test/${String(created.json().id)}`);
      await call('PATCH', `/api/connections/${String(created.json().id)}`, { password: '******' });
    }

    const canary = await call('POST', '/api/canary/canaries', {
      name: 'uses-secrets',
      spec: {
        schedule: '@every 1h',
        env: { TOKEN: { valueFrom: { secretKeyRef: { name: 'web-auth', key: 'token' } } } },
        http: [
          { name: 'through connection', connection: 'connection://default/web' },
          { name: 'wrong password', connection: 'connection://default/wrong' },
          { name: 'token header', url: `${peerUrl}/private`, headers: [{ name: 'X-Token', valueFrom: { secretKeyRef: { name: 'web-auth', key: 'token' } } }] },
        ],
        postgres: [{ name: 'db', connection: 'connection://default/db', query: 'SELECT 1' }],
        mysql: [{ name: 'maria', connection: 'connection://default/maria', query: 'SELECT 1' }],
        exec: [{ name: 'echo env', script: 'echo "token is $TOKEN"' }],
      },
    });
    expect(canary.statusCode, canary.body).toBe(201);
    const checks = await t.db.pool.query<{ id: string }>('SELECT id FROM checks WHERE canary_id = $1', [canary.json().id]);
    for (const check of checks.rows) await call('POST', `/api/canary/run/check/${check.id}`);

    const scraper = await call('POST', '/api/catalog/scrapers', {
      name: 'rows',
      spec: { schedule: '@every 1h', sql: [{ type: 'Row', id: '$.n', name: '$.n', connection: 'connection://default/maria', query: 'SELECT 1 AS n' }] },
    });
    expect(scraper.statusCode, scraper.body).toBe(201);
    await call('POST', `/api/config/run/${String(scraper.json().id)}`);

    for (const relation of relations) await call('GET', `/api/db/${relation.name}?limit=200`);
    await call('GET', '/api/openapi.json');

    const everything = [...answers, ...logs];
    expect(everything.length).toBeGreaterThan(relations.length);
    const leaks = everything.flatMap((text) => values.filter((value) => text.includes(value) || text.includes(encodeURIComponent(value)) || text.includes(Buffer.from(value).toString('base64'))).map((value) => `${value} in: ${text.slice(0, 300)}`));
    expect(leaks).toEqual([]);
    // The run did use them: the check with the right secret passed, the wrong one failed.
    const statuses = await t.db.pool.query<{ name: string; status: string }>("SELECT name, status FROM checks WHERE canary_id = $1 AND name IN ('through connection', 'wrong password', 'db')", [canary.json().id]);
    expect(Object.fromEntries(statuses.rows.map((row) => [row.name, row.status]))).toEqual({ 'through connection': 'healthy', 'wrong password': 'unhealthy', db: 'healthy' });
  });
});
