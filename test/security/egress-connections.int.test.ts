import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { close, closeHarness, listen, outcome } from '../../server/features/health/testing/check-harness';
import { git, makeRepository, startGitHttpServer, type GitHttpServer } from '../../server/features/health/tests/git-server';
import { OidcProvider } from '../../server/features/identity/oidc/provider';
import { createTestApp, type TestApp } from '../app';

/**
 * Issue 35 (egress), the connections that are not HTTP: database drivers (the sql checks, playbook sql
 * actions and view queries share one client), redis, LDAP, git (exec checkouts, gitops, git connections and
 * scrapers) and the JWKS of a sign-in provider reached their host whatever the egress policy said. Now the
 * host is judged, by name and by every address it resolves to, before the driver or git connects
 * (server/platform/egress-connect.ts).
 *
 * As test/security/egress.int.test.ts: no socket of this process reaches outside loopback (the guard
 * below throws first), so a build without the policy fails these tests on the guard's words.
 */

let t: TestApp;
const originalConnect = net.Socket.prototype.connect;
const offLoopback: string[] = [];
let gitServer: GitHttpServer;
let served = '';
let repo: Awaited<ReturnType<typeof makeRepository>>;

const REFUSED_METADATA = "egress to 169.254.169.254 is refused by the console's egress policy (link-local and cloud metadata addresses";
const REFUSED_NAME = "egress to metadata.google.internal is refused by the console's egress policy (link-local and cloud metadata addresses";
/** localhost resolves to 127.0.0.1 and/or ::1: either is refused by the deny list below. */
const REFUSED_LOCALHOST = /egress to localhost \((127\.0\.0\.1|::1)\) is refused by the console's egress policy \(egress\.deny lists (127\.0\.0\.0\/8|::1)\)/;

beforeAll(async () => {
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
  repo = await makeRepository('main');
  await repo.commit({ VERSION: 'served\n' }, 'first');
  served = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-egress-git-'));
  await git(served, 'clone', '--quiet', '--bare', repo.dir, path.join(served, 'app.git'));
  gitServer = await startGitHttpServer(served);
}, 60_000);

afterAll(async () => {
  net.Socket.prototype.connect = originalConnect;
  await gitServer?.close();
  await Promise.all([repo?.remove(), served ? fs.rm(served, { recursive: true, force: true }) : undefined]);
  await closeHarness();
  await t?.close();
});

async function setDeny(value: string | undefined) {
  await t.db.pool.query("DELETE FROM properties WHERE name = 'egress.deny'");
  if (value === undefined) {
    // The write through the API tells the policy to read the properties again.
    const response = await t.app.inject({ method: 'DELETE', url: '/api/db/properties?name=eq.egress.deny', headers: t.adminHeaders });
    expect(response.statusCode).toBeLessThan(300);
    return;
  }
  const response = await t.app.inject({ method: 'POST', url: '/api/db/properties', headers: t.adminHeaders, payload: { name: 'egress.deny', value } });
  expect(response.statusCode, response.body).toBe(201);
}

describe('database, redis and LDAP drivers: the metadata address is refused before connect', () => {
  it('postgres and mysql checks (the client the playbook sql action and view queries use too)', async () => {
    const postgres = await outcome('postgres', { name: 'pg', url: 'postgres://u:secret-pw@169.254.169.254:5432/db', query: 'SELECT 1' });
    expect(postgres).toMatchObject({ pass: false, message: expect.stringContaining(REFUSED_METADATA) });
    expect(postgres.message).not.toContain('secret-pw');
    const mysql = await outcome('mysql', { name: 'my', url: 'mysql://u:p@169.254.169.254:3306/db', query: 'SELECT 1' });
    expect(mysql).toMatchObject({ pass: false, message: expect.stringContaining(REFUSED_METADATA) });
    expect(offLoopback).toEqual([]);
  });

  it('redis and ldap checks', async () => {
    expect(await outcome('redis', { name: 'r', url: 'redis://169.254.169.254:6379' })).toMatchObject({ pass: false, message: expect.stringContaining(REFUSED_METADATA) });
    expect(await outcome('redis', { name: 'r', addr: '[::ffff:169.254.169.254]:6379' })).toMatchObject({ pass: false, message: expect.stringContaining('is refused by the console\'s egress policy') });
    expect(await outcome('ldap', { name: 'l', url: 'ldap://169.254.169.254:389', bindDN: 'dc=example,dc=com' })).toMatchObject({ pass: false, message: expect.stringContaining(REFUSED_METADATA) });
    expect(offLoopback).toEqual([]);
  });

  it('a metadata host name is refused before any DNS query', async () => {
    expect((await outcome('postgres', { name: 'pg', url: 'postgres://u@metadata.google.internal/db', query: 'SELECT 1' })).message).toContain(REFUSED_NAME);
    expect((await outcome('redis', { name: 'r', addr: 'metadata.google.internal:6379' })).message).toContain(REFUSED_NAME);
  });
});

describe('git: the remote is judged before git runs', () => {
  it('an exec checkout from the metadata address or name is refused', async () => {
    for (const [url, refused] of [
      ['http://169.254.169.254/repo.git', REFUSED_METADATA],
      ['https://metadata.google.internal/repo.git', REFUSED_NAME],
      ['git@metadata.google.internal:org/repo.git', REFUSED_NAME],
    ] as const) {
      const ran = await outcome('exec', { name: 'x', script: 'cat VERSION', checkout: { url } });
      expect(ran.pass, url).toBe(false);
      expect(ran.message, url).toContain(refused);
    }
  });
});

describe('an admin deny list applies to the addresses a name resolves to', () => {
  it('localhost is refused when its addresses are denied, and reached again once the list is cleared', async () => {
    const repoUrl = `${gitServer.url.replace('127.0.0.1', 'localhost')}/app.git`;
    const pgUrl = 'postgres://postgres@localhost:5432/postgres?connect_timeout=5';
    await setDeny('127.0.0.0/8 ::1');
    try {
      const checkout = await outcome('exec', { name: 'x', script: 'cat VERSION', checkout: { url: repoUrl } });
      expect(checkout.pass).toBe(false);
      expect(checkout.message).toMatch(REFUSED_LOCALHOST);
      expect((await outcome('postgres', { name: 'pg', url: pgUrl, query: 'SELECT 1' })).message).toMatch(REFUSED_LOCALHOST);
      expect((await outcome('redis', { name: 'r', addr: 'localhost:1' })).message).toMatch(REFUSED_LOCALHOST);
    } finally {
      await setDeny(undefined);
    }
    const checkout = await outcome('exec', { name: 'x', script: 'cat VERSION', checkout: { url: repoUrl } });
    expect(checkout.message).not.toMatch(/egress/);
    expect(checkout.data.stdout).toBe('served');
  });
});

describe('the JWKS of a sign-in provider', () => {
  it('a jwks_uri at the metadata address is refused; the ID token check says so', async () => {
    const discovery = http.createServer((req, res) => {
      const issuer = `http://127.0.0.1:${(discovery.address() as net.AddressInfo).port}`;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: 'http://169.254.169.254/jwks' }));
    });
    const port = await listen(discovery);
    try {
      const issuer = `http://127.0.0.1:${port}`;
      const provider = new OidcProvider({ issuer, clientId: 'watchkeeper', scopes: ['openid'] } as ConstructorParameters<typeof OidcProvider>[0]);
      const { privateKey } = await generateKeyPair('RS256');
      const token = await new SignJWT({ sub: 'someone' }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuer(issuer).setAudience('watchkeeper').setIssuedAt().setExpirationTime('5m').sign(privateKey);
      await expect(provider.verifyIdToken(token, undefined)).rejects.toThrow(REFUSED_METADATA);
      expect(offLoopback).toEqual([]);
    } finally {
      await close(discovery);
    }
  });
});
