import { Configuration, FrontendApi, ResponseError } from '@ory/client-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { json } from '../../../../test/http-client';
import { sha256 } from '../../../platform/crypto';
import { createIdentity } from '../identities';
import { hashPassword } from '../passwords';

/** API tokens (create, use, limit, revoke) and abuse: throttled guessing, and secrets that never leak. */
let t: TestApp;
let base: string;
const logs: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ logs });
  base = await t.listen();
  await createIdentity(t.db.pool, { traits: { email: 'victim@example.com', name: { first: 'Vic', last: 'Tim' } }, passwordHash: await hashPassword('the real password, long'), roles: ['viewer'] });
});

afterAll(async () => {
  await t?.close();
});

async function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? (JSON.parse(text) as unknown) : undefined };
}

describe('API tokens', () => {
  let token = '';
  let tokenId = '';
  const everyAnswer: string[] = [];

  it('creates a token for the signed-in person; the answer holds it once (payload.token)', async () => {
    const refused = await call('/api/auth/create_token', { method: 'POST', headers: t.adminHeaders, body: { name: '   ', scope: [] } });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Name is required');
    const created = await call('/api/auth/create_token', {
      method: 'POST',
      headers: t.adminHeaders,
      body: { name: 'ci reader', expiry: 'never', scope: [{ subject: '', object: 'canaries', action: 'read' }, { subject: '', object: 'catalog', action: 'read' }, { subject: '', object: 'application', action: 'read' }, { subject: '', object: 'playbooks', action: 'read' }, { subject: '', object: 'notification', action: 'read' }] },
    });
    expect(created.status).toBe(200);
    everyAnswer.push(created.text);
    const payload = (created.body as { payload: { token: string; id: string } }).payload;
    token = payload.token;
    tokenId = payload.id;
    expect(token).toMatch(/^wk_at_/);
    const { rows } = await t.db.pool.query<{ hash: string }>('SELECT hash FROM access_tokens WHERE id = $1', [tokenId]);
    expect(rows[0]?.hash).toBe(sha256(token));
  });

  it('authenticates with Bearer and with Basic (user "token"), within its scopes and its owner', async () => {
    const bearer = await call('/api/auth/whoami', { headers: { authorization: `Bearer ${token}` } });
    expect(bearer.status).toBe(200);
    everyAnswer.push(bearer.text);
    expect((bearer.body as { roles: string[] }).roles).toEqual(['admin']);
    const basic = await call('/api/db/job_history?limit=1', { headers: { authorization: `Basic ${Buffer.from(`token:${token}`).toString('base64')}` } });
    expect(basic.status).toBe(200);
    // Read everywhere, but no write: the owner is an admin, the token only reads.
    const write = await call('/api/db/properties', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: { name: 'x.disable', value: 'true' } });
    expect(write.status).toBe(403);
    // A token cannot mint tokens (its limits would not bind the new one).
    const mint = await call('/api/auth/create_token', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: { name: 'child', scope: [{ object: 'mcp', action: '*' }] } });
    expect(mint.status).toBe(403);
    const list = await call('/api/auth/tokens', { headers: t.adminHeaders });
    everyAnswer.push(list.text);
    expect(list.text).toContain('ci reader');
  });

  it('stops working once revoked or expired, and when its owner is deactivated', async () => {
    const viewer = await t.userWith(['viewer']);
    const own = await call('/api/auth/create_token', { method: 'POST', headers: viewer.headers, body: { name: 'mine', expiry: '30d', scope: [{ object: 'canaries', action: 'read' }] } });
    const ownToken = (own.body as { payload: { token: string; id: string } }).payload;
    // Someone else's token cannot be revoked by a non-admin.
    expect((await call(`/api/auth/token/${tokenId}`, { method: 'DELETE', headers: viewer.headers })).status).toBe(404);
    expect((await call('/api/auth/whoami', { headers: { authorization: `Bearer ${ownToken.token}` } })).status).toBe(200);
    await call('/api/people/update', { method: 'POST', headers: t.adminHeaders, body: { id: viewer.id, state: 'inactive' } });
    expect((await call('/api/auth/whoami', { headers: { authorization: `Bearer ${ownToken.token}` } })).status).toBe(401);

    await t.db.pool.query("UPDATE access_tokens SET expires_at = now() - interval '1 second' WHERE id = $1", [tokenId]);
    expect((await call('/api/auth/whoami', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    await t.db.pool.query('UPDATE access_tokens SET expires_at = NULL WHERE id = $1', [tokenId]);
    expect((await call(`/api/auth/token/${tokenId}`, { method: 'DELETE', headers: t.adminHeaders })).status).toBe(200);
    expect((await call('/api/auth/whoami', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  it("never shows a token's hash in an answer or a log line, nor the token itself in a log line", async () => {
    const { rows } = await t.db.pool.query<{ hash: string }>('SELECT hash FROM access_tokens');
    expect(rows.length).toBeGreaterThan(0);
    const everything = [...everyAnswer, ...logs].join('\n');
    for (const row of rows) expect(everything).not.toContain(row.hash);
    expect(logs.join('\n')).not.toContain(token);
    expect(logs.some((line) => line.includes('API token created'))).toBe(true);
  });
});

describe('abuse', () => {
  it('throttles 50 wrong passwords: after 10 for one account it answers 429, and the right password waits too', async () => {
    const api = new FrontendApi(new Configuration({ basePath: `${base}/api/.ory` }));
    const statuses: number[] = [];
    for (let i = 0; i < 50; i += 1) {
      const flow = await api.createNativeLoginFlow();
      try {
        await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'password', identifier: 'victim@example.com', password: `guess number ${i}` } });
        statuses.push(200);
      } catch (error) {
        if (!(error instanceof ResponseError)) throw error;
        statuses.push(error.response.status);
        if (error.response.status === 429) expect(JSON.stringify(await json(error.response))).toContain('Too many attempts');
      }
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses.slice(10)).toEqual(Array(40).fill(429));
    const flow = await api.createNativeLoginFlow();
    await expect(api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'password', identifier: 'victim@example.com', password: 'the real password, long' } })).rejects.toThrow();
  });

  it('throttles one address guessing across many accounts', async () => {
    const api = new FrontendApi(new Configuration({ basePath: `${base}/api/.ory` }));
    await t.db.pool.query('DELETE FROM auth_rate_limits');
    let limited = 0;
    for (let i = 0; i < 55; i += 1) {
      const flow = await api.createNativeLoginFlow();
      try {
        await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'password', identifier: `someone${i}@example.com`, password: 'whatever it is' } });
      } catch (error) {
        if (error instanceof ResponseError && error.response.status === 429) limited += 1;
      }
    }
    expect(limited).toBe(5);
  });
});
