import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { Keyring, processKeyring, secretStore } from '../../../platform/secrets';
import { rotateSecrets } from '../../../platform/secrets/rotate';
import { features } from '../../index';
import { runCanary } from '../../health';

const log = createLogger('silent');
const kinds = features.flatMap((feature) => feature.kinds ?? []);
const PASSWORD = `pw-${randomBytes(6).toString('hex')}`;
const TOKEN = `tok-${randomBytes(6).toString('hex')}`;

let t: TestApp;
let peer: http.Server;
let peerUrl: string;
const seen: Array<{ url: string; authorization: string; token: string }> = [];
let stopListening: () => Promise<void>;

async function apply(text: string) {
  return applyDocuments(t.db.pool, kinds, [{ file: 'test.yaml', text }], 'ConfigFile', log);
}

async function canaryId(name: string): Promise<string> {
  const { rows } = await t.db.pool.query<{ id: string }>('SELECT id FROM canaries WHERE name = $1 AND deleted_at IS NULL', [name]);
  return (rows[0] as { id: string }).id;
}

async function run(name: string) {
  const ran = await runCanary({ pool: t.db.pool, log }, await canaryId(name), new AbortController().signal);
  return ran.map((r) => r.outcome.result);
}

beforeAll(async () => {
  t = await createTestApp();
  stopListening = await secretStore(t.db.pool).listen(log);
  peer = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: String(req.headers.authorization ?? ''), token: String(req.headers['x-token'] ?? '') });
    const expected = `Basic ${Buffer.from(`web:${PASSWORD}`).toString('base64')}`;
    res.statusCode = req.headers.authorization === expected ? 200 : 401;
    res.end(res.statusCode === 200 ? 'ok' : 'denied');
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await stopListening?.();
  await new Promise((resolve) => peer?.close(resolve));
  await t?.close();
});

describe('secrets, config maps and connections as resources', () => {
  it('applies a Secret, a ConfigMap and a Connection that reads its password from the secret; nothing is stored in clear', async () => {
    const results = await apply(`
apiVersion: v1
kind: Secret
metadata: {name: web-auth}
type: Opaque
data:
  password: ${Buffer.from(PASSWORD).toString('base64')}
stringData:
  token: ${TOKEN}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: web-config}
data:
  user: web
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: web}
spec:
  http:
    url: ${peerUrl}/private
    username:
      valueFrom: {configMapKeyRef: {name: web-config, key: user}}
    password:
      valueFrom: {secretKeyRef: {name: web-auth, key: password}}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: inline}
spec:
  type: postgres
  url: postgres://127.0.0.1:5432/postgres
  username: postgres
  password: ${PASSWORD}
`);
    expect(results.map((r) => r.errors)).toEqual([[], [], [], []]);
    const dump = await t.db.pool.query("SELECT (SELECT json_agg(c) FROM connections c)::text || (SELECT json_agg(s) FROM secrets s)::text AS text");
    const text = String(dump.rows[0]?.text);
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(Buffer.from(PASSWORD).toString('base64'));
    expect(text).toContain('secret://web-auth/password');
    expect(text).toContain('configmap://web-config/user');
  });

  it('answers connections to admins with secrets masked and references as written; editors are refused', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/db/connections?select=name,type,url,username,password&order=name', headers: t.adminHeaders });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual([
      { name: 'inline', type: 'postgres', url: 'postgres://127.0.0.1:5432/postgres', username: 'postgres', password: '******' },
      { name: 'web', type: 'http', url: `${peerUrl}/private`, username: 'configmap://web-config/user', password: 'secret://web-auth/password' },
    ]);
    const secrets = await t.app.inject({ method: 'GET', url: '/api/db/secrets?select=name,keys', headers: t.adminHeaders });
    expect(secrets.json()).toEqual([{ name: 'web-auth', keys: ['password', 'token'] }]);
    const editor = await t.userWith(['editor']);
    for (const url of ['/api/db/connections', '/api/db/secrets', '/api/db/config_maps']) {
      expect((await t.app.inject({ method: 'GET', url, headers: editor.headers })).statusCode).toBe(403);
    }
    const post = await t.app.inject({ method: 'POST', url: '/api/connections', headers: editor.headers, payload: { name: 'x', type: 'http', url: peerUrl, username: 'a', password: 'b' } });
    expect(post.statusCode).toBe(403);
  });

  it('refuses bad input with the field named and writes nothing', async () => {
    const count = async () => Number((await t.db.pool.query('SELECT count(*) FROM connections')).rows[0]?.count);
    const before = await count();
    const unknown = await t.app.inject({ method: 'POST', url: '/api/connections', headers: t.adminHeaders, payload: { name: 'x', type: 'carrier-pigeon' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details).toEqual([expect.objectContaining({ path: 'body.type', message: expect.stringContaining('"carrier-pigeon" is not a known connection type') })]);
    const missing = await t.app.inject({ method: 'POST', url: '/api/connections', headers: t.adminHeaders, payload: { name: 'mail', type: 'email', properties: { host: 'smtp.example.com' } } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details.map((d: { path: string }) => d.path).sort()).toEqual(['body.properties.fromAddress', 'body.properties.fromName']);
    const badRef = await t.app.inject({ method: 'POST', url: '/api/connections', headers: t.adminHeaders, payload: { name: 'r', type: 'slack', properties: { channel: 'C1' }, password: { valueFrom: { secretKeyRef: { name: 'x' } } } } });
    expect(badRef.statusCode).toBe(400);
    expect(badRef.json().message).toContain('secretKeyRef.key is required');
    const missingSecret = await t.app.inject({ method: 'POST', url: '/api/connections', headers: t.adminHeaders, payload: { name: 's', type: 'slack', properties: { channel: 'C1' }, password: 'secret://absent/token' } });
    expect(missingSecret.statusCode).toBe(400);
    expect(missingSecret.json().details).toEqual([{ path: 'body.password', message: 'secret "absent" not found in namespace "default"' }]);
    const missingKey = await t.app.inject({ method: 'POST', url: '/api/connections', headers: t.adminHeaders, payload: { name: 's', type: 'slack', properties: { channel: 'C1' }, password: { valueFrom: { secretKeyRef: { name: 'web-auth', key: 'nope' } } } } });
    expect(missingKey.json().details).toEqual([{ path: 'body.password', message: 'secret "web-auth" in namespace "default" has no key "nope" (its keys: password, token)' }]);
    expect(await count()).toBe(before);
  });

  it('refuses, with 403 naming it, a canary that uses a connection its author may neither use nor read (docs/SECURITY.md)', async () => {
    await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: prod-web, namespace: prod}
spec: {http: {url: ${peerUrl}/private}}
`);
    const editor = await t.userWith(['editor']);
    const canary = (namespace: string) => ({ name: `cross-${namespace}`, namespace, spec: { schedule: '@every 1h', http: [{ name: 'prod page', connection: 'connection://prod/prod-web' }] } });
    const refused = await t.app.inject({ method: 'POST', url: '/api/canary/canaries', headers: editor.headers, payload: canary('default') });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('spec.http[0].connection: needs the capability "connection_use"');
    expect((await t.db.pool.query("SELECT 1 FROM canaries WHERE name = 'cross-default'")).rowCount).toBe(0);
    // Issue 35: the same namespace is no exception (an editor could send the connection's credentials anywhere); an admin uses any.
    expect((await t.app.inject({ method: 'POST', url: '/api/canary/canaries', headers: editor.headers, payload: canary('prod') })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/canary/canaries', headers: t.adminHeaders, payload: { ...canary('default'), name: 'cross-admin' } })).statusCode).toBe(201);
    // A permission row on that connection lets the editor use it.
    const connection = (await t.db.pool.query<{ id: string }>("SELECT id FROM connections WHERE name = 'prod-web'")).rows[0]?.id;
    await t.db.pool.query("INSERT INTO permissions (action, subject, subject_type, connection_id) VALUES ('read', $1, 'person', $2)", [editor.id, connection]);
    const allowed = await t.app.inject({ method: 'POST', url: '/api/canary/canaries', headers: editor.headers, payload: canary('default') });
    expect(allowed.statusCode, allowed.body).toBe(201);
    const summary = await t.app.inject({ method: 'GET', url: `/api/db/permissions_summary?select=connection_object&connection_id=eq.${connection}`, headers: t.adminHeaders });
    expect(summary.json()).toEqual([{ connection_object: { id: connection, name: 'prod-web', namespace: 'prod', type: 'http' } }]);
  });

  it('creates, tests, changes and deletes a connection through the API; a masked field keeps its secret', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/connections', headers: t.adminHeaders, payload: { name: 'api-web', type: 'http', url: `${peerUrl}/x`, username: 'web', password: PASSWORD } });
    expect(created.statusCode).toBe(201);
    const row = created.json();
    expect(row).toMatchObject({ name: 'api-web', namespace: 'default', password: '******' });
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
    const tested = await t.app.inject({ method: 'POST', url: `/api/connection/test/${row.id}`, headers: t.adminHeaders });
    expect(tested.statusCode).toBe(200);
    expect(tested.json()).toMatchObject({ ok: true, tested: true });
    const patched = await t.app.inject({ method: 'PATCH', url: `/api/connections/${row.id}`, headers: t.adminHeaders, payload: { url: `${peerUrl}/y`, password: '******' } });
    expect(patched.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `/api/connection/test/${row.id}`, headers: t.adminHeaders })).json()).toMatchObject({ ok: true });
    await t.app.inject({ method: 'PATCH', url: `/api/connections/${row.id}`, headers: t.adminHeaders, payload: { password: 'wrong-password' } });
    const failed = (await t.app.inject({ method: 'POST', url: `/api/connection/test/${row.id}`, headers: t.adminHeaders })).json();
    expect(failed.ok).toBe(false);
    expect(failed.message).not.toContain('wrong-password');
    const email = await t.app.inject({ method: 'POST', url: '/api/connections', headers: t.adminHeaders, payload: { name: 'mail', type: 'email', properties: { host: 'smtp.example.com', fromAddress: 'a@example.com', fromName: 'A' } } });
    expect(email.json().properties).toMatchObject({ port: '587', encryption: 'Auto' });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/connections/${row.id}`, headers: t.adminHeaders })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'POST', url: `/api/connection/test/${row.id}`, headers: t.adminHeaders })).statusCode).toBe(404);
  });
});

describe('checks read secrets and connections when they run', () => {
  it('an http check through a connection whose credentials come from a secret and a config map passes; the secret is in no result', async () => {
    const results = await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: via-connection}
spec:
  schedule: "@every 1h"
  http:
    - name: private page
      connection: connection://default/web
      headers:
        - name: X-Token
          valueFrom: {secretKeyRef: {name: web-auth, key: token}}
`);
    expect(results[0]?.errors).toEqual([]);
    expect(results[0]?.outcome?.warnings ?? []).toEqual([]);
    const [result] = await run('via-connection');
    expect(result).toMatchObject({ pass: true });
    expect(seen.at(-1)).toMatchObject({ url: '/private', token: TOKEN });
    expect(JSON.stringify(result)).not.toContain(PASSWORD);
  });

  it('a missing secret, key or connection fails the check naming it, never an empty value', async () => {
    await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: missing-refs}
spec:
  schedule: "@every 1h"
  env:
    API_KEY: {valueFrom: {secretKeyRef: {name: web-auth, key: nope}}}
  http:
    - name: env
      url: ${peerUrl}/
---
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: missing-secret}
spec:
  schedule: "@every 1h"
  http:
    - name: no secret
      url: ${peerUrl}/
      password: {valueFrom: {secretKeyRef: {name: absent, key: password}}}
    - name: no connection
      connection: connection://default/absent
`);
    const [env] = await run('missing-refs');
    expect(env?.pass).toBe(false);
    expect(env?.message).toContain('spec.env.API_KEY: valueFrom.secretKeyRef (name "web-auth", key "nope"): secret "web-auth" in namespace "default" has no key "nope" (its keys: password, token)');
    const results = await run('missing-secret');
    const byMessage = results.map((r) => r.message).sort();
    expect(byMessage[0]).toContain('connection "default/absent" not found');
    expect(byMessage[1]).toContain('secret "absent" not found in namespace "default"');
  });

  it('a changed secret is read by the next run (the cache follows the change)', async () => {
    await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: cached}
spec:
  schedule: "@every 1h"
  http:
    - name: through connection
      connection: connection://default/web
`);
    expect((await run('cached'))[0]?.pass).toBe(true);
    const secret = (password: string) => `
apiVersion: v1
kind: Secret
metadata: {name: web-auth}
stringData: {password: ${password}, token: ${TOKEN}}
`;
    expect((await apply(secret('changed')))[0]?.outcome?.action).toBe('updated');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [after] = await run('cached');
    expect(after?.pass).toBe(false);
    expect(after?.message).toContain('401');
    await apply(secret(PASSWORD));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await run('cached'))[0]?.pass).toBe(true);
  });

  it('a postgres check reads its connection (url, user and password) from a stored connection', async () => {
    await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: pg-via-connection}
spec:
  schedule: "@every 1h"
  postgres:
    - name: local postgres
      connection: connection://default/inline
      query: SELECT 1 AS one
`);
    const [result] = await run('pg-via-connection');
    expect(result).toMatchObject({ pass: true });
  });
});

describe('service accounts', () => {
  it('issues a read-only token for a named account (valueFrom.serviceAccount) and reuses it; an unknown account fails naming it', async () => {
    const base = await t.listen();
    await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: service-account}
spec:
  schedule: "@every 1h"
  http:
    - name: console api as the account
      url: ${base}/api/db/canaries?select=name&limit=1
      username: token
      password: {valueFrom: {serviceAccount: test-admin@example.com}}
    - name: unknown account
      url: ${base}/api/db/canaries?limit=1
      username: token
      password: {valueFrom: {serviceAccount: nobody@example.com}}
`);
    const byName = async () => Object.fromEntries((await runCanary({ pool: t.db.pool, log }, await canaryId('service-account'), new AbortController().signal)).map((r) => [r.check.name, r.outcome.result]));
    const first = await byName();
    expect(first['console api as the account']).toMatchObject({ pass: true });
    expect(first['unknown account']?.message).toContain('no account "nobody@example.com" to issue a token for');
    await byName();
    const tokens = await t.db.pool.query("SELECT scopes FROM access_tokens WHERE name = 'service account (valueFrom.serviceAccount)'");
    expect(tokens.rowCount).toBe(1);
    expect(JSON.stringify(tokens.rows[0]?.scopes)).not.toContain('create');
  });
});

describe('topology lookups read connections', () => {
  it('looks components up from SQL through a stored connection', async () => {
    const results = await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Topology
metadata: {name: via-connection}
spec:
  schedule: "@every 1h"
  components:
    - name: databases
      type: Group
      lookup:
        sql:
          - connection: connection://default/inline
            query: SELECT 'alpha' AS name UNION ALL SELECT 'beta'
        display:
          expr: "results.map(r, {'name': r.name, 'type': 'Database'}).toJSON()"
`);
    expect(results[0]?.errors).toEqual([]);
    const { runTopology } = await import('../../topology');
    const summary = await runTopology(t.db.pool, results[0]?.outcome?.id ?? '', { log });
    expect(summary.errors).toEqual([]);
    const { rows } = await t.db.pool.query<{ name: string }>("SELECT name FROM components WHERE type = 'Database' AND deleted_at IS NULL ORDER BY name");
    expect(rows.map((row) => row.name)).toEqual(['alpha', 'beta']);
  });
});

describe('secrets rotate', () => {
  it('re-encrypts every value under a new key; the old key can then be retired', async () => {
    const before = (await t.db.pool.query<{ password: string }>("SELECT password FROM connections WHERE name = 'inline'")).rows[0]?.password ?? '';
    const oldId = Keyring.keyIdOf(before);
    // The test's keyring holds the process key; the rotation keyring holds a new one first and reads old values with it.
    const current = processKeyring();
    const rotation = new Keyring([randomBytes(32)]);
    Object.assign(rotation, { decrypt: (value: string) => (Keyring.keyIdOf(value) === rotation.activeId ? Keyring.prototype.decrypt.call(rotation, value) : current.decrypt(value)) });
    const result = await rotateSecrets(t.db.pool, '/nonexistent', { keyring: rotation });
    expect(result.reencrypted).toBeGreaterThanOrEqual(3);
    expect(result.remaining).toBe(0);
    const after = (await t.db.pool.query<{ password: string }>("SELECT password FROM connections WHERE name = 'inline'")).rows[0]?.password ?? '';
    expect(Keyring.keyIdOf(after)).toBe(rotation.activeId);
    expect(Keyring.keyIdOf(after)).not.toBe(oldId);
    expect(rotation.decrypt(after)).toBe(PASSWORD);
  });
});
