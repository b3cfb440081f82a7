import { Configuration, FrontendApi, type SettingsFlow } from '@ory/client-fetch';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { CookieJar } from '../../../../test/http-client';
import { attr, csrf, failure } from './helpers';
import { createIdentity } from '../identities';
import { hashPassword } from '../passwords';

/** Settings (profile, password, TOTP, backup codes), second factors at sign-in, and privileged changes. */
let t: TestApp;
let base: string;
const EMAIL = 'two@example.com';
const PASSWORD = 'two factors are better than one';

beforeAll(async () => {
  t = await createTestApp();
  base = await t.listen();
  await createIdentity(t.db.pool, { traits: { email: EMAIL, name: { first: 'Tao', last: 'Two' } }, passwordHash: await hashPassword(PASSWORD), roles: ['editor'], verified: true });
});

afterAll(async () => {
  await t?.close();
});

function api(jar: CookieJar): FrontendApi {
  return new FrontendApi(new Configuration({ basePath: `${base}/api/.ory`, fetchApi: jar.fetch }));
}



function textNode(flow: SettingsFlow, id: string): { text: string; context: Record<string, unknown> } {
  const node = flow.ui.nodes.find((item) => attr(item, 'id') === id);
  const text: unknown = node ? attr(node, 'text') : undefined;
  if (!text || typeof text !== 'object') throw new Error(`no text node ${id}`);
  const value = Reflect.get(text, 'text');
  const context: unknown = Reflect.get(text, 'context');
  return { text: String(value), context: context && typeof context === 'object' ? Object.fromEntries(Object.entries(context)) : {} };
}


async function signIn(jar: CookieJar): Promise<void> {
  const client = api(jar);
  const flow = await client.createBrowserLoginFlow();
  await client.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'password', identifier: EMAIL, password: PASSWORD, csrf_token: csrf(flow) } });
}

describe('settings and second factors', () => {
  const jar = new CookieJar();
  let totpSecret = '';
  let backupCodes: string[] = [];

  it('shows every settings section and saves the profile', async () => {
    await signIn(jar);
    const client = api(jar);
    const flow = await client.createBrowserSettingsFlow();
    const groups = new Set(flow.ui.nodes.map((node) => node.group));
    for (const group of ['profile', 'password', 'oidc', 'lookup_secret', 'totp', 'webauthn', 'passkey']) expect(groups, group).toContain(group);
    expect(flow.identity.traits.email).toBe(EMAIL);
    const saved = await client.updateSettingsFlow({
      flow: flow.id,
      updateSettingsFlowBody: { method: 'profile', traits: { email: EMAIL, name: { first: 'Tamsin', last: 'Two' } }, csrf_token: csrf(flow) },
    });
    expect(saved.state).toBe('success');
    expect(saved.ui.messages?.[0]?.id).toBe(1050001);
    const { rows } = await t.db.pool.query('SELECT name FROM people WHERE email = $1', [EMAIL]);
    expect(rows[0]?.name).toBe('Tamsin Two');
  });

  it('refuses a wrong TOTP code and enrols with the right one, raising the session to aal2', async () => {
    const client = api(jar);
    const flow = await client.createBrowserSettingsFlow();
    totpSecret = String(textNode(flow, 'totp_secret_key').context.secret);
    expect(totpSecret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(String(attr(flow.ui.nodes.find((node) => attr(node, 'id') === 'totp_qr')!, 'src'))).toMatch(/^data:image\/png;base64,/);
    const wrong = await failure(client.updateSettingsFlow({ flow: flow.id, updateSettingsFlowBody: { method: 'totp', totp_code: '000000', csrf_token: csrf(flow) } }));
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body.ui)).toContain('4000008');
    // The QR code stays the same after a wrong code: the secret the person scanned is kept.
    expect(JSON.stringify(wrong.body.ui)).toContain(totpSecret);
    const enrolled = await client.updateSettingsFlow({
      flow: flow.id,
      updateSettingsFlowBody: { method: 'totp', totp_code: await generate({ secret: totpSecret }), csrf_token: csrf(flow) },
    });
    expect(enrolled.state).toBe('success');
    expect(enrolled.ui.nodes.some((node) => attr(node, 'name') === 'totp_unlink')).toBe(true);
    const session = await client.toSession();
    expect(session.authenticator_assurance_level).toBe('aal2');
  });

  it('generates backup codes that work only after confirming, stores only their hashes', async () => {
    const client = api(jar);
    const flow = await client.createBrowserSettingsFlow();
    const generated = await client.updateSettingsFlow({ flow: flow.id, updateSettingsFlowBody: { method: 'lookup_secret', lookup_secret_regenerate: true, csrf_token: csrf(flow) } });
    const list = textNode(generated, 'lookup_secret_codes').context.secrets;
    backupCodes = Array.isArray(list) ? list.map((item: unknown) => String(item && typeof item === 'object' ? Reflect.get(item, 'text') : '')) : [];
    expect(backupCodes).toHaveLength(12);
    const confirmed = await client.updateSettingsFlow({ flow: flow.id, updateSettingsFlowBody: { method: 'lookup_secret', lookup_secret_confirm: true, csrf_token: csrf(flow) } });
    expect(confirmed.state).toBe('success');
    const { rows } = await t.db.pool.query("SELECT config::text AS config FROM identity_credentials WHERE type = 'lookup_secret'");
    expect(rows[0]?.config).not.toContain(backupCodes[0]);
  });

  it('asks a new sign-in for the second factor: whoami answers 403 session_aal2_required until then', async () => {
    const fresh = new CookieJar();
    await signIn(fresh);
    const client = api(fresh);
    const pending = await failure(client.toSession());
    expect(pending.status).toBe(403);
    expect((pending.body.error as { id?: string }).id).toBe('session_aal2_required');
    expect(String(pending.body.redirect_browser_to)).toContain('/login?aal=aal2');
    const console = await fetch(`${base}/api/auth/whoami`, { headers: { cookie: fresh.header() } });
    expect(console.status).toBe(403);
    expect((await fetch(`${base}/api/db/job_history`, { headers: { cookie: fresh.header() } })).status).toBe(401);

    // Codes are accepted once per 30 s step: make the enrolment look a step older, as it would be by now.
    await t.db.pool.query("UPDATE identity_credentials SET config = jsonb_set(config, '{last_step}', to_jsonb((config->>'last_step')::int - 1)) WHERE type = 'totp'");
    const flow = await client.createBrowserLoginFlow({ aal: 'aal2' });
    expect(flow.requested_aal).toBe('aal2');
    expect(flow.ui.nodes.map((node) => attr(node, 'name'))).toEqual(expect.arrayContaining(['totp_code', 'lookup_secret']));
    const done = await client.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'totp', totp_code: await generate({ secret: totpSecret }), csrf_token: csrf(flow) } });
    expect(done.session.authenticator_assurance_level).toBe('aal2');
    expect((await client.toSession()).identity?.traits.email).toBe(EMAIL);
  });

  it('refuses to accept the same TOTP code twice', async () => {
    const fresh = new CookieJar();
    await signIn(fresh);
    const client = api(fresh);
    const flow = await client.createBrowserLoginFlow({ aal: 'aal2' });
    const code = await generate({ secret: totpSecret });
    // The previous test used the current code already (same 30 s step), unless the step has just turned.
    const { rows } = await t.db.pool.query<{ last: number }>("SELECT (config->>'last_step')::int AS last FROM identity_credentials WHERE type = 'totp'");
    const step = Math.floor(Date.now() / 30_000);
    if (rows[0]?.last === step) {
      const replay = await failure(client.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'totp', totp_code: code, csrf_token: csrf(flow) } }));
      expect(replay.status).toBe(400);
    }
    const lookup = await client.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'lookup_secret', lookup_secret: backupCodes[0] ?? '', csrf_token: csrf(flow) } });
    expect(lookup.session.authenticator_assurance_level).toBe('aal2');
    // A backup code works once.
    const again = new CookieJar();
    await signIn(again);
    const second = await api(again).createBrowserLoginFlow({ aal: 'aal2' });
    const reused = await failure(api(again).updateLoginFlow({ flow: second.id, updateLoginFlowBody: { method: 'lookup_secret', lookup_secret: backupCodes[0] ?? '', csrf_token: csrf(second) } }));
    expect(JSON.stringify(reused.body.ui)).toContain('4000012');
  });

  it('needs a recent sign-in for a password change (session_refresh_required), then rotates the session and ends the others', async () => {
    const other = new CookieJar();
    await signIn(other);
    const otherFlow = await api(other).createBrowserLoginFlow({ aal: 'aal2' });
    await api(other).updateLoginFlow({ flow: otherFlow.id, updateLoginFlowBody: { method: 'lookup_secret', lookup_secret: backupCodes[1] ?? '', csrf_token: csrf(otherFlow) } });

    const client = api(jar);
    const flow = await client.createBrowserSettingsFlow();
    await t.db.pool.query("UPDATE sessions SET authenticated_at = now() - interval '20 minutes' WHERE token_hash = encode(sha256($1::bytea), 'hex')", [jar.get('watchkeeper_session')]);
    const stale = await failure(client.updateSettingsFlow({ flow: flow.id, updateSettingsFlowBody: { method: 'password', password: 'a brand new long passphrase', csrf_token: csrf(flow) } }));
    expect(stale.status).toBe(403);
    expect((stale.body.error as { id?: string }).id).toBe('session_refresh_required');
    expect(String(stale.body.redirect_browser_to)).toContain('/login?refresh=true&return_to=');

    const refresh = await client.createBrowserLoginFlow({ refresh: true });
    await client.updateLoginFlow({ flow: refresh.id, updateLoginFlowBody: { method: 'password', identifier: EMAIL, password: PASSWORD, csrf_token: csrf(refresh) } });
    const before = jar.get('watchkeeper_session');
    const changed = await client.updateSettingsFlow({ flow: flow.id, updateSettingsFlowBody: { method: 'password', password: 'a brand new long passphrase', csrf_token: csrf(flow) } });
    expect(changed.state).toBe('success');
    expect(jar.get('watchkeeper_session')).not.toBe(before);
    expect((await client.toSession()).identity?.traits.email).toBe(EMAIL);
    expect((await failure(api(other).toSession())).status).toBe(401);
  });
});
