import fs from 'node:fs/promises';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app';
import type { ServeProcess } from '../../../test/cli';
import { freePort } from '../../platform/db/embedded';
import type { TestIssuer } from '../identity/oidc/testing/issuer';
import { addOrganization, startFront, chooseOrganization, signInAtFront, startBackend } from './testing/hosted';

/**
 * Issue 25 as it runs: one front in oidc mode (a real oidc-provider issuer) and two organization backends,
 * each a real `watchkeeper serve --auth trusted-front` on its own database.
 */

let issuer: TestIssuer;
let front: TestApp;
let frontUrl: string;
let orgA: string;
let orgB: string;
let orgDirect: string;
let backendA: ServeProcess & { dataDir: string; port: number };
let backendB: ServeProcess & { dataDir: string; port: number };
let alice: string;

beforeAll(async () => {
  ({ issuer, front, frontUrl } = await startFront());
  const pool = front.db.pool;
  orgA = await addOrganization(pool, 'org_a', null);
  orgB = await addOrganization(pool, 'org_b', null);
  [backendA, backendB] = await Promise.all([startBackend(frontUrl, orgA), startBackend(frontUrl, orgB)]);
  await addOrganization(pool, 'org_a', backendA.url);
  await addOrganization(pool, 'org_b', backendB.url);
  orgDirect = await addOrganization(pool, 'org_direct', backendB.url, true);
  issuer.accounts.set('alice', { email: 'alice@example.com', email_verified: true, given_name: 'Alice', family_name: 'Ops', organizations: ['org_a', 'org_b', 'org_direct'] });
  alice = await signInAtFront(frontUrl, 'alice');
}, 180_000);

afterAll(async () => {
  for (const backend of [backendA, backendB]) {
    await backend?.stop().catch(() => undefined);
    if (backend) await fs.rm(backend.dataDir, { recursive: true, force: true });
  }
  await front?.close();
  await issuer?.close();
});

const session = (token: string) => ({ cookie: `watchkeeper_session=${token}`, accept: 'application/json' });

async function organizationToken(sessionToken: string): Promise<{ status: number; body: { token?: string; message?: string; organization?: { id: string; direct: boolean; backend_url: string | null } } }> {
  const res = await fetch(`${frontUrl}/api/auth/organization-token`, { headers: session(sessionToken) });
  return { status: res.status, body: (await res.json()) as { token?: string; message?: string } };
}

describe('the front’s tokens for organization backends', () => {
  it('publishes its ES256 public keys and refuses a token while no organization is chosen', async () => {
    const jwks = (await (await fetch(`${frontUrl}/api/auth/jwks`)).json()) as { keys: Array<Record<string, string>> };
    expect(jwks.keys.length).toBeGreaterThan(0);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const none = await organizationToken(alice);
    expect(none.status).toBe(403);
    expect(none.body.message).toMatch(/choose an organization first/);
    expect((await fetch(`${frontUrl}/api/auth/organization-token`)).status).toBe(401);
  });

  it('signs a 5-minute token for the session’s organization: iss the front, aud the organization, the person and their role there', async () => {
    await chooseOrganization(front.db.pool, alice, orgA, 'admin');
    const { status, body } = await organizationToken(alice);
    expect(status).toBe(200);
    const claims = decodeJwt(body.token ?? '');
    expect(decodeProtectedHeader(body.token ?? '')).toMatchObject({ alg: 'ES256' });
    expect(claims).toMatchObject({ iss: frontUrl, aud: orgA, email: 'alice@example.com', name: 'Alice Ops', roles: ['admin'] });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(300);
    expect(body.organization).toMatchObject({ id: orgA, backend_url: backendA.url, direct: false });
  });
});

describe('a backend started with --auth trusted-front', () => {
  it('signs the token’s person in (created here, with the token’s roles), and refuses it at another organization’s backend', async () => {
    await chooseOrganization(front.db.pool, alice, orgA, 'admin');
    const { body } = await organizationToken(alice);
    const bearer = { authorization: `Bearer ${body.token ?? ''}` };
    const me = await fetch(`${backendA.url}/api/auth/whoami`, { headers: bearer });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ user: { email: 'alice@example.com', name: 'Alice Ops' }, roles: ['admin'] });
    const other = await fetch(`${backendB.url}/api/auth/whoami`, { headers: bearer });
    expect(other.status).toBe(401);
    expect(((await other.json()) as { message: string }).message).toBe(`the token is meant for organization ${orgA}, not for this backend's (${orgB})`);
  });

  it('refuses anything else with a clear 401: no credential, a session cookie, a stranger’s signature, another issuer, an expired token', async () => {
    const bare = await fetch(`${backendA.url}/api/db/properties`);
    expect(bare.status).toBe(401);
    expect(((await bare.json()) as { message: string }).message).toMatch(/organization backend: send Authorization: Bearer/);
    expect((await fetch(`${backendA.url}/api/db/properties`, { headers: { cookie: 'watchkeeper_session=wk_st_nothing' } })).status).toBe(401);

    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const kid = (await exportJWK(publicKey)).x ?? 'stranger';
    const forge = (issuerUrl: string, exp: number) =>
      new SignJWT({ email: 'mallory@example.com', roles: ['admin'] }).setProtectedHeader({ alg: 'ES256', kid }).setIssuer(issuerUrl).setAudience(orgA).setSubject('mallory').setIssuedAt().setExpirationTime(exp).sign(privateKey);
    const now = Math.floor(Date.now() / 1000);
    const cases: Array<[string, RegExp]> = [
      [await forge(frontUrl, now + 300), /signature does not verify with the trusted front's keys/],
      [await forge('https://evil.example.com', now + 300), /issued by https:\/\/evil.example.com, not by the trusted front|signature/],
    ];
    for (const [token, message] of cases) {
      const res = await fetch(`${backendA.url}/api/auth/whoami`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { message: string }).message).toMatch(message);
    }
    // Expired, signed by the front's own key: the front's keys sign it through a token minted an hour ago.
    const { FrontKeys } = await import('./keys');
    const old = Date.now;
    Date.now = () => old() - 3600_000;
    const expired = await new FrontKeys(front.db.pool).sign(frontUrl, orgA, { personId: 'x', email: 'alice@example.com', name: 'Alice', roles: ['admin'] }).finally(() => {
      Date.now = old;
    });
    const late = await fetch(`${backendA.url}/api/auth/whoami`, { headers: { authorization: `Bearer ${expired.token}` } });
    expect(late.status).toBe(401);
    expect(((await late.json()) as { message: string }).message).toBe("the front's token has expired: ask the front for a new one");
  });
});

describe('the front’s proxy', () => {
  it('forwards /api/* to the organization’s backend with the bearer token: status, body and headers both ways', async () => {
    await chooseOrganization(front.db.pool, alice, orgA, 'admin');
    const name = `hosted.proxy.${Date.now()}`;
    const created = await fetch(`${frontUrl}/api/db/properties`, {
      method: 'POST',
      headers: { ...session(alice), 'content-type': 'application/json', prefer: 'return=representation' },
      body: JSON.stringify({ name, value: 'from-the-front' }),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual([expect.objectContaining({ name, value: 'from-the-front' })]);
    // Stored at backend A, not in the front's database.
    const front$ = await front.db.pool.query('SELECT 1 FROM properties WHERE name = $1', [name]);
    expect(front$.rowCount).toBe(0);
    const read = await fetch(`${frontUrl}/api/db/properties?name=eq.${name}&select=name,value`, { headers: { ...session(alice), prefer: 'count=exact' } });
    expect(read.status).toBe(200);
    expect(read.headers.get('content-range')).toBe('0-0/1');
    expect(await read.json()).toEqual([{ name, value: 'from-the-front' }]);
    // A backend's refusal passes through as it is.
    const missing = await fetch(`${frontUrl}/api/db/no_such_relation`, { headers: session(alice) });
    expect(missing.status).toBe(404);
    // The front's own routes stay the front's: whoami answers the front's person, with her role in the organization.
    const me = (await (await fetch(`${frontUrl}/api/auth/whoami`, { headers: session(alice) })).json()) as { user: { email: string }; roles: string[] };
    expect(me.roles).toEqual(['admin']);
  });

  it('keeps the organization’s data apart: org B’s backend has none of org A’s rows', async () => {
    await chooseOrganization(front.db.pool, alice, orgB, 'admin');
    const read = await fetch(`${frontUrl}/api/db/properties?name=like.hosted.proxy.*&select=name`, { headers: session(alice) });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual([]);
  });

  it('does not proxy a direct organization: the browser calls its backend itself', async () => {
    await chooseOrganization(front.db.pool, alice, orgDirect, 'admin');
    const { body } = await organizationToken(alice);
    expect(body.organization).toMatchObject({ id: orgDirect, direct: true, backend_url: backendB.url });
    // Not forwarded: the front answers with its own database, in the organization's scope (row-level security).
    const name = `hosted.direct.${Date.now()}`;
    const write = await fetch(`${frontUrl}/api/db/properties`, { method: 'POST', headers: { ...session(alice), 'content-type': 'application/json' }, body: JSON.stringify({ name, value: 'y' }) });
    expect(write.status).toBe(201);
    const stored = await front.db.pool.query<{ organization_id: string }>('SELECT organization_id FROM properties WHERE name = $1', [name]);
    expect(stored.rows).toEqual([{ organization_id: orgDirect }]);
  });

  it('answers 502 with a clear message while the backend is down', async () => {
    const down = await freePort();
    const orgDown = await addOrganization(front.db.pool, 'org_down', `http://127.0.0.1:${down}`);
    await chooseOrganization(front.db.pool, alice, orgDown, 'admin');
    const res = await fetch(`${frontUrl}/api/db/properties`, { headers: session(alice) });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: 'bad_gateway', message: `the organization's backend 127.0.0.1:${down} is not answering (connection refused); try again in a moment` });
  });
});

describe('the provisioning check (spec §1)', () => {
  const check = async () => {
    const res = await fetch(`${frontUrl}/api/auth/organization-backend`, { headers: session(alice) });
    return { status: res.status, body: (await res.json()) as { state: string; reason?: string } };
  };

  it('answers ready when the backend’s whoami answers (or there is none: this database), provisioning while it is down', async () => {
    await chooseOrganization(front.db.pool, alice, orgA, 'admin');
    expect(await check()).toMatchObject({ status: 200, body: { state: 'ready' } });
    // No backend URL: served by the front's own database, nothing to wait for.
    const orgNew = await addOrganization(front.db.pool, 'org_new', null);
    await chooseOrganization(front.db.pool, alice, orgNew);
    expect(await check()).toMatchObject({ status: 200, body: { state: 'ready' } });
    await addOrganization(front.db.pool, 'org_new', `http://127.0.0.1:${await freePort()}`);
    expect(await check()).toMatchObject({ status: 200, body: { state: 'provisioning', reason: 'the backend is not answering yet' } });
    // A backend for another organization refuses the token: an error, not provisioning.
    await addOrganization(front.db.pool, 'org_new', backendB.url);
    expect(await check()).toMatchObject({ status: 200, body: { state: 'error' } });
  });

  it('lets the front’s pages call a backend directly (CORS for the front’s origin only)', async () => {
    const preflight = await fetch(`${backendB.url}/api/db/properties`, { method: 'OPTIONS', headers: { origin: frontUrl, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(frontUrl);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    const stranger = await fetch(`${backendB.url}/api/auth/whoami`, { headers: { origin: 'https://evil.example.com' } });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
  });
});
