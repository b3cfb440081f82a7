import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { close, closeHarness, closedPort, listen, outcome, result, validate } from '../testing/check-harness';

/** The http check against a real node:http server on 127.0.0.1 (https is in https.int.test.ts). */
let server: http.Server;
let base = '';
let refused = 0;
const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];

function route(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const json = (status: number, value: unknown, type = 'application/json') => {
    res.writeHead(status, { 'content-type': type, 'x-request-id': 'r-1' });
    res.end(typeof value === 'string' ? value : JSON.stringify(value));
  };
  if (url.pathname === '/ok') return json(200, 'hello world', 'text/plain; charset=utf-8');
  if (url.pathname === '/json') return json(200, { status: 'ok', items: [{ name: 'a' }, { name: 'b' }], nested: { ok: true, count: 2 } });
  if (url.pathname === '/bad-json') return json(200, '{oops');
  if (url.pathname.startsWith('/status/')) return json(Number(url.pathname.slice(8)), `status ${url.pathname.slice(8)}`, 'text/plain');
  if (url.pathname === '/slow') {
    setTimeout(() => json(200, 'late', 'text/plain'), Number(url.searchParams.get('ms') ?? 0));
    return;
  }
  if (url.pathname === '/echo') return json(200, { method: req.method, headers: req.headers, body });
  if (url.pathname === '/redirect') {
    res.writeHead(302, { location: '/ok' });
    return res.end();
  }
  if (url.pathname === '/redirect-307') {
    res.writeHead(307, { location: '/echo' });
    return res.end();
  }
  if (url.pathname === '/auth') {
    const expected = `Basic ${Buffer.from('hello:wor:ld').toString('base64')}`;
    return req.headers.authorization === expected ? json(200, 'welcome', 'text/plain') : json(401, 'who are you', 'text/plain');
  }
  if (url.pathname === '/gzip') {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
    return res.end(zlib.gzipSync('compressed hello'));
  }
  json(404, 'not found', 'text/plain');
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      route(req, res, body);
    });
  });
  base = `http://127.0.0.1:${await listen(server)}`;
  refused = await closedPort();
});

afterAll(async () => {
  await close(server);
  await closeHarness();
});

describe('http: fields and validation', () => {
  it('needs a url (or the older endpoint), not both, and an http(s) one', () => {
    expect(validate('http', { name: 'x' }).errors).toEqual(['spec.http[0].url: is required']);
    expect(validate('http', { name: 'x', url: `${base}/ok`, endpoint: `${base}/ok` }).errors).toEqual(['spec.http[0].endpoint: give url or endpoint (its older name), not both']);
    expect(validate('http', { name: 'x', url: 'ftp://example.com/file' }).errors).toEqual(['spec.http[0].url: must be an http:// or https:// URL with a host']);
    expect(validate('http', { name: 'x', endpoint: 'not a url' }).errors).toEqual(['spec.http[0].endpoint: must be an http:// or https:// URL with a host']);
    expect(validate('http', { name: 'x', url: `${base}/ok`, method: 'FETCH' }).errors).toEqual(['spec.http[0].method: must be one of GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS']);
    expect(validate('http', { name: 'x', url: `${base}/ok`, responseCodes: [200, 1000] }).errors).toEqual(['spec.http[0].responseCodes[1]: must be an HTTP status code']);
    expect(validate('http', { name: 'x', url: `${base}/ok`, responseJSONContent: { path: '$..items[?(@.x)]', value: 'a' } }).errors).toEqual([
      'spec.http[0].responseJSONContent.path: must be a simple JSONPath such as $.status or $.items[0].name',
    ]);
  });

  it('accepts valueFrom and connections (read at run), warns of fields it does not run, by name', () => {
    const checked = validate('http', {
      name: 'x',
      url: `${base}/ok`,
      password: { valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
      headers: [{ name: 'Authorization', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }],
      ntlm: true,
      connection: 'connection://http/api',
    });
    expect(checked.errors).toEqual([]);
    expect(checked.warnings).toEqual([
      'spec.http[0].ntlm is not supported for http checks; it is ignored',
    ]);
  });

  it('never runs with a secret or a connection left unread (an empty value): the engine reads them first', async () => {
    const secret = await outcome('http', { name: 'x', url: `${base}/ok`, password: { valueFrom: { secretKeyRef: { name: 's', key: 'k' } } } });
    expect(secret).toMatchObject({ pass: false, message: expect.stringContaining('was not read before the check ran') });
    expect(await outcome('http', { name: 'x', connection: 'connection://HTTP/500' })).toMatchObject({ pass: false, message: expect.stringContaining('was not read before the check ran') });
  });

  it('shows the url without the password it carries or credentials in its query', async () => {
    expect(validate('http', { name: 'x', url: 'https://admin:s3cret@example.com/health' }).endpoint).toBe('https://example.com/health');
    expect(validate('http', { name: 'x', url: 'https://example.com/health?api_key=k3y&token=t0k&page=2' }).endpoint).toBe('https://example.com/health?api_key=***&token=***&page=2');
    const ran = await outcome('http', { name: 'x', url: `http://127.0.0.1:${refused}/health?access_token=t0k` });
    expect(ran.message).toContain('/health?access_token=***');
    expect(JSON.stringify(ran)).not.toContain('t0k');
  });
});

describe('http: answers', () => {
  it('passes a 2xx answer and exposes code, headers, content, json, sslAge and elapsed', async () => {
    const ran = await outcome('http', { name: 'ok', url: `${base}/ok` });
    expect(ran).toMatchObject({ pass: true, data: { code: 200, content: 'hello world', json: {} } });
    expect(ran.message).toMatch(/^200 in \d+ ms$/);
    expect(ran.data.headers).toMatchObject({ 'Content-Type': 'text/plain; charset=utf-8', 'X-Request-Id': 'r-1' });
    expect(ran.details).toMatchObject({ url: `${base}/ok`, method: 'GET', status: 200, body: 'hello world' });
    const tested = await result('http', {
      name: 'ok',
      endpoint: `${base}/ok`,
      test: { expr: "code == 200 && content == 'hello world' && headers['Content-Type'].startsWith('text/plain') && elapsed < Duration('5s') && sslAge == duration('0s')" },
      display: { template: 'code={{.code}} in {{.elapsed}}' },
    });
    expect(tested).toMatchObject({ pass: true, message: expect.stringMatching(/^code=200 in \d+ms$/) });
    // canary-checker's fixtures test for its name: json.headers["User-Agent"].startsWith("canary-checker/").
    expect(seen.at(-1)?.headers['user-agent']).toMatch(/^canary-checker\/watchkeeper-\d/);
  });

  it('fails a code outside 200–299 unless responseCodes or a test says otherwise', async () => {
    expect(await outcome('http', { name: 'e', url: `${base}/status/500` })).toMatchObject({ pass: false, message: 'answered 500, expected 200–299' });
    expect(await outcome('http', { name: 'e', url: `${base}/status/404`, responseCodes: [404] })).toMatchObject({ pass: true });
    expect(await outcome('http', { name: 'e', url: `${base}/ok`, responseCodes: [201, 202] })).toMatchObject({ pass: false, message: 'answered 200, expected 201 or 202' });
    expect(await result('http', { name: 'e', url: `${base}/status/404`, test: { expr: 'code == 404' } })).toMatchObject({ pass: true });
    expect(await result('http', { name: 'e', url: `${base}/status/404`, test: { expr: 'code == 200' } })).toMatchObject({ pass: false, message: expect.stringMatching(/^test failed: code == 200 \(404 in \d+ ms\)$/) });
  });

  it('sends every method with headers and a body', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const ran = await outcome('http', { name: 'm', url: `${base}/echo`, method: method.toLowerCase(), headers: [{ name: 'X-Token', value: 'abc' }, { name: 'Content-Type', value: 'application/json' }], body: '{"a":1}' });
      expect(ran.pass).toBe(true);
      expect(ran.data.json).toMatchObject({ method, body: '{"a":1}', headers: { 'x-token': 'abc', 'content-type': 'application/json' } });
    }
    // Go's client sends a body with GET too (canary-checker's http_auth_url_pass fixture does).
    const get = await outcome('http', { name: 'm', url: `${base}/echo`, body: 'sent with GET too' });
    expect(get.data.json).toMatchObject({ method: 'GET', body: 'sent with GET too' });
    const head = await outcome('http', { name: 'm', url: `${base}/ok`, method: 'HEAD' });
    expect(head).toMatchObject({ pass: true, data: { code: 200, content: '' } });
  });

  it('checks responseContent', async () => {
    expect(await outcome('http', { name: 'c', url: `${base}/ok`, responseContent: 'hello' })).toMatchObject({ pass: true });
    expect(await outcome('http', { name: 'c', url: `${base}/ok`, responseContent: 'goodbye' })).toMatchObject({ pass: false, message: 'the answer does not contain "goodbye"' });
  });

  it('exposes json for application/json answers, for tests such as canary-checker writes them', async () => {
    const url = `${base}/json`;
    expect(await outcome('http', { name: 'j', url })).toMatchObject({ pass: true, data: { json: { status: 'ok', nested: { ok: true } } } });
    expect(await result('http', { name: 'j', url, test: { expr: "json.items.map(i, i.name) == ['a', 'b'] && json.nested.count == 2" } })).toMatchObject({ pass: true });
    expect(await result('http', { name: 'j', url, test: { expr: "json.status == 'down'" } })).toMatchObject({ pass: false });
  });

  it('checks responseJSONContent with a simple JSONPath and exposes json', async () => {
    const url = `${base}/json`;
    expect(await outcome('http', { name: 'j', url, responseJSONContent: { path: '$.status', value: 'ok' } })).toMatchObject({ pass: true, data: { json: { status: 'ok' } } });
    expect(await outcome('http', { name: 'j', url, responseJSONContent: { path: 'nested.ok', value: true } })).toMatchObject({ pass: true });
    expect(await outcome('http', { name: 'j', url, responseJSONContent: { path: '$.items[1].name', value: 'b' } })).toMatchObject({ pass: true });
    expect(await outcome('http', { name: 'j', url, responseJSONContent: { path: "$['nested']['count']", value: 2 } })).toMatchObject({ pass: true });
    expect(await outcome('http', { name: 'j', url, responseJSONContent: { path: '$.status', value: 'down' } })).toMatchObject({ pass: false, message: '$.status is "ok", expected "down"' });
    expect(await outcome('http', { name: 'j', url, responseJSONContent: { path: '$.missing', value: 'x' } })).toMatchObject({ pass: false, message: 'the answer has nothing at $.missing' });
    expect(await result('http', { name: 'j', url, test: { expr: "json.items.map(i, i.name) == ['a', 'b'] && json.nested.count == 2" } })).toMatchObject({ pass: true });
  });

  it('fails an invalid JSON answer unless a test decides', async () => {
    expect(await outcome('http', { name: 'b', url: `${base}/bad-json` })).toMatchObject({ pass: false, message: expect.stringMatching(/^the answer is not valid JSON: /) });
    expect(await result('http', { name: 'b', url: `${base}/bad-json`, test: { expr: "content.startsWith('{oops')" } })).toMatchObject({ pass: true });
  });

  it('fails past thresholdMillis, stopping the request there', async () => {
    const started = Date.now();
    expect(await outcome('http', { name: 's', url: `${base}/slow?ms=1500`, thresholdMillis: 200 })).toMatchObject({
      pass: false,
      message: `GET ${base}/slow?ms=1500: no answer within the threshold of 200 ms`,
    });
    expect(Date.now() - started).toBeLessThan(1200);
    expect(await outcome('http', { name: 's', url: `${base}/slow?ms=10`, thresholdMillis: 2000 })).toMatchObject({ pass: true });
  });

  it('sends basic auth from username/password ({value} or plain) or from the URL, and never shows the password', async () => {
    expect(await outcome('http', { name: 'a', url: `${base}/auth` })).toMatchObject({ pass: false, message: 'answered 401, expected 200–299' });
    expect(await outcome('http', { name: 'a', url: `${base}/auth`, username: { value: 'hello' }, password: { value: 'wor:ld' } })).toMatchObject({ pass: true, data: { content: 'welcome' } });
    expect(await outcome('http', { name: 'a', url: `${base}/auth`, username: 'hello', password: 'wor:ld' })).toMatchObject({ pass: true });
    const inUrl = `http://hello:${encodeURIComponent('wor:ld')}@127.0.0.1:${base.split(':').at(-1)}/auth`;
    expect(await outcome('http', { name: 'a', url: inUrl })).toMatchObject({ pass: true });
    const wrong = await result('http', { name: 'a', url: `${base}/auth`, username: 'hello', password: 'not-the-password' });
    expect(wrong.pass).toBe(false);
    expect(JSON.stringify(wrong)).not.toContain('not-the-password');
  });

  it('follows redirects (up to maxRedirects) like Go, repeating the method for 307', async () => {
    const followed = await outcome('http', { name: 'r', url: `${base}/redirect` });
    expect(followed).toMatchObject({ pass: true, data: { code: 200, content: 'hello world' }, details: { url: `${base}/ok`, redirects: [`${base}/ok`] } });
    const kept = await outcome('http', { name: 'r', url: `${base}/redirect`, maxRedirects: 0, responseCodes: [302] });
    expect(kept).toMatchObject({ pass: true, data: { code: 302, headers: { Location: '/ok' } } });
    const repeated = await outcome('http', { name: 'r', url: `${base}/redirect-307`, method: 'POST', body: 'again' });
    expect(repeated.data.json).toMatchObject({ method: 'POST', body: 'again' });
  });

  it('templates the body from the canary env and the check env when templateBody is set', async () => {
    const ran = await outcome('http', { name: 't', url: `${base}/echo`, method: 'POST', templateBody: true, body: '{{.GREETING}} from {{.who}}', env: [{ name: 'who', value: 'the check' }] }, { GREETING: 'hi' });
    expect(ran.data.json).toMatchObject({ body: 'hi from the check' });
    const bad = await outcome('http', { name: 't', url: `${base}/echo`, method: 'POST', templateBody: true, body: '{{ .x | upper }}' });
    expect(bad).toMatchObject({ pass: false, invalid: true, message: expect.stringContaining('function "upper" not defined') });
  });

  it('reads a compressed answer', async () => {
    const ran = await outcome('http', { name: 'g', url: `${base}/gzip`, headers: [{ name: 'Accept-Encoding', value: 'gzip' }], responseContent: 'compressed hello' });
    expect(ran).toMatchObject({ pass: true, data: { content: 'compressed hello' } });
  });

  it('fails when nothing answers, naming the reason', async () => {
    const ran = await outcome('http', { name: 'down', url: `http://127.0.0.1:${refused}/health` });
    expect(ran).toMatchObject({ pass: false, data: { code: 0 } });
    expect(ran.message).toContain(`GET http://127.0.0.1:${refused}/health: connect ECONNREFUSED`);
  });

  it('fails maxSSLExpiry on a plain http URL: there is no certificate', async () => {
    expect(await outcome('http', { name: 'x', url: `${base}/ok`, maxSSLExpiry: 7 })).toMatchObject({ pass: false, message: 'there is no certificate to check (maxSSLExpiry needs an https URL)' });
  });

  it('keeps only the start of a long answer in the details', async () => {
    const big = http.createServer((_req, res) => res.end('x'.repeat(10_000)));
    const port = await listen(big);
    try {
      const ran = await outcome('http', { name: 'big', url: `http://127.0.0.1:${port}/` });
      expect((ran.data.content as string).length).toBe(10_000);
      expect(((ran.details ?? {}).body as string).length).toBe(4097);
    } finally {
      await close(big);
    }
  });

  it('stops a server that accepts but never answers at the timeout', async () => {
    const silent = net.createServer(() => undefined);
    const port = await listen(silent);
    try {
      expect(await outcome('http', { name: 'silent', url: `http://127.0.0.1:${port}/`, thresholdMillis: 300 })).toMatchObject({ pass: false, message: expect.stringContaining('no answer within the threshold of 300 ms') });
    } finally {
      silent.close();
    }
  });
});
