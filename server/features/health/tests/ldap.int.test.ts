import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ldap from 'ldapjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { applyCanary, runByName, closedPort as freeClosedPort } from '../testing/check-harness';

/**
 * ldap checks against a real LDAP protocol peer: the ldapjs server (plain and TLS with a self-signed
 * certificate), with a bind handler that checks credentials and a search handler over a small directory.
 */
let t: TestApp;
let plain: ldap.Server;
let secure: ldap.Server;
let plainPort = 0;
let securePort = 0;
let closedPort = 0;
let certDir = '';

const ADMIN = 'uid=admin,ou=system';
const PASSWORD = 'directory-secret';
const DIRECTORY: Array<{ dn: string; attributes: Record<string, string | string[]> }> = [
  { dn: 'cn=alice,ou=users,dc=example,dc=com', attributes: { objectClass: ['top', 'organizationalPerson'], cn: 'alice', mail: 'alice@example.com', userPassword: '{SSHA}hash' } },
  { dn: 'cn=bob,ou=users,dc=example,dc=com', attributes: { objectClass: ['top', 'organizationalPerson'], cn: 'bob', mail: 'bob@example.com' } },
  { dn: 'cn=admins,ou=groups,dc=example,dc=com', attributes: { objectClass: ['top', 'groupOfNames'], cn: 'admins', member: ['cn=alice,ou=users,dc=example,dc=com'] } },
];

interface BindRequest {
  dn: { toString(): string };
  credentials: string;
}
interface SearchRequest {
  dn: { toString(): string };
  filter: { matches(attributes: Record<string, unknown>): boolean };
  connection: { ldap: { bindDN: { toString(): string } } };
}
interface Response {
  send(entry: { dn: string; attributes: Record<string, string | string[]> }): void;
  end(): void;
}
type Next = (error?: ldap.InvalidCredentialsError | ldap.InsufficientAccessRightsError) => void;

const normal = (dn: { toString(): string }) => dn.toString().replace(/\s+/g, '').toLowerCase();

function directory(server: ldap.Server): void {
  server.bind('ou=system', (req: BindRequest, res: Response, next: Next) => {
    if (normal(req.dn) !== ADMIN || req.credentials !== PASSWORD) return next(new ldap.InvalidCredentialsError());
    res.end();
    return next();
  });
  server.search('dc=example,dc=com', (req: SearchRequest, res: Response, next: Next) => {
    if (normal(req.connection.ldap.bindDN) !== ADMIN) return next(new ldap.InsufficientAccessRightsError());
    const base = normal(req.dn);
    for (const entry of DIRECTORY) if (entry.dn.toLowerCase().endsWith(base) && req.filter.matches(entry.attributes)) res.send(entry);
    res.end();
    return next();
  });
}

async function listen(server: ldap.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  // server.url is ldap(s)://127.0.0.1:<port> once listening.
  return Number(new URL(server.url).port);
}

beforeAll(async () => {
  t = await createTestApp();
  certDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wk-ldap-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', path.join(certDir, 'key.pem'), '-out', path.join(certDir, 'cert.pem')], { stdio: 'ignore' });
  plain = ldap.createServer();
  secure = ldap.createServer({ certificate: fs.readFileSync(path.join(certDir, 'cert.pem'), 'utf8'), key: fs.readFileSync(path.join(certDir, 'key.pem'), 'utf8') });
  directory(plain);
  directory(secure);
  plainPort = await listen(plain);
  securePort = await listen(secure);
  closedPort = await freeClosedPort();
});

afterAll(async () => {
  await new Promise<void>((resolve) => (plain ? plain.close(() => resolve()) : resolve()));
  await new Promise<void>((resolve) => (secure ? secure.close(() => resolve()) : resolve()));
  if (certDir) fs.rmSync(certDir, { recursive: true, force: true });
  await t?.close();
});

describe('ldap', () => {
  it('binds, searches and passes when entries match; fails on bad credentials, no match, no access and no server', async () => {
    const applied = await applyCanary(
      t,
      `
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: ldap-checks}
spec:
  ldap:
    - name: users
      url: ldap://127.0.0.1:${plainPort}
      username: {value: "${ADMIN}"}
      password: {value: ${PASSWORD}}
      bindDN: ou=users,dc=example,dc=com
      userSearch: "(&(objectClass=organizationalPerson))"
      test:
        expr: count == 2 && entries.exists(e, e.attributes.mail == 'alice@example.com') && entries.all(e, !has(e.attributes.userPassword))
    - name: groups
      url: ldap://127.0.0.1:${plainPort}
      username: "${ADMIN}"
      password: ${PASSWORD}
      bindDN: ou=groups,dc=example,dc=com
      userSearch: (objectClass=groupOfNames)
    - name: wrong password
      url: ldap://127.0.0.1:${plainPort}
      username: "${ADMIN}"
      password: {value: not-the-directory-secret}
      bindDN: ou=users,dc=example,dc=com
    - name: no match
      url: ldap://127.0.0.1:${plainPort}
      username: "${ADMIN}"
      password: ${PASSWORD}
      bindDN: ou=users,dc=example,dc=com
      userSearch: (cn=carol)
    - name: anonymous
      url: ldap://127.0.0.1:${plainPort}
      bindDN: dc=example,dc=com
    - name: no server
      url: ldap://127.0.0.1:${closedPort}
      bindDN: dc=example,dc=com
    - name: tls skip verify
      url: ldaps://127.0.0.1:${securePort}
      username: "${ADMIN}"
      password: ${PASSWORD}
      bindDN: ou=users,dc=example,dc=com
      skipTLSVerify: true
    - name: tls verified
      url: ldaps://127.0.0.1:${securePort}
      username: "${ADMIN}"
      password: ${PASSWORD}
      bindDN: ou=users,dc=example,dc=com
`,
    );
    expect(applied).toMatchObject({ ok: true, warnings: [] });
    const results = await runByName(t, 'ldap-checks');
    expect(results.users).toMatchObject({ pass: true, message: '2 entries under ou=users,dc=example,dc=com match (&(objectClass=organizationalPerson))' });
    expect(results.users?.details).toEqual({ count: 2, dns: ['cn=alice,ou=users,dc=example,dc=com', 'cn=bob,ou=users,dc=example,dc=com'] });
    expect(results.groups).toMatchObject({ pass: true, message: '1 entry under ou=groups,dc=example,dc=com match (objectClass=groupOfNames)' });
    expect(results['wrong password']).toMatchObject({ pass: false });
    expect(results['wrong password']?.message).toMatch(new RegExp(`^could not bind as ${ADMIN} to ldap://127.0.0.1:${plainPort}: .*Invalid Credentials`, 'i'));
    expect(results['no match']).toMatchObject({ pass: false, message: 'no entries under ou=users,dc=example,dc=com match (cn=carol)' });
    expect(results.anonymous?.pass).toBe(false);
    expect(results.anonymous?.message).toMatch(/^could not search dc=example,dc=com on .*Insufficient Access/i);
    expect(results['no server']?.pass).toBe(false);
    expect(results['no server']?.message).toContain(`could not connect to ldap://127.0.0.1:${closedPort}`);
    expect(results['tls skip verify']).toMatchObject({ pass: true });
    expect(results['tls verified']?.pass).toBe(false);
    expect(results['tls verified']?.message).toMatch(/self.signed certificate/i);
    const stored = JSON.stringify(await t.db.pool.query('SELECT message, error, details FROM check_statuses'));
    expect(stored).not.toContain(PASSWORD);
    expect(stored).not.toContain('not-the-directory-secret');
    expect(stored).not.toContain('SSHA');
  });

  it('needs a url and a base DN', async () => {
    const applied = await applyCanary(t, `
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: ldap-invalid}
spec:
  ldap:
    - name: old form
      host: ldap://directory:389
      auth: {username: {value: x}, password: {value: y}}
`);
    expect(applied.errors).toEqual([
      'spec.ldap[0].bindDN: is required: the base DN to search, e.g. ou=users,dc=example,dc=com',
      'spec.ldap[0].url: is required (ldap://host:389 or ldaps://host:636; the older host field is not read), or a connection',
    ]);
  });
});
