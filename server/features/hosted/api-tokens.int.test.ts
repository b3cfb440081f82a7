import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presetScopes } from '../../../common/rbac';
import { createTestApp, type TestApp } from '../../../test/app';
import type { ServeProcess } from '../../../test/cli';
import { tokenCreate } from '../identity/testing/cli';
import type { TestIssuer } from '../identity/oidc/testing/issuer';
import { addOrganization, startFront, chooseOrganization, signInAtFront, startBackend } from './testing/hosted';

/**
 * docs/HOSTED.md "API tokens in hosted mode": a token works in the organization it was made for, and the
 * front forwards its requests to that organization's backend like a session's. One front in oidc mode, two
 * real `serve --auth trusted-front` backends.
 */

let issuer: TestIssuer;
let front: TestApp;
let frontUrl: string;
let orgA: string;
let orgB: string;
let orgDirect: string;
let orgLocal: string;
let backendA: ServeProcess & { dataDir: string; port: number };
let backendB: ServeProcess & { dataDir: string; port: number };
let alice: string;

beforeAll(async () => {
  ({ issuer, front, frontUrl } = await startFront());
  const pool = front.db.pool;
  orgA = await addOrganization(pool, 'tok_a', null);
  orgB = await addOrganization(pool, 'tok_b', null);
  // Backend B accepts any organization of this front (no --trusted-audience): it serves tok_b and tok_direct.
  [backendA, backendB] = await Promise.all([startBackend(frontUrl, orgA), startBackend(frontUrl, undefined)]);
  await addOrganization(pool, 'tok_a', backendA.url);
  await addOrganization(pool, 'tok_b', backendB.url);
  orgDirect = await addOrganization(pool, 'tok_direct', backendB.url, true);
  orgLocal = await addOrganization(pool, 'tok_local', null);
  issuer.accounts.set('alice', { email: 'alice@example.com', email_verified: true, given_name: 'Alice', family_name: 'Ops', organizations: ['tok_a', 'tok_b', 'tok_direct', 'tok_local'] });
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
const bearer = (token: string) => ({ authorization: `Bearer ${token}`, accept: 'application/json' });

async function makeToken(sessionToken: string, name: string, scope = presetScopes('Admin')): Promise<string> {
  const res = await fetch(`${frontUrl}/api/auth/create_token`, {
    method: 'POST',
    headers: { ...session(sessionToken), 'content-type': 'application/json' },
    body: JSON.stringify({ name, scope }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { payload: { token: string } };
  return body.payload.token;
}

async function writeProperty(token: string, name: string): Promise<Response> {
  return fetch(`${frontUrl}/api/db/properties`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json', prefer: 'return=representation' },
    body: JSON.stringify({ name, value: 'through-a-token' }),
  });
}

async function readProperty(token: string, name: string): Promise<unknown> {
  const res = await fetch(`${frontUrl}/api/db/properties?name=eq.${name}&select=name`, { headers: bearer(token) });
  expect(res.status).toBe(200);
  return res.json();
}

describe('an API token made in an organization’s session', () => {
  it('works in that organization: whoami names it, the token list shows it, and its requests reach that backend, not another', async () => {
    const listed = async (name: string) => {
      const res = await fetch(`${frontUrl}/api/auth/tokens`, { headers: session(alice) });
      expect(res.status).toBe(200);
      return ((await res.json()) as Array<{ name: string; organization: { id: string; name: string } | null }>).find((token) => token.name === name);
    };
    await chooseOrganization(front.db.pool, alice, orgA, 'admin');
    const tokenA = await makeToken(alice, 'kubectl in A');
    expect((await listed('kubectl in A'))?.organization).toEqual({ id: orgA, name: 'tok_a' });
    await chooseOrganization(front.db.pool, alice, orgB, 'admin');
    const tokenB = await makeToken(alice, 'kubectl in B');
    expect((await listed('kubectl in B'))?.organization).toEqual({ id: orgB, name: 'tok_b' });

    const me = (await (await fetch(`${frontUrl}/api/auth/whoami`, { headers: bearer(tokenA) })).json()) as { organization: { id: string; name: string } | null };
    expect(me.organization).toMatchObject({ id: orgA, name: 'tok_a' });

    const name = `hosted.token.${Date.now()}`;
    const created = await writeProperty(tokenA, name);
    expect(created.status).toBe(201);
    // Stored at backend A: not in the front's database, not at backend B.
    expect((await front.db.pool.query('SELECT 1 FROM properties WHERE name = $1', [name])).rowCount).toBe(0);
    expect(await readProperty(tokenA, name)).toEqual([{ name }]);
    expect(await readProperty(tokenB, name)).toEqual([]);
  });

  it('is forwarded for a direct organization too: a token client cannot follow the browser’s direct route', async () => {
    await chooseOrganization(front.db.pool, alice, orgDirect, 'admin');
    const token = await makeToken(alice, 'mcp in direct');
    const name = `hosted.direct.${Date.now()}`;
    // Backend B serves the direct organization; without the forward the front would refuse (alice is a viewer here).
    expect((await writeProperty(token, name)).status).toBe(201);
    expect((await front.db.pool.query('SELECT 1 FROM properties WHERE name = $1', [name])).rowCount).toBe(0);
  });

  it('keeps its scopes: a read-only token may not write through the proxy', async () => {
    await chooseOrganization(front.db.pool, alice, orgA, 'admin');
    const token = await makeToken(alice, 'read only', presetScopes('Read'));
    const res = await writeProperty(token, `hosted.read.${Date.now()}`);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toMatch(/cannot apply this API token's scopes there: use a token with every scope/);
  });

  it('is refused with organization_required once its owner left the organization', async () => {
    await chooseOrganization(front.db.pool, alice, orgLocal);
    const token = await makeToken(alice, 'leaving');
    expect((await fetch(`${frontUrl}/api/db/properties?limit=1`, { headers: bearer(token) })).status).toBe(200);
    await front.db.pool.query('DELETE FROM organization_members WHERE organization_id = $1', [orgLocal]);
    const res = await fetch(`${frontUrl}/api/db/properties?limit=1`, { headers: bearer(token) });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { message: string; details: { id: string } };
    expect(body.details.id).toBe('organization_required');
    expect(body.message).toMatch(/this API token works in no organization of yours/);
    // whoami stays open, and names no organization.
    const me = (await (await fetch(`${frontUrl}/api/auth/whoami`, { headers: bearer(token) })).json()) as { organization: unknown };
    expect(me.organization).toBeNull();
  });
});

describe('watchkeeper token create in oidc mode', () => {
  it('makes a token without an organization (refused) or for --organization ORG (by name), a member’s only', async () => {
    const none = await tokenCreate(front.db.pool, { user: 'alice@example.com', name: 'cli none', scopes: [] });
    const res = await fetch(`${frontUrl}/api/db/properties?limit=1`, { headers: bearer(none.token) });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { details: { id: string } }).details.id).toBe('organization_required');

    const inB = await tokenCreate(front.db.pool, { user: 'alice@example.com', name: 'cli b', scopes: [], organization: 'TOK_B' });
    const name = `hosted.cli.${Date.now()}`;
    expect((await writeProperty(inB.token, name)).status).toBe(201);
    expect((await front.db.pool.query('SELECT 1 FROM properties WHERE name = $1', [name])).rowCount).toBe(0);

    await expect(tokenCreate(front.db.pool, { user: 'alice@example.com', name: 'cli x', scopes: [], organization: 'tok_local' })).rejects.toThrow(
      '--organization tok_local: alice@example.com is not a member of tok_local',
    );
    await expect(tokenCreate(front.db.pool, { user: 'alice@example.com', name: 'cli x', scopes: [], organization: 'nowhere' })).rejects.toThrow(/--organization nowhere: no organization/);
  });
});

describe('builtin mode', () => {
  it('is unchanged: a token has no organization, whoami names none, and it reaches what its scopes allow', async () => {
    const t = await createTestApp();
    try {
      const made = await t.app.inject({ method: 'POST', url: '/api/auth/create_token', headers: t.adminHeaders, payload: { name: 'builtin', scope: presetScopes('Admin') } });
      expect(made.statusCode).toBe(200);
      const token = made.json<{ payload: { id: string; token: string } }>().payload;
      const headers = { authorization: `Bearer ${token.token}` };
      expect((await t.app.inject({ method: 'GET', url: '/api/db/properties?limit=1', headers })).statusCode).toBe(200);
      const me = await t.app.inject({ method: 'GET', url: '/api/auth/whoami', headers });
      expect(me.statusCode).toBe(200);
      expect(me.json()).not.toHaveProperty('organization');
      const list = (await t.app.inject({ method: 'GET', url: '/api/auth/tokens', headers: t.adminHeaders })).json<Array<{ id: string; organization: unknown }>>();
      expect(list.find((row) => row.id === token.id)?.organization).toBeNull();
      const stored = await t.db.pool.query<{ organization_id: string | null }>('SELECT organization_id FROM access_tokens WHERE id = $1', [token.id]);
      expect(stored.rows[0]?.organization_id).toBeNull();
    } finally {
      await t.close();
    }
  });
});
