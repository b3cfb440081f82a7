import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ldap from 'ldapjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_TYPES } from '../../../../common/connections';
import { freePort } from '../../db/embedded';
import { testCertificates } from '../../../../test/peers/certificates';
import { startSmtpPeer } from '../../../../test/smtp-peer';
import type { ResolvedConnection, TestOutcome } from '../types';
import { TESTED_TYPES, testConnection } from './index';

/**
 * Connection tests against real peers on this machine: PostgreSQL, MariaDB and Redis on their usual
 * ports, and HTTP, SMTP, LDAP servers and git repositories each test starts on 127.0.0.1. Each type has a
 * passing and a failing case; the HTTP stand-ins keep what they received so the tests assert the request
 * each service's API expects, and no message may carry a secret.
 */

const run = promisify(execFile);

function connection(type: string, fields: Partial<Omit<ResolvedConnection, 'type'>> = {}): ResolvedConnection {
  return { id: '00000000-0000-0000-0000-000000000001', name: 'test', namespace: 'default', type, url: '', username: '', password: '', certificate: '', insecureTLS: false, properties: {}, ...fields };
}

function test(type: string, fields: Partial<Omit<ResolvedConnection, 'type'>> = {}, signal = AbortSignal.timeout(10_000)): Promise<TestOutcome> {
  return testConnection(connection(type, fields), signal);
}

/** The outcome carries none of the given secrets, in clear or percent-encoded. */
function expectClean(outcome: TestOutcome, ...secrets: string[]): void {
  for (const secret of secrets) {
    expect(outcome.message).not.toContain(secret);
    expect(outcome.message).not.toContain(encodeURIComponent(secret));
  }
}

interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Reply = { status?: number; json?: unknown; text?: string } | 'hang';

interface Peer {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** An HTTP(S) server on 127.0.0.1 that answers by `route` and keeps every request it received. */
async function startPeer(route: (request: Received) => Reply, tls?: { cert: string; key: string }): Promise<Peer> {
  const received: Received[] = [];
  const handler = (request: http.IncomingMessage, response: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://peer');
      const entry = { method: request.method ?? '', path: url.pathname, query: url.searchParams, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(entry);
      const reply = route(entry);
      if (reply === 'hang') return;
      const body = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? '');
      response.writeHead(reply.status ?? 200, { 'content-type': reply.json !== undefined ? 'application/json' : 'text/plain' });
      response.end(body);
    });
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/** A port nothing listens on (taken and released). */
async function closedPort(): Promise<number> {
  return freePort();
}

const peers: Peer[] = [];
async function peer(route: (request: Received) => Reply, tls?: { cert: string; key: string }): Promise<Peer> {
  const started = await startPeer(route, tls);
  peers.push(started);
  return started;
}
afterAll(async () => {
  await Promise.all(peers.map((started) => started.close()));
});

describe('the registry', () => {
  it('has a tester for every connection type', () => {
    expect([...TESTED_TYPES].sort()).toEqual(CONNECTION_TYPES.map((def) => def.type).sort());
  });

  it('answers an unknown type without testing', async () => {
    expect(await test('carrier_pigeon')).toEqual({ ok: false, tested: false, message: '"carrier_pigeon" is not a known connection type' });
  });

  it('answers when the signal ends, even while the peer says nothing', async () => {
    const silent = await peer(() => 'hang');
    const started = Date.now();
    const outcome = await test('http', { url: silent.url }, AbortSignal.timeout(300));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(outcome).toEqual({ ok: false, tested: true, message: 'no answer within the time limit' });
  });

  it('answers at once for a signal already aborted', async () => {
    const outcome = await test('postgres', { url: 'postgres://127.0.0.1:5432/postgres', username: 'postgres' }, AbortSignal.abort());
    expect(outcome.ok).toBe(false);
    expect(outcome.tested).toBe(true);
  });
});

describe('databases', () => {
  it('postgres: answers the server version', async () => {
    const outcome = await test('postgres', { url: 'postgres://127.0.0.1:5432/postgres', username: 'postgres' });
    expect(outcome).toMatchObject({ ok: true, tested: true });
    expect(outcome.message).toMatch(/^PostgreSQL \d+/);
    expect(outcome.message).not.toContain('compiled by');
  });

  it('postgres: a closed port fails without the password of the URL', async () => {
    const port = await closedPort();
    const outcome = await test('postgres', { url: `postgres://postgres:Pg-s3cret@127.0.0.1:${port}/postgres`, password: 'field-s3cret' });
    expect(outcome).toMatchObject({ ok: false, tested: true });
    expect(outcome.message).toMatch(/could not connect: .*ECONNREFUSED/);
    expectClean(outcome, 'Pg-s3cret', 'field-s3cret');
  });

  it('postgres: a url that is no connection string says so', async () => {
    const outcome = await test('postgres', { url: 'db.example.com' });
    expect(outcome).toMatchObject({ ok: false, tested: true });
    expect(outcome.message).toMatch(/postgres:\/\/ URL/);
  });

  it('mysql (MariaDB): answers the server version', async () => {
    const outcome = await test('mysql', { url: 'mysql://127.0.0.1:3306/', username: 'root' });
    expect(outcome).toMatchObject({ ok: true, tested: true });
    expect(outcome.message).toMatch(/^(MariaDB|MySQL) \d+\.\d+/);
  });

  it('mysql: a wrong password is refused, and not repeated', async () => {
    const outcome = await test('mysql', { url: 'mysql://127.0.0.1:3306/', username: 'root', password: 'Wrong-pa55word' });
    expect(outcome).toMatchObject({ ok: false, tested: true });
    expect(outcome.message).toMatch(/Access denied for user 'root'/);
    expectClean(outcome, 'Wrong-pa55word');
  });

  it('redis: PING and the version, in the database asked for', async () => {
    const outcome = await test('redis', { url: 'redis://127.0.0.1:6379', properties: { db: '1' } });
    expect(outcome).toMatchObject({ ok: true, tested: true });
    expect(outcome.message).toMatch(/^Redis \d+\.\d+\.\d+ answered PONG$/);
    expect((await test('redis', { url: '127.0.0.1:6379' })).ok).toBe(true);
  });

  it('redis: a closed port fails, and a bad db is named', async () => {
    const port = await closedPort();
    const outcome = await test('redis', { url: `redis://:Redis-s3cret@127.0.0.1:${port}`, password: 'Redis-s3cret' });
    expect(outcome).toMatchObject({ ok: false, tested: true });
    expect(outcome.message).toMatch(/could not PING redis:\/\/.*127\.0\.0\.1.*ECONNREFUSED/);
    expectClean(outcome, 'Redis-s3cret');
    expect((await test('redis', { url: 'redis://127.0.0.1:6379', properties: { db: 'one' } })).message).toBe('db "one" is not a whole number');
  });

  it('sql_server and mongo: not tested, naming the missing client', async () => {
    for (const [type, missing] of [['sql_server', /mssql/], ['mongo', /mongodb/]] as const) {
      const outcome = await test(type, { url: 'sqlserver://db:1433', username: 'sa', password: 'x-s3cret' });
      expect(outcome.ok).toBe(false);
      expect(outcome.tested).toBe(false);
      expect(outcome.message).toMatch(missing);
    }
  });
});

describe('http family', () => {
  it('http: GET with basic auth, ok below 400', async () => {
    const site = await peer((request) => (request.headers.authorization === basic('ops', 'Http-s3cret') ? { text: 'hello' } : { status: 401, text: 'who are you' }));
    const outcome = await test('http', { url: `${site.url}/health`, username: 'ops', password: 'Http-s3cret' });
    expect(outcome).toEqual({ ok: true, tested: true, message: 'HTTP 200 OK' });
    expect(site.received.at(-1)).toMatchObject({ method: 'GET', path: '/health' });
  });

  it('http: a 404 fails with the status', async () => {
    const site = await peer(() => ({ status: 404, text: 'no such page' }));
    const outcome = await test('http', { url: `${site.url}/missing`, username: 'ops', password: 'Http-s3cret' });
    expect(outcome).toEqual({ ok: false, tested: true, message: `GET ${site.url}/missing: HTTP 404 Not Found: no such page` });
  });

  it('http: insecure_tls decides whether an unknown certificate authority is accepted', async () => {
    const { cert, key } = await testCertificates();
    const site = await peer(() => ({ text: 'secure hello' }), { cert, key });
    const strict = await test('http', { url: site.url });
    expect(strict).toMatchObject({ ok: false, tested: true });
    expect(strict.message).toBe(`GET ${site.url}: the server's certificate is not trusted here: unable to verify the first certificate`);
    expect(await test('http', { url: site.url, insecureTLS: true })).toEqual({ ok: true, tested: true, message: 'HTTP 200 OK' });
  });

  it('a secret a peer repeats in its answer is masked', async () => {
    const echo = await peer((request) => ({ status: 401, text: `bad credentials: ${request.headers.authorization ?? ''} ${Buffer.from((request.headers.authorization ?? '').slice(6), 'base64').toString()}` }));
    const outcome = await test('http', { url: echo.url, username: 'ops', password: 'Echoed-s3cret' });
    expect(outcome).toMatchObject({ ok: false, tested: true });
    expect(outcome.message).toContain('ops:***');
    expectClean(outcome, 'Echoed-s3cret', Buffer.from('ops:Echoed-s3cret').toString('base64'));
  });

  it('elasticsearch: the cluster version from the root answer', async () => {
    const es = await peer((request) =>
      request.headers.authorization === basic('elastic', 'Es-s3cret') ? { json: { name: 'node-1', cluster_name: 'logs', version: { number: '8.13.4' }, tagline: 'You Know, for Search' } } : { status: 401, json: { error: { type: 'security_exception', reason: 'unable to authenticate' } } },
    );
    expect(await test('elasticsearch', { url: es.url, username: 'elastic', password: 'Es-s3cret' })).toEqual({ ok: true, tested: true, message: 'HTTP 200 OK, Elasticsearch 8.13.4 (cluster logs)' });
    const refused = await test('elasticsearch', { url: es.url, username: 'elastic', password: 'Wrong-s3cret' });
    expect(refused).toMatchObject({ ok: false, tested: true });
    expect(refused.message).toMatch(/HTTP 401 Unauthorized/);
    expectClean(refused, 'Wrong-s3cret');
  });

  it('dynatrace: the API token as Dynatrace reads it', async () => {
    const dt = await peer((request) => (request.headers.authorization === 'Api-Token dt0c01.GOOD' ? { json: { version: '1.290' } } : { status: 401, json: { error: { code: 401, message: 'Token Authentication failed' } } }));
    expect(await test('dynatrace', { url: `${dt.url}/api/v1/config/clusterversion`, password: 'dt0c01.GOOD' })).toEqual({ ok: true, tested: true, message: 'HTTP 200 OK' });
    const refused = await test('dynatrace', { url: `${dt.url}/api/v1/config/clusterversion`, password: 'dt0c01.BAD' });
    expect(refused.message).toBe(`GET ${dt.url}/api/v1/config/clusterversion: HTTP 401 Unauthorized: Token Authentication failed`);
    expectClean(refused, 'dt0c01.BAD');
  });

  it('prometheus: the version from buildinfo, with the bearer token', async () => {
    const prom = await peer((request) =>
      request.headers.authorization !== 'Bearer Prom-t0ken' ? { status: 401, text: 'Unauthorized' } : request.path === '/api/v1/status/buildinfo' ? { json: { status: 'success', data: { version: '2.53.1', revision: 'abc' } } } : { status: 404, text: '404 page not found' },
    );
    expect(await test('prometheus', { url: `${prom.url}/`, properties: { bearer: 'Prom-t0ken' } })).toEqual({ ok: true, tested: true, message: 'Prometheus 2.53.1' });
    expect(prom.received.at(-1)).toMatchObject({ method: 'GET', path: '/api/v1/status/buildinfo' });
    const refused = await test('prometheus', { url: prom.url, properties: { bearer: 'Wrong-t0ken' } });
    expect(refused).toEqual({ ok: false, tested: true, message: `${prom.url}: HTTP 401 Unauthorized: Unauthorized` });
  });

  it('prometheus: a server without buildinfo answers vector(1) instead; basic auth wins over bearer', async () => {
    const thanos = await peer((request) => (request.path === '/api/v1/query' && request.query.get('query') === 'vector(1)' ? { json: { status: 'success', data: { resultType: 'vector', result: [] } } } : { status: 404, text: 'not found' }));
    expect(await test('prometheus', { url: thanos.url, username: 'u', password: 'Basic-s3cret', properties: { bearer: 'ignored' } })).toEqual({ ok: true, tested: true, message: 'the query API answered (no build information)' });
    expect(thanos.received.map((request) => request.path)).toEqual(['/api/v1/status/buildinfo', '/api/v1/query']);
    expect(thanos.received[1]?.headers.authorization).toBe(basic('u', 'Basic-s3cret'));
    const port = await closedPort();
    const down = await test('prometheus', { url: `http://127.0.0.1:${port}` });
    expect(down.message).toMatch(/^could not reach http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  });
});

describe('git', () => {
  let repo: string;
  let head: string;
  beforeAll(async () => {
    repo = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-git-peer-'));
    const git = (...args: string[]) => run('git', ['-C', repo, '-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args]);
    await git('init', '--quiet', '--initial-branch=main');
    await fs.writeFile(path.join(repo, 'README.md'), '# peer\n');
    await git('add', 'README.md');
    await git('commit', '--quiet', '-m', 'first');
    await git('tag', 'v1.0.0');
    head = (await git('rev-parse', 'HEAD')).stdout.trim();
  });
  afterAll(async () => {
    await fs.rm(repo, { recursive: true, force: true });
  });

  it('finds the ref over file:// and as a path', async () => {
    expect(await test('git', { url: `file://${repo}`, properties: { ref: 'main' } })).toEqual({ ok: true, tested: true, message: `ref main at ${head}` });
    expect(await test('git', { url: repo, properties: { ref: 'v1.0.0' } })).toEqual({ ok: true, tested: true, message: `ref v1.0.0 at ${head}` });
    expect((await test('git', { url: repo })).message).toBe(`ref main at ${head}`);
  });

  it('a missing ref and a missing repository fail clearly', async () => {
    expect(await test('git', { url: `file://${repo}`, properties: { ref: 'release-9' } })).toEqual({ ok: false, tested: true, message: `file://${repo} has no ref release-9` });
    const missing = await test('git', { url: `file://${repo}-gone`, properties: { ref: 'main' } });
    expect(missing).toMatchObject({ ok: false, tested: true });
    expect(missing.message).toMatch(/does not appear to be a git repository|not found|No such file/i);
  });

  it('over smart HTTP: the username and password answer the 401, and a wrong password fails', async () => {
    const pkt = (line: string) => `${(Buffer.byteLength(line) + 4).toString(16).padStart(4, '0')}${line}`;
    const advertisement = `${pkt('# service=git-upload-pack\n')}0000${pkt(`${head} HEAD\0multi_ack side-band-64k symref=HEAD:refs/heads/main\n`)}${pkt(`${head} refs/heads/main\n`)}0000`;
    const server = http.createServer((request, response) => {
      const good = request.headers.authorization === basic('ci', 'Git-s3cret');
      received.push({ path: request.url ?? '', authorization: request.headers.authorization });
      if (!good) {
        response.writeHead(401, { 'www-authenticate': 'Basic realm="git"' });
        return response.end('Unauthorized');
      }
      response.writeHead(200, { 'content-type': 'application/x-git-upload-pack-advertisement', 'cache-control': 'no-cache' });
      response.end(advertisement);
    });
    const received: Array<{ path: string; authorization: string | undefined }> = [];
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/org/repo.git`;
    try {
      expect(await test('git', { url, username: 'ci', password: 'Git-s3cret', properties: { ref: 'main' } })).toEqual({ ok: true, tested: true, message: `ref main at ${head}` });
      expect(received.map((request) => request.path)).toEqual(['/org/repo.git/info/refs?service=git-upload-pack', '/org/repo.git/info/refs?service=git-upload-pack']);
      expect(received[1]?.authorization).toBe(basic('ci', 'Git-s3cret'));
      const refused = await test('git', { url, username: 'ci', password: 'Wrong-git-s3cret', properties: { ref: 'main' } });
      expect(refused).toEqual({ ok: false, tested: true, message: `git ls-remote ${url}: Authentication failed for '${url}/'` });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('an https password is used but never shown', async () => {
    const port = await closedPort();
    const outcome = await test('git', { url: `https://ci:Url-s3cret@127.0.0.1:${port}/org/repo.git`, username: 'ci', password: 'Git-s3cret' });
    expect(outcome).toMatchObject({ ok: false, tested: true });
    expect(outcome.message).toMatch(/^git ls-remote https:\/\/ci(:\*\*\*)?@127\.0\.0\.1:\d+\/org\/repo\.git: /);
    expectClean(outcome, 'Url-s3cret', 'Git-s3cret');
  });
});

describe('email', () => {
  const login = { username: 'alerts@example.com', password: 'Smtp-s3cret' };

  it('None: EHLO and login without TLS', async () => {
    const smtp = await startSmtpPeer({ login });
    try {
      const outcome = await test('email', { username: login.username, password: login.password, properties: { host: smtp.host, port: String(smtp.port), encryption: 'None' } });
      expect(outcome).toEqual({ ok: true, tested: true, message: `${smtp.host}:${smtp.port} answered EHLO without TLS and accepted the login of ${login.username}` });
      expect(smtp.sessions).toEqual([expect.objectContaining({ secure: false, user: login.username })]);
    } finally {
      await smtp.close();
    }
  });

  it('ExplicitTLS: STARTTLS before the login; a server without STARTTLS fails', async () => {
    const smtp = await startSmtpPeer({ login, starttls: true, authOnlyOverTLS: true });
    const plain = await startSmtpPeer({ login });
    try {
      const fields = { username: login.username, password: login.password, insecureTLS: true };
      const outcome = await test('email', { ...fields, properties: { host: smtp.host, port: String(smtp.port), encryption: 'ExplicitTLS' } });
      expect(outcome).toEqual({ ok: true, tested: true, message: `${smtp.host}:${smtp.port} answered EHLO after STARTTLS and accepted the login of ${login.username}` });
      expect(smtp.sessions).toEqual([expect.objectContaining({ secure: true, user: login.username })]);
      const refused = await test('email', { ...fields, properties: { host: plain.host, port: String(plain.port), encryption: 'ExplicitTLS' } });
      expect(refused).toMatchObject({ ok: false, tested: true });
      expect(refused.message).toMatch(/STARTTLS/);
    } finally {
      await Promise.all([smtp.close(), plain.close()]);
    }
  });

  it('ExplicitTLS without insecure_tls refuses a certificate of an unknown authority', async () => {
    const smtp = await startSmtpPeer({ login, starttls: true });
    try {
      const outcome = await test('email', { username: login.username, password: login.password, properties: { host: smtp.host, port: String(smtp.port), encryption: 'ExplicitTLS' } });
      expect(outcome).toMatchObject({ ok: false, tested: true });
      expect(outcome.message).toMatch(new RegExp(`^could not connect to ${smtp.host}:${smtp.port}: the server's certificate is not trusted here`));
      const implicit = await test('email', { insecureTLS: true, properties: { host: smtp.host, port: String(smtp.port), encryption: 'ImplicitTLS' } });
      expect(implicit).toEqual({ ok: false, tested: true, message: `could not connect to ${smtp.host}:${smtp.port}: the server does not speak TLS on this port` });
    } finally {
      await smtp.close();
    }
  });

  it('ImplicitTLS: TLS from the start; Auto: STARTTLS when offered', async () => {
    const smtps = await startSmtpPeer({ login, implicitTLS: true });
    const starttls = await startSmtpPeer({ starttls: true });
    try {
      const implicit = await test('email', { username: login.username, password: login.password, insecureTLS: true, properties: { host: smtps.host, port: String(smtps.port), encryption: 'ImplicitTLS', auth: 'Plain' } });
      expect(implicit).toEqual({ ok: true, tested: true, message: `${smtps.host}:${smtps.port} answered EHLO over TLS and accepted the login of ${login.username}` });
      const auto = await test('email', { insecureTLS: true, properties: { host: starttls.host, port: String(starttls.port) } });
      expect(auto).toEqual({ ok: true, tested: true, message: `${starttls.host}:${starttls.port} answered EHLO after STARTTLS` });
    } finally {
      await Promise.all([smtps.close(), starttls.close()]);
    }
  });

  it('a wrong password is refused without being shown; CRAM-MD5 is asked for by auth', async () => {
    const smtp = await startSmtpPeer({ login });
    try {
      const good = await test('email', { username: login.username, password: login.password, properties: { host: smtp.host, port: String(smtp.port), encryption: 'None', auth: 'CRAMMD5' } });
      expect(good.ok).toBe(true);
      const outcome = await test('email', { username: login.username, password: 'Wrong-smtp-s3cret', properties: { host: smtp.host, port: String(smtp.port), encryption: 'None' } });
      expect(outcome).toMatchObject({ ok: false, tested: true });
      expect(outcome.message).toMatch(new RegExp(`^could not log in as ${login.username} to ${smtp.host}:${smtp.port}: .*Invalid username or password`));
      expectClean(outcome, 'Wrong-smtp-s3cret');
    } finally {
      await smtp.close();
    }
  });

  it('a login the server refuses without TLS, or a server without AUTH, says so; a closed port fails', async () => {
    const tlsOnly = await startSmtpPeer({ login, starttls: true, authOnlyOverTLS: true });
    const noAuth = await startSmtpPeer();
    try {
      const outcome = await test('email', { username: login.username, password: login.password, properties: { host: tlsOnly.host, port: String(tlsOnly.port), encryption: 'None' } });
      expect(outcome).toMatchObject({ ok: false, tested: true });
      expect(outcome.message).toMatch(new RegExp(`^could not log in as ${login.username} to ${tlsOnly.host}:${tlsOnly.port}: .*Must issue a STARTTLS command first`));
      const none = await test('email', { username: login.username, password: login.password, properties: { host: noAuth.host, port: String(noAuth.port), encryption: 'Auto' } });
      expect(none).toEqual({ ok: false, tested: true, message: `${noAuth.host}:${noAuth.port} does not offer AUTH without TLS, so ${login.username} cannot log in` });
    } finally {
      await Promise.all([tlsOnly.close(), noAuth.close()]);
    }
    const port = await closedPort();
    const closed = await test('email', { properties: { host: '127.0.0.1', port: String(port) } });
    expect(closed.message).toMatch(new RegExp(`^could not connect to 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
  });
});

describe('notifications', () => {
  it('generic_webhook: POST the JSON test message with the configured keys and content type', async () => {
    const hook = await peer(() => ({ status: 202, text: 'accepted' }));
    const outcome = await test('generic_webhook', { url: `${hook.url}/alerts`, username: 'hook', password: 'Hook-s3cret', properties: { method: 'POST', messageKey: 'text', titleKey: 'subject', contentType: 'application/vnd.alert+json' } });
    expect(outcome).toEqual({ ok: true, tested: true, message: 'HTTP 202 Accepted: test message sent' });
    const received = hook.received.at(-1);
    expect(received).toMatchObject({ method: 'POST', path: '/alerts' });
    expect(received?.headers['content-type']).toBe('application/vnd.alert+json');
    expect(received?.headers.authorization).toBe(basic('hook', 'Hook-s3cret'));
    expect(JSON.parse(received?.body ?? '')).toEqual({ text: 'Test message from Watchkeeper', subject: 'Watchkeeper connection test' });
  });

  it('generic_webhook: GET puts the message in the query; a 500 fails', async () => {
    const hook = await peer((request) => (request.method === 'GET' ? { text: 'ok' } : { status: 500, text: 'boom' }));
    expect((await test('generic_webhook', { url: `${hook.url}/get?x=1`, properties: { method: 'GET' } })).ok).toBe(true);
    const received = hook.received.at(-1);
    expect(received?.query.get('message')).toBe('Test message from Watchkeeper');
    expect(received?.query.get('title')).toBe('Watchkeeper connection test');
    expect(received?.query.get('x')).toBe('1');
    expect(received?.body).toBe('');
    expect(await test('generic_webhook', { url: `${hook.url}/post` })).toEqual({ ok: false, tested: true, message: `POST ${hook.url}/post: HTTP 500 Internal Server Error: boom` });
  });

  it('ntfy: POST the message to the topic with basic auth; a refusal fails', async () => {
    const ntfy = await peer((request) => (request.headers.authorization === basic('me', 'Ntfy-s3cret') ? { json: { id: 'abc', topic: 'alerts' } } : { status: 403, json: { code: 40301, error: 'forbidden' } }));
    expect(await test('ntfy', { url: ntfy.url, username: 'me', password: 'Ntfy-s3cret', properties: { topic: 'alerts' } })).toEqual({ ok: true, tested: true, message: 'HTTP 200 OK: test message sent to topic alerts' });
    expect(ntfy.received.at(-1)).toMatchObject({ method: 'POST', path: '/alerts', body: 'Test message from Watchkeeper' });
    expect(ntfy.received.at(-1)?.headers.title).toBe('Watchkeeper connection test');
    const refused = await test('ntfy', { url: ntfy.url, username: 'me', password: 'Wrong-s3cret', properties: { topic: 'alerts' } });
    expect(refused).toEqual({ ok: false, tested: true, message: `POST ${ntfy.url}/alerts: HTTP 403 Forbidden: forbidden` });
  });

  it('slack: auth.test then chat.postMessage with the bot token', async () => {
    const slack = await peer((request) => {
      if (request.headers.authorization !== 'Bearer xoxb-GOOD') return { json: { ok: false, error: 'invalid_auth' } };
      if (request.path === '/api/auth.test') return { json: { ok: true, user: 'watchkeeper', team: 'Ops' } };
      const body = JSON.parse(request.body) as { channel: string };
      return body.channel === 'C0123' ? { json: { ok: true, channel: 'C0123', ts: '1.2' } } : { json: { ok: false, error: 'channel_not_found' } };
    });
    expect(await test('slack', { url: `${slack.url}/api`, password: 'xoxb-GOOD', properties: { channel: 'C0123', botName: 'WK' } })).toEqual({
      ok: true,
      tested: true,
      message: 'authenticated as watchkeeper in Ops; test message posted to C0123',
    });
    expect(slack.received.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /api/auth.test', 'POST /api/chat.postMessage']);
    expect(JSON.parse(slack.received[1]?.body ?? '')).toMatchObject({ channel: 'C0123', username: 'WK', text: expect.stringContaining('Test message from Watchkeeper') });
    const badToken = await test('slack', { url: `${slack.url}/api`, password: 'xoxb-BAD', properties: { channel: 'C0123' } });
    expect(badToken).toEqual({ ok: false, tested: true, message: 'Slack refused the token: invalid_auth' });
    expect(await test('slack', { url: `${slack.url}/api`, password: 'xoxb-GOOD', properties: { channel: 'C999' } })).toEqual({ ok: false, tested: true, message: 'Slack refused the message to C999: channel_not_found' });
  });

  it('mattermost: POST {url}/hooks/{token}; an unknown hook fails without the token', async () => {
    const mm = await peer((request) => (request.path === '/hooks/mm-T0KEN' ? { text: 'ok' } : { status: 400, json: { message: 'Invalid webhook' } }));
    expect(await test('mattermost', { url: mm.url, password: 'mm-T0KEN', username: 'wk-bot', properties: { channel: 'town-square' } })).toEqual({ ok: true, tested: true, message: 'HTTP 200 OK: test message sent to town-square' });
    expect(JSON.parse(mm.received.at(-1)?.body ?? '')).toMatchObject({ channel: 'town-square', username: 'wk-bot', text: expect.stringContaining('Test message') });
    const refused = await test('mattermost', { url: mm.url, password: 'mm-WR0NG' });
    expect(refused).toEqual({ ok: false, tested: true, message: `POST ${mm.url}/hooks/***: HTTP 400 Bad Request: Invalid webhook` });
  });

  it('rocketchat: POST {url}/hooks/{token}; success false fails', async () => {
    const rc = await peer((request) => (request.path === '/hooks/id1/rc-T0KEN' ? { json: { success: true } } : { json: { success: false, error: 'Invalid integration' } }));
    expect((await test('rocketchat', { url: rc.url, password: 'id1/rc-T0KEN' })).ok).toBe(true);
    expect(rc.received.at(-1)?.method).toBe('POST');
    expect(await test('rocketchat', { url: rc.url, password: 'id1/rc-WR0NG' })).toEqual({ ok: false, tested: true, message: 'Rocket.Chat refused the message: Invalid integration' });
  });

  it('google_chat: POST the webhook url, whose key and token never show', async () => {
    const chat = await peer((request) => (request.query.get('token') === 'Gc-T0KEN' ? { json: { name: 'spaces/X/messages/1' } } : { status: 401, json: { error: { code: 401, message: 'Request had invalid authentication credentials.' } } }));
    const url = `${chat.url}/v1/spaces/AAA/messages?key=Gc-KEY&token=Gc-T0KEN`;
    expect(await test('google_chat', { url })).toEqual({ ok: true, tested: true, message: 'HTTP 200 OK: test message sent' });
    expect(JSON.parse(chat.received.at(-1)?.body ?? '')).toEqual({ text: expect.stringContaining('Test message from Watchkeeper') });
    const refused = await test('google_chat', { url: url.replace('Gc-T0KEN', 'Gc-WR0NG') });
    expect(refused).toEqual({ ok: false, tested: true, message: `POST ${chat.url}/v1/spaces/AAA/messages: HTTP 401 Unauthorized: Request had invalid authentication credentials.` });
    expectClean(refused, 'Gc-KEY', 'Gc-WR0NG');
  });

  it('teams: POST the MessageCard to the incoming webhook path; missing parts are named', async () => {
    const teams = await peer((request) => (request.path === '/webhookb2/grp@tnt/IncomingWebhook/alt/Owner-S3CRET' ? { text: '1' } : { status: 404, text: 'not found' }));
    expect(await test('teams', { url: teams.url, password: 'Owner-S3CRET', properties: { group: 'grp', tenant: 'tnt', altID: 'alt' } })).toEqual({ ok: true, tested: true, message: 'HTTP 200 OK: test message sent' });
    expect(JSON.parse(teams.received.at(-1)?.body ?? '')).toMatchObject({ '@type': 'MessageCard', title: 'Watchkeeper connection test' });
    expect((await test('teams', { url: teams.url, password: 'Owner-WR0NG', properties: { group: 'grp', tenant: 'tnt', altID: 'alt' } })).message).toMatch(/HTTP 404 Not Found/);
    expect(await test('teams', { url: teams.url, password: 'x', properties: { tenant: 'tnt' } })).toEqual({ ok: false, tested: true, message: 'group, tenant and altID are all needed to build the webhook URL' });
  });

  it('discord: POST {url}/api/webhooks/{id}/{token}', async () => {
    const discord = await peer((request) => (request.path === '/api/webhooks/1234/Dc-T0KEN' ? { status: 204 } : { status: 401, json: { message: '401: Unauthorized', code: 0 } }));
    expect(await test('discord', { url: discord.url, username: '1234', password: 'Dc-T0KEN' })).toEqual({ ok: true, tested: true, message: 'HTTP 204 No Content: test message sent' });
    expect(JSON.parse(discord.received.at(-1)?.body ?? '')).toEqual({ content: expect.stringContaining('Test message from Watchkeeper') });
    const refused = await test('discord', { url: discord.url, username: '1234', password: 'Dc-WR0NG' });
    expect(refused.message).toBe(`POST ${discord.url}/api/webhooks/1234/***: HTTP 401 Unauthorized: 401: Unauthorized`);
  });

  it('telegram: sendMessage to each chat; a chat Telegram does not know fails', async () => {
    const telegram = await peer((request) => {
      if (request.path !== '/botTg-T0KEN/sendMessage') return { status: 404, json: { ok: false, error_code: 404, description: 'Not Found' } };
      const body = JSON.parse(request.body) as { chat_id: string };
      return body.chat_id === '@missing' ? { status: 400, json: { ok: false, error_code: 400, description: 'Bad Request: chat not found' } } : { json: { ok: true, result: { message_id: 1 } } };
    });
    expect(await test('telegram', { url: telegram.url, password: 'Tg-T0KEN', properties: { chats: '-100123, @ops' } })).toEqual({ ok: true, tested: true, message: 'test message sent to -100123, @ops' });
    expect(telegram.received.map((request) => (JSON.parse(request.body) as { chat_id: string }).chat_id)).toEqual(['-100123', '@ops']);
    const refused = await test('telegram', { url: telegram.url, password: 'Tg-T0KEN', properties: { chats: '@missing' } });
    expect(refused).toEqual({ ok: false, tested: true, message: `POST ${telegram.url}/bot***/sendMessage: HTTP 400 Bad Request: Bad Request: chat not found` });
  });

  it('pushover: POST /1/messages.json with token and user; status 0 fails', async () => {
    const pushover = await peer((request) => {
      const body = JSON.parse(request.body) as { token: string };
      return body.token === 'Po-T0KEN' ? { json: { status: 1, request: 'r1' } } : { status: 400, json: { user: 'invalid', errors: ['application token is invalid'], status: 0 } };
    });
    expect(await test('pushover', { url: pushover.url, password: 'Po-T0KEN', username: 'uKEY' })).toEqual({ ok: true, tested: true, message: 'HTTP 200 OK: test message sent' });
    expect(pushover.received.at(-1)).toMatchObject({ method: 'POST', path: '/1/messages.json' });
    expect(JSON.parse(pushover.received.at(-1)?.body ?? '')).toMatchObject({ token: 'Po-T0KEN', user: 'uKEY', title: 'Watchkeeper connection test' });
    const refused = await test('pushover', { url: pushover.url, password: 'Po-WR0NG', username: 'uKEY' });
    expect(refused.message).toBe(`POST ${pushover.url}/1/messages.json: HTTP 400 Bad Request: application token is invalid`);
  });

  it('pushbullet: a note to each target with Access-Token; a bad token fails', async () => {
    const pushbullet = await peer((request) => (request.headers['access-token'] === 'Pb-T0KEN' ? { json: { active: true, iden: 'p1' } } : { status: 401, json: { error: { code: 'invalid_access_token', message: 'Access token is missing or invalid.' } } }));
    expect(await test('pushbullet', { url: pushbullet.url, password: 'Pb-T0KEN', properties: { targets: '#ops, me@example.com, dev1' } })).toEqual({ ok: true, tested: true, message: 'HTTP 200 OK: test message sent to #ops, me@example.com, dev1' });
    expect(pushbullet.received.map((request) => JSON.parse(request.body) as Record<string, string>)).toEqual([
      expect.objectContaining({ type: 'note', channel_tag: 'ops' }),
      expect.objectContaining({ email: 'me@example.com' }),
      expect.objectContaining({ device_iden: 'dev1' }),
    ]);
    expect((await test('pushbullet', { url: pushbullet.url, password: 'Pb-WR0NG', properties: { targets: 'dev1' } })).message).toBe(`POST ${pushbullet.url}/v2/pushes: HTTP 401 Unauthorized: Access token is missing or invalid.`);
  });

  it('matrix: versions, a password login and its logout; a wrong password fails', async () => {
    const matrix = await peer((request) => {
      if (request.path === '/_matrix/client/versions') return { json: { versions: ['r0.6.1', 'v1.11'] } };
      if (request.path === '/_matrix/client/v3/login') {
        const body = JSON.parse(request.body) as { password: string };
        return body.password === 'Mx-s3cret' ? { json: { user_id: '@wk:example.org', access_token: 'syt_abc', device_id: 'D' } } : { status: 403, json: { errcode: 'M_FORBIDDEN', error: 'Invalid username or password' } };
      }
      if (request.path === '/_matrix/client/v3/account/whoami') return request.headers.authorization === 'Bearer syt_abc' ? { json: { user_id: '@wk:example.org' } } : { status: 401, json: { errcode: 'M_UNKNOWN_TOKEN', error: 'Invalid access token passed.' } };
      if (request.path === '/_matrix/client/v3/logout') return { json: {} };
      return { status: 404, json: { errcode: 'M_UNRECOGNIZED' } };
    });
    expect(await test('matrix', { url: matrix.url, username: 'wk', password: 'Mx-s3cret' })).toEqual({ ok: true, tested: true, message: 'Matrix server (client API v1.11) accepted the login of @wk:example.org' });
    expect(matrix.received.map((request) => request.path)).toEqual(['/_matrix/client/versions', '/_matrix/client/v3/login', '/_matrix/client/v3/logout']);
    expect(matrix.received[2]?.headers.authorization).toBe('Bearer syt_abc');
    const refused = await test('matrix', { url: matrix.url, username: 'wk', password: 'Wrong-mx-s3cret' });
    expect(refused).toEqual({ ok: false, tested: true, message: `POST ${matrix.url}/_matrix/client/v3/login: HTTP 403 Forbidden: Invalid username or password` });
    expect(await test('matrix', { url: matrix.url, password: 'syt_abc' })).toEqual({ ok: true, tested: true, message: 'Matrix server (client API v1.11) accepted the access token of @wk:example.org' });
  });

  it('zulip_chat: POST /api/v1/messages form-encoded as botMail:botKey', async () => {
    const zulip = await peer((request) => (request.headers.authorization === basic('bot@zulip.example', 'Zu-KEY') ? { json: { result: 'success', msg: '', id: 42 } } : { status: 401, json: { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' } }));
    expect(await test('zulip_chat', { url: zulip.url, username: 'bot@zulip.example', password: 'Zu-KEY', properties: { stream: 'ops', topic: 'alerts' } })).toEqual({ ok: true, tested: true, message: 'HTTP 200 OK: test message sent to ops' });
    const form = new URLSearchParams(zulip.received.at(-1)?.body ?? '');
    expect(Object.fromEntries(form)).toEqual({ type: 'stream', to: 'ops', topic: 'alerts', content: 'Test message from Watchkeeper' });
    expect(zulip.received.at(-1)?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect((await test('zulip_chat', { url: zulip.url, username: 'bot@zulip.example', password: 'Zu-WR0NG' })).message).toBe(`POST ${zulip.url}/api/v1/messages: HTTP 401 Unauthorized: Invalid API key`);
  });

  it('ifttt: POST /trigger/{event}/with/key/{key} for each event', async () => {
    const ifttt = await peer((request) => (request.path.endsWith('/with/key/If-KEY') ? { text: 'Congratulations! You have fired the event' } : { status: 401, json: { errors: [{ message: 'You sent an invalid key.' }] } }));
    expect(await test('ifttt', { url: ifttt.url, password: 'If-KEY', properties: { events: 'alert, page' } })).toEqual({ ok: true, tested: true, message: 'HTTP 200 OK: test message sent to events alert, page' });
    expect(ifttt.received.map((request) => request.path)).toEqual(['/trigger/alert/with/key/If-KEY', '/trigger/page/with/key/If-KEY']);
    expect(JSON.parse(ifttt.received[0]?.body ?? '')).toEqual({ value1: 'Watchkeeper connection test', value2: 'Test message from Watchkeeper', value3: '' });
    const refused = await test('ifttt', { url: ifttt.url, password: 'If-WR0NG', properties: { events: 'alert' } });
    expect(refused.message).toBe(`POST ${ifttt.url}/trigger/alert/with/key/***: HTTP 401 Unauthorized: You sent an invalid key.`);
  });

  it('opsgenie: GET /v2/heartbeats with GenieKey', async () => {
    const opsgenie = await peer((request) => (request.headers.authorization === 'GenieKey Og-KEY' ? { json: { data: { heartbeats: [{ name: 'a' }] } } } : { status: 422, json: { message: 'Key format is not valid!' } }));
    expect(await test('opsgenie', { url: opsgenie.url, password: 'Og-KEY', properties: { port: '443' } })).toEqual({ ok: true, tested: true, message: 'HTTP 200 OK: OpsGenie accepted the API key (1 heartbeat)' });
    expect(opsgenie.received.at(-1)).toMatchObject({ method: 'GET', path: '/v2/heartbeats' });
    expect((await test('opsgenie', { url: opsgenie.url, password: 'Og-WR0NG' })).message).toBe(`GET ${opsgenie.url}/v2/heartbeats: HTTP 422 Unprocessable Entity: Key format is not valid!`);
  });
});

describe('other types', () => {
  it('folder: a readable directory passes; a missing path and a file fail', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-folder-'));
    try {
      expect(await test('folder', { url: dir })).toEqual({ ok: true, tested: true, message: `${dir} is a readable directory` });
      expect(await test('folder', { url: `${dir}/gone` })).toEqual({ ok: false, tested: true, message: `${dir}/gone does not exist` });
      await fs.writeFile(path.join(dir, 'file'), 'x');
      expect(await test('folder', { url: `${dir}/file` })).toEqual({ ok: false, tested: true, message: `${dir}/file is not a directory` });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('ldap: binds as the user; a wrong password is refused', async () => {
    const server = ldap.createServer();
    server.bind('dc=example,dc=com', (request: { dn: { toString(): string }; credentials: string }, response: { end(): void }, next: (error?: unknown) => void) => {
      if (request.dn.toString() === 'cn=admin,dc=example,dc=com' && request.credentials === 'Ldap-s3cret') {
        response.end();
        return next();
      }
      return next(new ldap.InvalidCredentialsError());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const url = server.url.replace('localhost', '127.0.0.1');
    try {
      expect(await test('ldap', { url, username: 'cn=admin,dc=example,dc=com', password: 'Ldap-s3cret' })).toEqual({ ok: true, tested: true, message: `bound as cn=admin,dc=example,dc=com to ${url}` });
      const refused = await test('ldap', { url, username: 'cn=admin,dc=example,dc=com', password: 'Wrong-ldap-s3cret' });
      expect(refused).toMatchObject({ ok: false, tested: true });
      expect(refused.message).toMatch(new RegExp(`^could not bind as cn=admin,dc=example,dc=com to ${url}: Invalid Credentials`));
      expectClean(refused, 'Wrong-ldap-s3cret');
      expect((await test('ldap', { url: 'http://ldap.example.com' })).message).toBe('url must be ldap://host:389 or ldaps://host:636');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('smb, windows, restic and jmeter are not tested, naming what is missing', async () => {
    const expected: Record<string, RegExp> = { smb: /SMB client/, windows: /WinRM/, restic: /restic/, jmeter: /JMeter/ };
    for (const [type, missing] of Object.entries(expected)) {
      const outcome = await test(type, { url: 'host.example.com', username: 'u', password: 'p-s3cret' });
      expect(outcome).toMatchObject({ ok: false, tested: false });
      expect(outcome.message).toMatch(missing);
      expect(outcome.message).toMatch(/cannot be tested here/);
    }
  });
});

describe('cloud types', () => {
  it('are not tested, naming what this server cannot reach', async () => {
    expect(await test('aws', { username: 'AKIA', password: 'aws-s3cret' })).toEqual({ ok: false, tested: false, message: 'AWS connections cannot be tested here: this server has no route to the AWS API' });
    expect(await test('kubernetes', { certificate: 'apiVersion: v1' })).toEqual({ ok: false, tested: false, message: 'Kubernetes connections cannot be tested here: this server has no route to a Kubernetes API server' });
    for (const type of ['s3', 'azure', 'azure_devops', 'google_cloud', 'gcs']) {
      const outcome = await test(type);
      expect(outcome).toMatchObject({ ok: false, tested: false });
      expect(outcome.message).toMatch(/connections cannot be tested here: this server has no route to /);
    }
  });

  it('github, gitlab and the AI types are not tested without a loopback url', async () => {
    const cases: Array<[string, string, string]> = [
      ['github', '', 'GitHub connections cannot be tested here: this server has no route to the GitHub API'],
      ['gitlab', 'https://gitlab.com', 'Gitlab connections cannot be tested here: this server has no route to GitLab'],
      ['openai', 'https://api.openai.com/v1', 'OpenAI connections cannot be tested here: this server has no route to the OpenAI API'],
      ['anthropic', '', 'Anthropic connections cannot be tested here: this server has no route to the Anthropic API'],
      ['ollama', 'http://ollama.internal:11434', 'Ollama connections cannot be tested here: this server has no route to an Ollama server'],
    ];
    for (const [type, url, message] of cases) expect(await test(type, { url, password: 'k-s3cret' })).toEqual({ ok: false, tested: false, message });
  });

  it('github and gitlab with a loopback url: one GET that needs the token', async () => {
    const api = await peer((request) => {
      if (request.path === '/user' && request.headers.authorization === 'Bearer ghp_GOOD') return { json: { login: 'octocat' } };
      if (request.path === '/api/v4/user' && request.headers['private-token'] === 'glpat-GOOD') return { json: { username: 'root' } };
      return { status: 401, json: { message: 'Bad credentials' } };
    });
    expect(await test('github', { url: api.url, password: 'ghp_GOOD' })).toEqual({ ok: true, tested: true, message: 'authenticated as octocat' });
    expect(await test('github', { url: api.url, password: 'ghp_BAD' })).toEqual({ ok: false, tested: true, message: `GET ${api.url}/user: HTTP 401 Unauthorized: Bad credentials` });
    expect(await test('gitlab', { url: `${api.url.replace('127.0.0.1', 'localhost')}/`, password: 'glpat-GOOD' })).toEqual({ ok: true, tested: true, message: 'authenticated as root' });
    expect((await test('gitlab', { url: api.url, password: 'glpat-BAD' })).ok).toBe(false);
  });

  it('openai, anthropic and ollama with a loopback url list the models', async () => {
    const ai = await peer((request) => {
      if (request.path === '/v1/models' && request.headers.authorization === 'Bearer sk-GOOD') return { json: { object: 'list', data: [{ id: 'gpt-4o' }, { id: 'gpt-4o-mini' }] } };
      if (request.path === '/v1/models' && request.headers['x-api-key'] === 'sk-ant-GOOD' && request.headers['anthropic-version']) return { json: { data: [{ id: 'claude-sonnet-4-5' }] } };
      if (request.path === '/api/tags') return { json: { models: [{ name: 'llama3.2:latest' }] } };
      return { status: 401, json: { error: { message: 'Incorrect API key provided' } } };
    });
    expect(await test('openai', { url: `${ai.url}/v1`, password: 'sk-GOOD', properties: { model: 'gpt-4o' } })).toEqual({ ok: true, tested: true, message: '2 models listed, gpt-4o among them' });
    expect(await test('openai', { url: `${ai.url}/v1`, password: 'sk-BAD' })).toEqual({ ok: false, tested: true, message: `GET ${ai.url}/v1/models: HTTP 401 Unauthorized: Incorrect API key provided` });
    expect(await test('anthropic', { url: ai.url, password: 'sk-ant-GOOD' })).toEqual({ ok: true, tested: true, message: '1 model listed' });
    expect(await test('ollama', { url: ai.url, properties: { model: 'llama3.2' } })).toEqual({ ok: true, tested: true, message: '1 model listed, llama3.2 among them' });
    expect(await test('ollama', { url: ai.url, properties: { model: 'mistral' } })).toEqual({ ok: false, tested: true, message: 'model mistral is not among the 1 models the server lists' });
  });
});
