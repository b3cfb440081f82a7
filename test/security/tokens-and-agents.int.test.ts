import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presetScopes } from '../../common/rbac';
import { createTestApp, type TestApp } from '../app';

/**
 * Issue 35, finding 6 (agent token takeover) and the token item of finding 11 (a read-only token revokes
 * anyone's token): regressions that fail on the main of before the fix.
 */
let t: TestApp;

interface Generated {
  id: string;
  name: string;
  access_token: string;
  rotated: boolean;
  previousTokenValidUntil: string | null;
  previousTokenGraceSeconds: number;
}

const generate = (payload: Record<string, unknown>, headers: Record<string, string> = t.adminHeaders) => t.app.inject({ method: 'POST', url: '/api/agent/generate', headers, payload });
const push = (token: string, name: string) =>
  t.app.inject({ method: 'POST', url: '/api/agent/push', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: JSON.stringify({ agent: { name } }) });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A token of the signed-in person (headers of a session), with the scopes of a preset. */
async function tokenOf(headers: Record<string, string>, name: string, preset: 'Read' | 'Write' | 'Admin'): Promise<{ id: string; token: string }> {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/create_token', headers, payload: { name, scope: presetScopes(preset) } });
  expect(res.statusCode, res.body).toBe(200);
  const { payload } = res.json<{ payload: { id: string; token: string } }>();
  return payload;
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const revoke = (id: string, headers: Record<string, string>) => t.app.inject({ method: 'DELETE', url: `/api/auth/token/${id}`, headers });

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://console.example.com' } });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('finding 6: minting or rotating an agent token needs the capability agent_tokens', () => {
  it("an editor's generate for an existing agent is 403 naming the capability, and mints nothing", async () => {
    const made = await generate({ name: 'edge-victim' });
    expect(made.statusCode, made.body).toBe(200);
    const { access_token: original } = made.json<Generated>();
    const editor = await t.userWith(['editor']);
    const tokensBefore = (await t.db.pool.query("SELECT count(*)::int AS n FROM access_tokens WHERE name = 'agent-edge-victim'")).rows[0].n;

    const res = await generate({ name: 'edge-victim' }, editor.headers);
    expect(res.statusCode, res.body).toBe(403);
    const body = res.json<{ error: string; message: string; details: { error: string; capabilities: string[] } }>();
    expect(body.message).toContain('"agent_tokens"');
    expect(body.message).toContain('edge-victim');
    expect(body.details).toMatchObject({ error: 'capability_required', capabilities: ['agent_tokens'] });
    expect((await t.db.pool.query("SELECT count(*)::int AS n FROM access_tokens WHERE name = 'agent-edge-victim'")).rows[0].n).toBe(tokensBefore);
    // The agent's own token is untouched: no expiry was set on it.
    expect((await t.db.pool.query("SELECT expires_at FROM access_tokens WHERE name = 'agent-edge-victim' AND deleted_at IS NULL")).rows).toEqual([{ expires_at: null }]);
    expect((await push(original, 'edge-victim')).statusCode).toBe(200);
  });

  it('creating a brand-new agent (it mints a token) needs it too; a permission on agent_tokens grants it', async () => {
    const editor = await t.userWith(['editor']);
    const refused = await generate({ name: 'editor-new' }, editor.headers);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().details).toMatchObject({ error: 'capability_required', capabilities: ['agent_tokens'] });
    expect((await t.db.pool.query("SELECT count(*)::int AS n FROM agents WHERE name = 'editor-new'")).rows[0].n).toBe(0);

    const granted = await t.app.inject({
      method: 'POST',
      url: '/api/db/permissions',
      headers: { ...t.adminHeaders, prefer: 'return=representation' },
      payload: { subject: editor.id, subject_type: 'person', object: 'agent_tokens', action: '*' },
    });
    expect(granted.statusCode, granted.body).toBe(201);
    const whoami = await t.app.inject({ method: 'GET', url: '/api/auth/whoami', headers: editor.headers });
    expect(JSON.stringify(whoami.json())).toContain('agent_tokens');
    const allowed = await generate({ name: 'editor-new' }, editor.headers);
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.json<Generated>()).toMatchObject({ rotated: false, previousTokenValidUntil: null });
  });

  it("an admin's rotation answers the grace period, and the old token is refused after it", async () => {
    const first = (await generate({ name: 'edge-rotated' })).json<Generated>();
    const before = Date.now();
    const res = await generate({ name: 'edge-rotated', previousTokenGraceSeconds: 1 });
    expect(res.statusCode, res.body).toBe(200);
    const second = res.json<Generated>();
    expect(second).toMatchObject({ id: first.id, rotated: true, previousTokenGraceSeconds: 1 });
    const until = Date.parse(second.previousTokenValidUntil ?? '');
    expect(until).toBeGreaterThan(before);
    expect(until).toBeLessThan(Date.now() + 2_000);
    // Within the grace both tokens push.
    expect((await push(first.access_token, 'edge-rotated')).statusCode).toBe(200);
    expect((await push(second.access_token, 'edge-rotated')).statusCode).toBe(200);
    await sleep(Math.max(0, until - Date.now()) + 300);
    // After it the old one is refused (401: an unknown token), for the push and the claim of runsOn actions alike.
    const old = await push(first.access_token, 'edge-rotated');
    expect(old.statusCode, old.body).toBe(401);
    const claim = await t.app.inject({ method: 'POST', url: '/api/agent/playbook-actions/claim', headers: { ...bearer(first.access_token), 'content-type': 'application/json' }, payload: '{}' });
    expect(claim.statusCode, claim.body).toBe(401);
    expect((await push(second.access_token, 'edge-rotated')).statusCode).toBe(200);
  });

  it('the grace defaults to 5 minutes and is bounded', async () => {
    await generate({ name: 'edge-default' });
    const before = Date.now();
    const second = (await generate({ name: 'edge-default' })).json<Generated>();
    expect(second.previousTokenGraceSeconds).toBe(300);
    const until = Date.parse(second.previousTokenValidUntil ?? '');
    expect(until - before).toBeGreaterThan(290_000);
    expect(until - before).toBeLessThan(310_000);
    const bad = await generate({ name: 'edge-default', previousTokenGraceSeconds: 86_401 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('previousTokenGraceSeconds');
  });
});

describe('finding 11: revoking a token needs write on identities (a token may revoke itself)', () => {
  it("a read-only token of an admin cannot revoke another person's token, but can revoke itself", async () => {
    const editor = await t.userWith(['editor']);
    const victim = await tokenOf(editor.headers, 'editor-ci', 'Write');
    const readOnly = await tokenOf(t.adminHeaders, 'admin-dashboard', 'Read');
    // The admin's read-only token still lists everyone's tokens…
    const listed = await t.app.inject({ method: 'GET', url: '/api/auth/tokens', headers: bearer(readOnly.token) });
    expect(listed.statusCode).toBe(200);
    expect(listed.json<Array<{ id: string }>>().map((token) => token.id)).toContain(victim.id);
    // …but may not revoke them.
    const refused = await revoke(victim.id, bearer(readOnly.token));
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().message).toContain('identities');
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/whoami', headers: bearer(victim.token) })).statusCode).toBe(200);

    // It revokes itself, and is refused from then on.
    const self = await revoke(readOnly.id, bearer(readOnly.token));
    expect(self.statusCode, self.body).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/tokens', headers: bearer(readOnly.token) })).statusCode).toBe(401);
  });

  it("a token may not revoke its owner's other tokens without write on identities; an admin's session or Admin token may", async () => {
    const editor = await t.userWith(['editor']);
    const one = await tokenOf(editor.headers, 'one', 'Admin');
    const two = await tokenOf(editor.headers, 'two', 'Read');
    expect((await revoke(two.id, bearer(one.token))).statusCode).toBe(403);

    const adminToken = await tokenOf(t.adminHeaders, 'admin-automation', 'Admin');
    expect((await revoke(two.id, bearer(adminToken.token))).statusCode).toBe(200);
    expect((await revoke(one.id, t.adminHeaders)).statusCode).toBe(200);
    expect((await revoke(one.id, t.adminHeaders)).statusCode).toBe(404);
  });

  it("a person revokes their own tokens from a session (Settings → Tokens), not someone else's", async () => {
    const editor = await t.userWith(['editor']);
    const mine = await tokenOf(editor.headers, 'mine', 'Read');
    const others = await tokenOf(t.adminHeaders, 'not-yours', 'Read');
    // Someone else's token is not among those an editor sees (GET /api/auth/tokens lists their own): 404.
    const refused = await revoke(others.id, editor.headers);
    expect(refused.statusCode, refused.body).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/whoami', headers: bearer(others.token) })).statusCode).toBe(200);
    expect((await revoke(mine.id, editor.headers)).statusCode).toBe(200);
    const listed = await t.app.inject({ method: 'GET', url: '/api/auth/tokens', headers: editor.headers });
    expect(listed.json<Array<{ id: string }>>().map((token) => token.id)).not.toContain(mine.id);
  });

  it("an agent's token is not revocable with an admin's read-only token", async () => {
    const agent = (await generate({ name: 'edge-kept' })).json<Generated>();
    const { rows } = await t.db.pool.query<{ id: string }>("SELECT id FROM access_tokens WHERE name = 'agent-edge-kept' AND deleted_at IS NULL");
    const readOnly = await tokenOf(t.adminHeaders, 'admin-reader', 'Read');
    expect((await revoke(rows[0]?.id ?? '', bearer(readOnly.token))).statusCode).toBe(403);
    expect((await push(agent.access_token, 'edge-kept')).statusCode).toBe(200);
  });
});
