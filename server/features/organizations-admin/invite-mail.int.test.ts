import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';
import { startSmtpSink, type ReceivedMail } from '../../../test/smtp-sink';
import { oidcEnv } from '../identity/oidc/testing/issuer';

/** The invitation mail of hosted mode (docs/HOSTED.md "Organizations admin"): through a real SMTP server. */

const ISSUER = { url: 'https://id.example.com' };

type Json = Record<string, unknown>;

async function call(t: TestApp, method: 'GET' | 'POST', url: string, body?: Json) {
  const response = await t.app.inject({ method, url, headers: t.adminHeaders, ...(body ? { payload: body } : {}) });
  return { status: response.statusCode, body: response.json<Json>() };
}

async function organization(t: TestApp, name: string): Promise<string> {
  const created = await call(t, 'POST', '/api/auth/organizations', { name });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return String(created.body.id);
}

/** The mail's headers and its text, quoted-printable undone. */
function read(mail: ReceivedMail): { headers: string; text: string } {
  const [headers = '', ...body] = mail.raw.split(/\r?\n\r?\n/);
  const text = body
    .join('\n')
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return { headers: headers.replace(/\r?\n\s+/g, ' '), text };
}

describe('invite in oidc mode with mail configured', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await createTestApp({ env: { ...oidcEnv(ISSUER), SMTP_URL: smtp.url, SMTP_FROM: 'Ops <ops@example.com>' } });
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('mails the invited person where to sign in and through whom', async () => {
    const id = await organization(t, 'Umbrella');
    const invited = await call(t, 'POST', `/api/auth/organizations/${id}/members`, { email: 'ada@example.com', role: 'editor' });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ email: 'ada@example.com', account_created: true, email_sent: true });
    expect(invited.body).not.toHaveProperty('email_error');
    const mail = read(await smtp.next('ada@example.com'));
    expect(mail.headers).toContain('Subject: You are invited to Umbrella on Watchkeeper');
    expect(mail.text).toContain('to the organization Umbrella on Watchkeeper');
    expect(mail.text).toMatch(/open http:\/\/[^\s]+\/login and sign in through id\.example\.com with this address \(ada@example\.com\)/);
  });

  it('says email_sent: false with the reason when the mail server fails, and the membership stands', async () => {
    const id = await organization(t, 'Wayne');
    await smtp.close();
    const invited = await call(t, 'POST', `/api/auth/organizations/${id}/members`, { email: 'bea@example.com' });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ email: 'bea@example.com', email_sent: false, email_error: expect.stringContaining('the invitation mail could not be sent through SMTP_URL: ') as unknown });
    const members = await call(t, 'GET', `/api/auth/organizations/${id}/members`);
    expect(members.body).toEqual([expect.objectContaining({ email: 'bea@example.com', source: 'console' })]);
  });
});

describe('invite in oidc mode without mail', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: oidcEnv(ISSUER) });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers email_sent: false and sends nothing', async () => {
    const id = await organization(t, 'Tyrell');
    const invited = await call(t, 'POST', `/api/auth/organizations/${id}/members`, { email: 'cy@example.com' });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ email: 'cy@example.com', email_sent: false });
    expect(invited.body).not.toHaveProperty('email_error');
  });
});
