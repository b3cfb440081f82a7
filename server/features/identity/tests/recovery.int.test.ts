import { Configuration, FrontendApi, ResponseError } from '@ory/client-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { CookieJar, json } from '../../../../test/http-client';
import { csrf, failure } from './helpers';
import { codeIn, startSmtpSink } from '../../../../test/smtp-sink';
import { createIdentity } from '../identities';
import { hashPassword } from '../passwords';

/** Recovery and verification by emailed code, through a real SMTP server, and invitations. */
let t: TestApp;
let base: string;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
const EMAIL = 'forgetful@example.com';

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, SMTP_FROM: 'Ops <ops@example.com>' } });
  base = await t.listen();
  await createIdentity(t.db.pool, { traits: { email: EMAIL, name: { first: 'Fern', last: 'Forgetful' } }, passwordHash: await hashPassword('the password I forgot'), roles: ['viewer'] });
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

function api(jar: CookieJar): FrontendApi {
  return new FrontendApi(new Configuration({ basePath: `${base}/api/.ory`, fetchApi: jar.fetch }));
}



describe('recovery by code', () => {
  it('mails a code, counts wrong tries, and signs in on the right one, straight into settings', async () => {
    const jar = new CookieJar();
    const client = api(jar);
    const flow = await client.createBrowserRecoveryFlow();
    const sent = await client.updateRecoveryFlow({ flow: flow.id, updateRecoveryFlowBody: { method: 'code', email: EMAIL, csrf_token: csrf(flow) } });
    expect(sent.state).toBe('sent_email');
    expect(sent.ui.messages?.map((message) => message.id)).toEqual([1060003]);
    const mail = await smtp.next(EMAIL);
    expect(mail.raw).toContain('From: Ops <ops@example.com>');
    const code = codeIn(mail);

    const wrong = await failure(client.updateRecoveryFlow({ flow: flow.id, updateRecoveryFlowBody: { method: 'code', code: code === '000000' ? '111111' : '000000', csrf_token: csrf(flow) } }));
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body.ui)).toContain('4060006');

    const done = await failure(client.updateRecoveryFlow({ flow: flow.id, updateRecoveryFlowBody: { method: 'code', code, csrf_token: csrf(flow) } }));
    expect(done.status).toBe(422);
    expect((done.body.error as { id?: string }).id).toBe('browser_location_change_required');
    const settingsUrl = new URL(String(done.body.redirect_browser_to));
    expect(settingsUrl.pathname).toBe('/profile-settings');
    const settings = await client.getSettingsFlow({ id: settingsUrl.searchParams.get('flow') ?? '' });
    expect(settings.ui.messages?.[0]?.id).toBe(1060001);
    const changed = await client.updateSettingsFlow({ flow: settings.id, updateSettingsFlowBody: { method: 'password', password: 'remembered at last, truly', csrf_token: csrf(settings) } });
    expect(changed.state).toBe('success');

    const login = api(new CookieJar());
    const loginFlow = await login.createNativeLoginFlow();
    const signedIn = await login.updateLoginFlow({ flow: loginFlow.id, updateLoginFlowBody: { method: 'password', identifier: EMAIL, password: 'remembered at last, truly' } });
    expect(signedIn.session.identity?.verifiable_addresses?.[0]?.verified).toBe(true);
  });

  it('sends nothing to an unknown address but answers the same, and stops after 5 wrong codes', async () => {
    const client = api(new CookieJar());
    const flow = await client.createBrowserRecoveryFlow();
    const sent = await client.updateRecoveryFlow({ flow: flow.id, updateRecoveryFlowBody: { method: 'code', email: 'nobody@example.com', csrf_token: csrf(flow) } });
    expect(sent.state).toBe('sent_email');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.mails.filter((mail) => mail.to.includes('nobody@example.com'))).toHaveLength(0);
    let last: { status: number; body: Record<string, unknown> } | undefined;
    for (let i = 0; i < 5; i += 1) {
      last = await failure(client.updateRecoveryFlow({ flow: flow.id, updateRecoveryFlowBody: { method: 'code', code: '123456', csrf_token: csrf(flow) } }));
    }
    expect(JSON.stringify(last?.body.ui)).toContain('4060009');
    expect(last?.body.state).toBe('choose_method');
  });
});

describe('verification by code', () => {
  it('verifies the address of a new registration with the mailed code', async () => {
    const client = api(new CookieJar());
    const registration = await client.createNativeRegistrationFlow();
    const done = await client.updateRegistrationFlow({
      flow: registration.id,
      updateRegistrationFlowBody: { method: 'password', password: 'a long and fresh passphrase 7', traits: { email: 'newcomer@example.com', name: { first: 'Nia', last: 'New' } } },
    });
    const next = done.continue_with?.find((item) => item.action === 'show_verification_ui');
    const flowId = next && 'flow' in next ? next.flow.id : '';
    const code = codeIn(await smtp.next('newcomer@example.com'));
    const verified = await client.updateVerificationFlow({ flow: flowId, updateVerificationFlowBody: { method: 'code', code } });
    expect(verified.state).toBe('passed_challenge');
    expect(verified.ui.messages?.[0]?.id).toBe(1080002);
    const session = await client.toSession({ xSessionToken: done.session_token });
    expect(session.identity?.verifiable_addresses?.[0]?.verified).toBe(true);
  });
});

describe('invitations', () => {
  it('creates the account with its role and mails a code the invitee uses to choose a password', async () => {
    const invite = await fetch(`${base}/api/auth/invite_user`, {
      method: 'POST',
      headers: { ...t.adminHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Ivy', lastName: 'Invited', email: 'ivy@example.com', role: 'responder' }),
    });
    expect(invite.status).toBe(201);
    const answer = await json(invite);
    expect(answer.mail_sent).toBe(true);
    expect(answer.recovery_code).toBeUndefined();
    const mail = await smtp.next('ivy@example.com');
    expect(mail.raw).toContain('invited');
    const link = new URL(String(answer.recovery_link));

    // The invitee's own browser opens the link: the flow binds to that browser on first sight.
    const jar = new CookieJar();
    const client = api(jar);
    const flow = await client.getRecoveryFlow({ id: link.searchParams.get('flow') ?? '' }).catch(async (error: unknown) => {
      throw error instanceof ResponseError ? new Error(`${error.response.status} ${await error.response.text()}`) : error;
    });
    expect(flow.state).toBe('sent_email');
    const done = await failure(client.updateRecoveryFlow({ flow: flow.id, updateRecoveryFlowBody: { method: 'code', code: codeIn(mail), csrf_token: csrf(flow) } }));
    expect(done.status, JSON.stringify(done.body)).toBe(422);
    const whoami = await json(await jar.fetch(`${base}/api/auth/whoami`));
    expect(whoami.roles).toEqual(['responder']);

    const duplicate = await fetch(`${base}/api/auth/invite_user`, {
      method: 'POST',
      headers: { ...t.adminHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Ivy', lastName: 'Again', email: 'IVY@example.com', role: 'viewer' }),
    });
    expect(duplicate.status).toBe(409);
  });

  it('is refused to those who may not create identities', async () => {
    const editor = await t.userWith(['editor']);
    const res = await fetch(`${base}/api/auth/invite_user`, {
      method: 'POST',
      headers: { ...editor.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'X', lastName: 'Y', email: 'x@example.com', role: 'admin' }),
    });
    expect(res.status).toBe(403);
  });
});
