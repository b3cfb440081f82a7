import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { close, closeHarness, listen, outcome } from '../../server/features/health/testing/check-harness';
import { CHART_REGISTRY_PROPERTY } from '../../server/features/integrations/charts';
import { send } from '../../server/platform/peers/http-client';
import { createTestApp, type TestApp } from '../app';

/**
 * Issue 35 finding 11 (egress): server-side fetches followed any URL — link-local and cloud metadata
 * addresses, redirects to anywhere — and an editor set the chart registry every viewer's page fetches.
 * Now an egress policy (server/platform/egress.ts, docs/OPERATIONS.md "Egress policy") is judged on the
 * address connected to, before connecting; redirects to another host are not followed; egress.* and the
 * chart registry are admin settings.
 *
 * This test never sends traffic outside loopback: every socket this process opens to a non-loopback
 * address throws before it connects (the guard below), so on a build without the policy these tests fail
 * on the guard's message instead of reaching 169.254.169.254.
 */

let t: TestApp;
let editor: Record<string, string>;
const originalConnect = net.Socket.prototype.connect;
const offLoopback: string[] = [];

/** Servers on three loopback addresses (127.0.0.1, .2, .3 count as different hosts); what each was asked. */
const asked: Record<string, string[]> = { one: [], two: [], three: [] };
let one: http.Server;
let two: http.Server;
let three: http.Server;
let base = '';
let baseTwo = '';
let baseThree = '';

const METADATA = 'http://169.254.169.254/latest/meta-data/';

function server(record: string[], handler: (url: string, res: http.ServerResponse) => void): http.Server {
  return http.createServer((req, res) => {
    record.push(req.url ?? '');
    handler(req.url ?? '', res);
  });
}

beforeAll(async () => {
  // The guard: a connect to an address outside 127.0.0.0/8 and ::1 is refused here, whatever asked for it.
  net.Socket.prototype.connect = function guarded(this: net.Socket, ...args: unknown[]) {
    const options = args[0];
    const host = typeof options === 'object' && options !== null && 'host' in options ? String((options as { host?: unknown }).host ?? '') : typeof args[1] === 'string' ? args[1] : '';
    const bare = host.replace(/^\[|\]$/g, '');
    if (net.isIP(bare) && !/^127\./.test(bare) && bare !== '::1' && !/^::ffff:127\./i.test(bare)) {
      offLoopback.push(bare);
      throw new Error(`test guard: a connection to ${bare} (outside loopback) was attempted`);
    }
    return (originalConnect as (...rest: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;

  t = await createTestApp();
  editor = (await t.userWith(['editor'])).headers;
  two = server(asked.two!, (_url, res) => res.end('landed on another host'));
  three = server(asked.three!, (_url, res) => res.end('three'));
  baseTwo = `http://127.0.0.2:${await listen(two, '127.0.0.2')}`;
  baseThree = `http://127.0.0.3:${await listen(three, '127.0.0.3')}`;
  one = server(asked.one!, (url, res) => {
    if (url === '/away') {
      res.writeHead(302, { location: `${baseTwo}/landing` });
      return res.end();
    }
    if (url === '/here') {
      res.writeHead(302, { location: '/ok' });
      return res.end();
    }
    if (url.startsWith('/charts-away/')) {
      res.writeHead(302, { location: `${baseTwo}/charts${url.slice('/charts-away'.length)}` });
      return res.end();
    }
    res.end('ok');
  });
  base = `http://127.0.0.1:${await listen(one)}`;
});

afterAll(async () => {
  net.Socket.prototype.connect = originalConnect;
  await Promise.all([close(one), close(two), close(three)]);
  await closeHarness();
  await t?.close();
});

async function setProperty(headers: Record<string, string>, name: string, value: string) {
  await t.db.pool.query('DELETE FROM properties WHERE name = $1', [name]);
  return t.app.inject({ method: 'POST', url: '/api/db/properties', headers, payload: { name, value } });
}

async function clearProperty(name: string) {
  const response = await t.app.inject({ method: 'DELETE', url: `/api/db/properties?name=eq.${name}`, headers: t.adminHeaders });
  expect(response.statusCode).toBeLessThan(300);
}

const REFUSED_METADATA = "egress to 169.254.169.254 is refused by the console's egress policy (link-local and cloud metadata addresses";

describe('egress: link-local and cloud metadata addresses are refused by default, before connect', () => {
  it('an http check to the metadata address fails naming the destination and the policy', async () => {
    const ran = await outcome('http', { name: 'metadata', url: METADATA });
    expect(ran.pass).toBe(false);
    expect(ran.message).toContain(REFUSED_METADATA);
    expect(ran.message).toContain('an admin can change it in Settings → Feature Flags');
    expect(offLoopback).toEqual([]);
  });

  // Host names (metadata.google.internal) are refused before any DNS query: server/platform/egress.test.ts.
  it('every spelling of it, and the tcp check too', async () => {
    for (const url of ['http://[::ffff:169.254.169.254]/latest/meta-data/', 'http://[::ffff:a9fe:a9fe]/', 'http://169.254.170.2/v2/credentials', 'http://[fd00:ec2::254]/latest/meta-data/']) {
      const ran = await outcome('http', { name: 'metadata', url });
      expect(ran.message, url).toMatch(/is refused by the console's egress policy \(link-local and cloud metadata addresses/);
    }
    const tcp = await outcome('tcp', { name: 'metadata', endpoint: '169.254.169.254:80' });
    expect(tcp).toMatchObject({ pass: false, message: expect.stringContaining(REFUSED_METADATA) });
    expect(offLoopback).toEqual([]);
  });

  it('the shared client refuses it for every caller (channels, actions, view and scraper http use it)', async () => {
    await expect(send({ url: new URL(METADATA), method: 'POST', headers: [], body: '{}', tls: { rejectUnauthorized: true, handshakeTimeoutMs: 1000 }, maxRedirects: 5, signal: AbortSignal.timeout(5000) })).rejects.toThrow(REFUSED_METADATA);
    expect(offLoopback).toEqual([]);
  });
});

describe('egress: redirects', () => {
  it('a redirect to another host (127.0.0.1 → 127.0.0.2) is not followed, with a clear message', async () => {
    asked.two!.length = 0;
    const ran = await outcome('http', { name: 'away', url: `${base}/away` });
    expect(ran.pass).toBe(false);
    expect(ran.message).toContain(`redirected from ${new URL(base).host} to another host (${new URL(baseTwo).host}), which the console's egress policy does not follow`);
    expect(asked.two).toEqual([]);
  });

  it('a redirect on the same host is followed as before, and loopback checks pass', async () => {
    expect(await outcome('http', { name: 'here', url: `${base}/here` })).toMatchObject({ pass: true, data: { code: 200, content: 'ok' }, details: { redirects: [`${base}/ok`] } });
    expect(await outcome('http', { name: 'ok', url: `${base}/ok` })).toMatchObject({ pass: true, data: { code: 200 } });
    expect(await outcome('http', { name: 'two', url: `${baseTwo}/direct` })).toMatchObject({ pass: true, data: { code: 200 } });
  });
});

describe('egress: an admin narrows the policy', () => {
  it('a deny list for 127.0.0.3 refuses that address, and only it', async () => {
    expect((await setProperty(t.adminHeaders, 'egress.deny', '127.0.0.3')).statusCode).toBe(201);
    asked.three!.length = 0;
    const ran = await outcome('http', { name: 'three', url: `${baseThree}/` });
    expect(ran.pass).toBe(false);
    expect(ran.message).toContain("egress to 127.0.0.3 is refused by the console's egress policy (egress.deny lists 127.0.0.3)");
    expect(asked.three).toEqual([]);
    expect((await outcome('tcp', { name: 'three', endpoint: `127.0.0.3:${new URL(baseThree).port}` })).pass).toBe(false);
    expect(await outcome('http', { name: 'one', url: `${base}/ok` })).toMatchObject({ pass: true });
    await clearProperty('egress.deny');
    expect(await outcome('http', { name: 'three', url: `${baseThree}/` })).toMatchObject({ pass: true });
  });

  it('an allow list admits only what it lists; the built-in refusal stays', async () => {
    expect((await setProperty(t.adminHeaders, 'egress.allow', '127.0.0.1/32, 127.0.0.2')).statusCode).toBe(201);
    expect(await outcome('http', { name: 'one', url: `${base}/ok` })).toMatchObject({ pass: true });
    expect((await outcome('http', { name: 'three', url: `${baseThree}/` })).message).toContain("egress to 127.0.0.3 is refused by the console's egress policy (not in egress.allow)");
    expect((await outcome('http', { name: 'metadata', url: METADATA })).message).toContain(REFUSED_METADATA);
    await clearProperty('egress.allow');
    expect(offLoopback).toEqual([]);
  });
});

describe('egress: who changes it', () => {
  it('an editor cannot write egress.* or the chart registry (403); an admin can', async () => {
    for (const name of ['egress.deny', 'egress.allow', 'egress.link_local', CHART_REGISTRY_PROPERTY]) {
      const refused = await setProperty(editor, name, name === 'egress.link_local' ? 'allow' : 'http://127.0.0.1:1/');
      expect(refused.statusCode, name).toBe(403);
      expect(refused.json()).toMatchObject({ code: '42501', message: expect.stringContaining('needs the admin role or write on rbac') });
      const { rows } = await t.db.pool.query('SELECT 1 FROM properties WHERE name = $1', [name]);
      expect(rows, name).toEqual([]);
    }
    // Nor rename a flag into one, change or delete the admin's.
    expect((await setProperty(editor, 'ui.flag', 'x')).statusCode).toBe(201);
    expect((await t.app.inject({ method: 'PATCH', url: '/api/db/properties?name=eq.ui.flag', headers: editor, payload: { name: 'egress.allow' } })).statusCode).toBe(403);
    expect((await setProperty(t.adminHeaders, 'egress.deny', '10.0.0.0/8')).statusCode).toBe(201);
    expect((await t.app.inject({ method: 'PATCH', url: '/api/db/properties?name=eq.egress.deny', headers: editor, payload: { value: '' } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/db/properties?name=eq.egress.deny', headers: editor })).statusCode).toBe(403);
    await clearProperty('egress.deny');
    // Other flags stay the editor's.
    expect((await t.app.inject({ method: 'PATCH', url: '/api/db/properties?name=eq.ui.flag', headers: editor, payload: { value: 'y' } })).statusCode).toBeLessThan(300);
    expect((await setProperty(t.adminHeaders, CHART_REGISTRY_PROPERTY, `${base}/charts`)).statusCode).toBe(201);
    await clearProperty(CHART_REGISTRY_PROPERTY);
  });
});

describe('egress: the chart registry', () => {
  it('a registry at the metadata address is refused before connect; the shipped chart answers with the reason', async () => {
    expect((await setProperty(t.adminHeaders, CHART_REGISTRY_PROPERTY, 'http://169.254.169.254/charts')).statusCode).toBe(201);
    const response = await t.app.inject({ method: 'GET', url: '/api/integrations/charts/mission-control-prometheus', headers: editor });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ source: 'shipped', note: expect.stringContaining(REFUSED_METADATA) });
    expect(offLoopback).toEqual([]);
  });

  it('a registry redirecting to another host is not followed', async () => {
    expect((await setProperty(t.adminHeaders, CHART_REGISTRY_PROPERTY, `${base}/charts-away`)).statusCode).toBe(201);
    asked.two!.length = 0;
    const response = await t.app.inject({ method: 'GET', url: '/api/integrations/charts/mission-control-prometheus', headers: editor });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ source: 'shipped', note: expect.stringContaining("to another host (127.0.0.2:") });
    expect(asked.two).toEqual([]);
    await clearProperty(CHART_REGISTRY_PROPERTY);
  });
});
