import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { applyCanary, runByName } from '../testing/check-harness';

/**
 * prometheus checks against a peer that speaks the Prometheus HTTP API's /api/v1/query answer format:
 * vector, scalar and matrix results, and the error answer for a query that does not parse. Under /basic,
 * /bearer and /tenant it asks for basic auth, a bearer token or a tenant header first.
 */
let t: TestApp;
let server: http.Server;
let base = '';
const seen: string[] = [];

const now = 1_700_000_000;
const ANSWERS: Record<string, unknown> = {
  up: {
    resultType: 'vector',
    result: [
      { metric: { __name__: 'up', job: 'api', instance: 'api-1:9090' }, value: [now, '1'] },
      { metric: { __name__: 'up', job: 'worker', instance: 'worker-1:9090' }, value: [now, '0'] },
    ],
  },
  'up{job="none"}': { resultType: 'vector', result: [] },
  'scalar(sum(up))': { resultType: 'scalar', result: [now, '1'] },
  'up[5m]': { resultType: 'matrix', result: [{ metric: { job: 'api' }, values: [[now - 60, '0'], [now, '1']] }] },
};

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

beforeAll(async () => {
  t = await createTestApp();
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://peer');
    seen.push(`${url.pathname}?${url.searchParams.toString()}`);
    if (url.pathname === '/broken/api/v1/query') return void res.writeHead(502, { 'content-type': 'text/html' }).end('<html>bad gateway</html>');
    const prefix = url.pathname.replace(/\/api\/v1\/query$/, '');
    if (!url.pathname.endsWith('/api/v1/query')) return send(res, 404, { status: 'error', errorType: 'not_found', error: 'no such path' });
    const auth = req.headers.authorization ?? '';
    if (prefix === '/basic' && auth !== `Basic ${Buffer.from('reader:prom-pass').toString('base64')}`) return send(res, 401, { status: 'error', errorType: 'unauthorized', error: 'basic auth required' });
    if (prefix === '/bearer' && auth !== 'Bearer prom-token') return send(res, 401, { status: 'error', errorType: 'unauthorized', error: 'bearer token required' });
    if (prefix === '/tenant' && req.headers['x-scope-orgid'] !== 'team-a') return send(res, 401, { status: 'error', errorType: 'unauthorized', error: 'no org id' });
    const query = url.searchParams.get('query') ?? '';
    const data = ANSWERS[query];
    if (!data) return send(res, 400, { status: 'error', errorType: 'bad_data', error: `invalid parameter "query": 1:${query.length + 1}: parse error: unexpected end of input` });
    return send(res, 200, { status: 'success', data });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t?.close();
});

describe('prometheus', () => {
  it('queries the API, exposes value, firstResult and results, and fails on error answers', async () => {
    const applied = await applyCanary(
      t,
      `
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: prometheus-checks}
spec:
  prometheus:
    - name: targets up
      url: ${base}/
      query: up
      test:
        expr: value == 1.0 && firstResult.job == 'api' && size(results) == 2 && results.all(r, has(r.instance))
      display:
        expr: "results.map(r, r.job + '=' + string(r.value)).join(', ')"
    - name: any down
      url: ${base}
      query: up
      test:
        expr: results.all(r, r.value == 1.0)
    - name: nothing
      url: ${base}
      query: up{job="none"}
    - name: scalar
      url: ${base}
      query: scalar(sum(up))
      test: {expr: "value == 1.0"}
    - name: range
      url: ${base}
      query: up[5m]
      test: {expr: "firstResult.value == 1.0 && firstResult.job == 'api'"}
    - name: bad query
      url: ${base}
      query: sum(
    - name: basic auth
      url: ${base}/basic
      username: {value: reader}
      password: {value: prom-pass}
      query: up
    - name: bearer
      url: ${base}/bearer
      bearer: {value: prom-token}
      query: up
    - name: tenant header
      url: ${base}/tenant
      headers: [{name: X-Scope-OrgID, value: team-a}]
      query: up
    - name: wrong password
      url: ${base}/basic
      username: reader
      password: not-prom-pass
      query: up
    - name: not prometheus
      url: ${base}/broken
      query: up
`,
    );
    expect(applied).toMatchObject({ ok: true, warnings: [] });
    const results = await runByName(t, 'prometheus-checks');
    expect(results['targets up']).toMatchObject({ pass: true, message: 'api=1, worker=0' });
    expect(results['targets up']?.details).toMatchObject({ resultType: 'vector', count: 2 });
    expect(results['any down']).toMatchObject({ pass: false });
    expect(results['any down']?.message).toMatch(/^test failed: /);
    expect(results.nothing).toMatchObject({ pass: true, message: 'the query returned no results' });
    expect(results.scalar).toMatchObject({ pass: true, message: '1 result, first value 1' });
    expect(results.range).toMatchObject({ pass: true });
    expect(results['bad query']).toMatchObject({ pass: false });
    expect(results['bad query']?.message).toBe('the query failed: bad_data: invalid parameter "query": 1:5: parse error: unexpected end of input');
    expect(results['basic auth']).toMatchObject({ pass: true });
    expect(results.bearer).toMatchObject({ pass: true });
    expect(results['tenant header']).toMatchObject({ pass: true });
    expect(results['wrong password']).toMatchObject({ pass: false, message: 'the query failed: unauthorized: basic auth required' });
    expect(results['not prometheus']).toMatchObject({ pass: false, message: `${base}/broken answered HTTP 502 without a Prometheus answer (not JSON)` });
    expect(seen).toContain(`/api/v1/query?${new URLSearchParams({ query: 'up{job="none"}' }).toString()}`);
    const stored = JSON.stringify(await t.db.pool.query('SELECT message, error, details FROM check_statuses'));
    expect(stored).not.toContain('prom-pass');
    expect(stored).not.toContain('prom-token');
  });

  it('refuses the deprecated host field with a pointer to url', async () => {
    const applied = await applyCanary(t, `
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: prometheus-invalid}
spec:
  prometheus:
    - name: old
      host: http://prometheus:9090
      query: up
`);
    expect(applied.errors).toEqual(['spec.prometheus[0].url: is required: the Prometheus base URL, e.g. http://prometheus:9090 (host is deprecated; use url), or a connection']);
  });
});
