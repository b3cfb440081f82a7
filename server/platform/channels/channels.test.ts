import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_TYPES } from '../../../common/connections';
import type { ResolvedConnection } from '../connections/types';
import { channelTypes, sendThrough } from './index';
import type { ChannelMessage, SendOutcome } from './types';

/**
 * Each channel against a local HTTP peer (and an SMTP sink) on 127.0.0.1 that keeps every request: the
 * path, auth and body each service's API expects, and a refusal that comes back as words and an excerpt
 * without the connection's secrets.
 */

interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Reply = { status?: number; json?: unknown; text?: string };

let route: (request: Received) => Reply = () => ({});
const received: Received[] = [];
let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://peer');
      const entry = { method: request.method ?? '', path: url.pathname, query: url.searchParams, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(entry);
      const reply = route(entry);
      response.writeHead(reply.status ?? 200, { 'content-type': reply.json !== undefined ? 'application/json' : 'text/plain' });
      response.end(reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? ''));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function connection(type: string, fields: Partial<Omit<ResolvedConnection, 'type'>> = {}): ResolvedConnection {
  return { id: '00000000-0000-0000-0000-000000000002', name: 'chan', namespace: 'default', type, url: '', username: '', password: '', certificate: '', insecureTLS: false, properties: {}, ...fields };
}

const MESSAGE: ChannelMessage = { title: 'Disk full on db-1', text: 'Only *3%* left on /var' };

/** Sends with the peer answering by `reply`, and answers the outcome and the last request. */
async function send(type: string, fields: Partial<Omit<ResolvedConnection, 'type'>>, reply: (request: Received) => Reply = () => ({ json: {} }), message = MESSAGE): Promise<{ outcome: SendOutcome; last: Received; all: Received[] }> {
  route = reply;
  received.length = 0;
  const outcome = await sendThrough(connection(type, fields), message, AbortSignal.timeout(5_000));
  const last = received.at(-1);
  if (!last) throw new Error(`no request reached the peer: ${outcome.message}`);
  return { outcome, last, all: [...received] };
}

const json = (request: Received): unknown => JSON.parse(request.body);
function nth(requests: Received[], index: number): Received {
  const request = requests[index];
  if (!request) throw new Error(`no request ${index}`);
  return request;
}
const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/** The peer answers 500 with a body that repeats the secret: the outcome says so without the secret. */
async function expectServerError(type: string, fields: Partial<Omit<ResolvedConnection, 'type'>>, secret: string): Promise<SendOutcome> {
  const { outcome } = await send(type, fields, () => ({ status: 500, json: { message: `internal failure near ${secret}`, trace: 'x'.repeat(1000) } }));
  expect(outcome.ok).toBe(false);
  expect(outcome.status).toBe(500);
  expect(outcome.message).toMatch(/HTTP 500 Internal Server Error: internal failure near \*\*\*/);
  expect(outcome.excerpt).toMatch(/^\{"message":"internal failure near \*\*\*"/);
  expect(outcome.excerpt?.length).toBeLessThanOrEqual(300);
  for (const text of [outcome.message, outcome.excerpt ?? '']) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(encodeURIComponent(secret));
  }
  return outcome;
}

describe('the registry', () => {
  it('has a sender for every notification connection type', () => {
    const notifications = CONNECTION_TYPES.filter((type) => type.category === 'Notifications').map((type) => type.type).sort();
    expect(channelTypes()).toEqual(notifications);
  });

  it('an unknown type, an unreachable peer and a bad url are outcomes, not throws', async () => {
    expect(await sendThrough(connection('postgres'), MESSAGE, AbortSignal.timeout(1000))).toMatchObject({ ok: false, message: expect.stringContaining('"postgres" is not a notification channel') });
    const closed = await sendThrough(connection('discord', { url: 'http://127.0.0.1:1', username: '1', password: 'Dc-s3cret' }), MESSAGE, AbortSignal.timeout(2000));
    expect(closed.ok).toBe(false);
    expect(closed.message).toMatch(/^POST http:\/\/127\.0\.0\.1:1\/api\/webhooks\/1\/\*\*\*: .*ECONNREFUSED/);
    expect(await sendThrough(connection('generic_webhook', { url: 'not a url' }), MESSAGE, AbortSignal.timeout(1000))).toEqual({ ok: false, message: 'not a url is not a valid URL' });
  });
});

describe('http channels', () => {
  it('generic_webhook: POST {messageKey, titleKey} as the content type, basic auth; GET in the query', async () => {
    const { outcome, last } = await send('generic_webhook', { url: `${base}/alerts?src=wk`, username: 'hook', password: 'Hook-s3cret', properties: { messageKey: 'body', titleKey: 'subject' } }, () => ({ status: 202, text: 'queued' }));
    expect(outcome).toEqual({ ok: true, status: 202, message: 'sent' });
    expect(last).toMatchObject({ method: 'POST', path: '/alerts' });
    expect(last.query.get('src')).toBe('wk');
    expect(last.headers.authorization).toBe(basic('hook', 'Hook-s3cret'));
    expect(last.headers['content-type']).toBe('application/json');
    expect(json(last)).toEqual({ body: MESSAGE.text, subject: MESSAGE.title });
    const get = await send('generic_webhook', { url: `${base}/get`, properties: { method: 'GET' } }, () => ({ text: 'ok' }));
    expect(get.last.query.get('message')).toBe(MESSAGE.text);
    expect(get.last.query.get('title')).toBe(MESSAGE.title);
    const extras = await send('generic_webhook', { url: `${base}/x`, properties: { 'header.X-Team': 'ops', 'field.source': 'wk' } }, () => ({ text: 'ok' }));
    expect(extras.last.headers['x-team']).toBe('ops');
    expect(json(extras.last)).toEqual({ source: 'wk', message: MESSAGE.text, title: MESSAGE.title });
    await expectServerError('generic_webhook', { url: `${base}/alerts`, username: 'hook', password: 'Hook-s3cret' }, 'Hook-s3cret');
  });

  it('slack: chat.postMessage with the bot token; ok false is a refusal; a per-send channel wins', async () => {
    const { outcome, last } = await send('slack', { url: `${base}/api`, password: 'xoxb-S3CRET', properties: { channel: 'C0123', botName: 'WK' } }, () => ({ json: { ok: true, ts: '1.2' } }));
    expect(outcome).toEqual({ ok: true, status: 200, message: 'sent to C0123' });
    expect(last).toMatchObject({ method: 'POST', path: '/api/chat.postMessage' });
    expect(last.headers.authorization).toBe('Bearer xoxb-S3CRET');
    expect(json(last)).toEqual({ channel: 'C0123', username: 'WK', text: `*${MESSAGE.title}*\n${MESSAGE.text}` });
    const override = await send('slack', { url: `${base}/api`, password: 'xoxb-S3CRET', properties: { channel: 'C0123' } }, () => ({ json: { ok: false, error: 'channel_not_found' } }), { ...MESSAGE, properties: { channel: '#ops' } });
    expect(override.outcome).toMatchObject({ ok: false, status: 200, message: 'Slack refused the message to #ops: channel_not_found', excerpt: '{"ok":false,"error":"channel_not_found"}' });
    await expectServerError('slack', { url: `${base}/api`, password: 'xoxb-S3CRET', properties: { channel: 'C0123' } }, 'xoxb-S3CRET');
  });

  it('slack webhook: POST {url}/{token} with the text', async () => {
    const { outcome, last } = await send('slack', { url: `${base}/services`, password: 'T000/B000/XXXX', properties: { webhook: 'true' } }, () => ({ text: 'ok' }));
    expect(outcome.ok).toBe(true);
    expect(last).toMatchObject({ method: 'POST', path: '/services/T000/B000/XXXX' });
    expect(json(last)).toEqual({ text: `*${MESSAGE.title}*\n${MESSAGE.text}` });
    const failed = await expectServerError('slack', { url: `${base}/services`, password: 'T000/B000/XXXX', properties: { webhook: 'true' } }, 'T000/B000/XXXX');
    expect(failed.message).toBe(`POST ${base}/services/***: HTTP 500 Internal Server Error: internal failure near ***`);
  });

  it('teams: the MessageCard to the webhookb2 path', async () => {
    const fields = { url: base, password: 'Owner-S3CRET', properties: { group: 'grp', tenant: 'tnt', altID: 'alt' } };
    const { outcome, last } = await send('teams', fields, () => ({ text: '1' }));
    expect(outcome.ok).toBe(true);
    expect(last.path).toBe('/webhookb2/grp@tnt/IncomingWebhook/alt/Owner-S3CRET');
    expect(json(last)).toEqual({ '@type': 'MessageCard', '@context': 'https://schema.org/extensions', summary: MESSAGE.title, title: MESSAGE.title, text: MESSAGE.text });
    await expectServerError('teams', fields, 'Owner-S3CRET');
  });

  it('discord: {content} to /api/webhooks/{id}/{token}', async () => {
    const fields = { url: base, username: '1234', password: 'Dc-S3CRET' };
    const { outcome, last } = await send('discord', fields, () => ({ status: 204 }));
    expect(outcome).toEqual({ ok: true, status: 204, message: 'sent' });
    expect(last.path).toBe('/api/webhooks/1234/Dc-S3CRET');
    expect(json(last)).toEqual({ content: `**${MESSAGE.title}**\n${MESSAGE.text}` });
    await expectServerError('discord', fields, 'Dc-S3CRET');
  });

  it('mattermost and rocketchat: {text, channel, username} to /hooks/{token}; success false is a refusal', async () => {
    const fields = { url: base, username: 'wk-bot', password: 'Mm-S3CRET', properties: { channel: 'town-square' } };
    const { outcome, last } = await send('mattermost', fields, () => ({ text: 'ok' }));
    expect(outcome).toEqual({ ok: true, status: 200, message: 'sent to town-square' });
    expect(last.path).toBe('/hooks/Mm-S3CRET');
    expect(json(last)).toEqual({ text: `**${MESSAGE.title}**\n${MESSAGE.text}`, channel: 'town-square', username: 'wk-bot' });
    await expectServerError('mattermost', fields, 'Mm-S3CRET');
    const rc = await send('rocketchat', { url: base, password: 'id1/Rc-S3CRET' }, () => ({ json: { success: false, error: 'Invalid integration' } }));
    expect(rc.last.path).toBe('/hooks/id1/Rc-S3CRET');
    expect(rc.outcome).toMatchObject({ ok: false, message: 'Rocket.Chat refused the message: Invalid integration' });
    await expectServerError('rocketchat', { url: base, password: 'id1/Rc-S3CRET' }, 'id1/Rc-S3CRET');
  });

  it('google_chat: {text} to the webhook url, whose key and token never show', async () => {
    const url = `${base}/v1/spaces/AAA/messages?key=Gc-KEY&token=Gc-T0KEN`;
    const { outcome, last } = await send('google_chat', { url }, () => ({ json: { name: 'spaces/AAA/messages/1' } }));
    expect(outcome.ok).toBe(true);
    expect(last.path).toBe('/v1/spaces/AAA/messages');
    expect(last.query.get('token')).toBe('Gc-T0KEN');
    expect(json(last)).toEqual({ text: `*${MESSAGE.title}*\n${MESSAGE.text}` });
    const failed = await expectServerError('google_chat', { url }, url);
    expect(failed.message).not.toContain('Gc-T0KEN');
  });

  it('telegram: sendMessage to each chat; ok false is a refusal', async () => {
    const fields = { url: base, password: '123:Tg-S3CRET', properties: { chats: '-100123, @ops' } };
    const { outcome, all } = await send('telegram', fields, () => ({ json: { ok: true, result: { message_id: 1 } } }));
    expect(outcome).toEqual({ ok: true, status: 200, message: 'sent to -100123, @ops' });
    expect(all.map((request) => request.path)).toEqual(['/bot123:Tg-S3CRET/sendMessage', '/bot123:Tg-S3CRET/sendMessage']);
    expect(all.map(json)).toEqual([
      { chat_id: '-100123', text: `${MESSAGE.title}\n${MESSAGE.text}` },
      { chat_id: '@ops', text: `${MESSAGE.title}\n${MESSAGE.text}` },
    ]);
    expect((await send('telegram', fields, () => ({ json: { ok: false, description: 'chat not found' } }))).outcome.message).toBe('Telegram refused the message: chat not found');
    await expectServerError('telegram', fields, '123:Tg-S3CRET');
  });

  it('ntfy: the text to /{topic} with Title and Priority headers and basic auth', async () => {
    const fields = { url: base, username: 'me', password: 'Ntfy-S3CRET', properties: { topic: 'alerts' } };
    const { outcome, last } = await send('ntfy', fields, () => ({ json: { id: 'x' } }), { ...MESSAGE, properties: { priority: '5' } });
    expect(outcome).toEqual({ ok: true, status: 200, message: 'sent to topic alerts' });
    expect(last).toMatchObject({ method: 'POST', path: '/alerts', body: MESSAGE.text });
    expect(last.headers).toMatchObject({ title: MESSAGE.title, priority: '5', authorization: basic('me', 'Ntfy-S3CRET') });
    await expectServerError('ntfy', fields, 'Ntfy-S3CRET');
  });

  it('pushover: token, user, title, message and priority to /1/messages.json; status 0 is a refusal', async () => {
    const fields = { url: base, username: 'uKEY', password: 'Po-S3CRET', properties: { priority: '1' } };
    const { outcome, last } = await send('pushover', fields, () => ({ json: { status: 1 } }));
    expect(outcome.ok).toBe(true);
    expect(last.path).toBe('/1/messages.json');
    expect(json(last)).toEqual({ token: 'Po-S3CRET', user: 'uKEY', title: MESSAGE.title, message: MESSAGE.text, priority: 1 });
    expect((await send('pushover', fields, () => ({ json: { status: 0, errors: ['user key is invalid'] } }))).outcome.message).toBe('Pushover refused the message: user key is invalid');
    await expectServerError('pushover', fields, 'Po-S3CRET');
  });

  it('pushbullet: a note per target with Access-Token', async () => {
    const fields = { url: base, password: 'Pb-S3CRET', properties: { targets: '#ops, me@example.com, dev1' } };
    const { outcome, all } = await send('pushbullet', fields, () => ({ json: { iden: 'p' } }));
    expect(outcome.message).toBe('sent to #ops, me@example.com, dev1');
    expect(all.every((request) => request.path === '/v2/pushes' && request.headers['access-token'] === 'Pb-S3CRET')).toBe(true);
    expect(all.map(json)).toEqual([
      { type: 'note', title: MESSAGE.title, body: MESSAGE.text, channel_tag: 'ops' },
      { type: 'note', title: MESSAGE.title, body: MESSAGE.text, email: 'me@example.com' },
      { type: 'note', title: MESSAGE.title, body: MESSAGE.text, device_iden: 'dev1' },
    ]);
    await expectServerError('pushbullet', fields, 'Pb-S3CRET');
  });

  it('opsgenie: POST /v2/alerts with GenieKey, message cut at 130, priority and responders', async () => {
    const fields = { url: base, password: 'Og-S3CRET', properties: { port: '443', responders: 'team:ops, user:me@example.com' } };
    const long = { title: 'x'.repeat(200), text: 'details', properties: { priority: 'P2' } };
    const { outcome, last } = await send('opsgenie', fields, () => ({ status: 202, json: { result: 'Request will be processed', requestId: 'r1' } }), long);
    expect(outcome).toEqual({ ok: true, status: 202, message: 'sent' });
    expect(last).toMatchObject({ method: 'POST', path: '/v2/alerts' });
    expect(last.headers.authorization).toBe('GenieKey Og-S3CRET');
    expect(json(last)).toEqual({ message: 'x'.repeat(130), description: 'details', priority: 'P2', responders: [{ type: 'team', name: 'ops' }, { type: 'user', username: 'me@example.com' }] });
    expect((await sendThrough(connection('opsgenie', fields), { ...MESSAGE, properties: { priority: 'high' } }, AbortSignal.timeout(1000))).message).toBe('priority "high" is not one of P1, P2, P3, P4, P5');
    await expectServerError('opsgenie', fields, 'Og-S3CRET');
  });

  it('zulip_chat: form-encoded stream message as botMail:botKey; result error is a refusal', async () => {
    const fields = { url: base, username: 'bot@zulip.example', password: 'Zu-S3CRET', properties: { stream: 'ops' } };
    const { outcome, last } = await send('zulip_chat', fields, () => ({ json: { result: 'success', id: 1 } }));
    expect(outcome.message).toBe('sent to ops');
    expect(last).toMatchObject({ method: 'POST', path: '/api/v1/messages' });
    expect(last.headers.authorization).toBe(basic('bot@zulip.example', 'Zu-S3CRET'));
    expect(last.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(last.body))).toEqual({ type: 'stream', to: 'ops', topic: MESSAGE.title, content: MESSAGE.text });
    expect((await send('zulip_chat', fields, () => ({ json: { result: 'error', msg: 'Stream does not exist' } }))).outcome.message).toBe('Zulip refused the message: Stream does not exist');
    await expectServerError('zulip_chat', fields, 'Zu-S3CRET');
  });

  it('ifttt: value1 title, value2 text to /trigger/{event}/with/key/{key} per event', async () => {
    const fields = { url: base, password: 'If-S3CRET', properties: { events: 'alert, page' } };
    const { outcome, all } = await send('ifttt', fields, () => ({ text: 'Congratulations!' }));
    expect(outcome.message).toBe('sent to events alert, page');
    expect(all.map((request) => request.path)).toEqual(['/trigger/alert/with/key/If-S3CRET', '/trigger/page/with/key/If-S3CRET']);
    expect(json(nth(all, 0))).toEqual({ value1: MESSAGE.title, value2: MESSAGE.text, value3: '' });
    await expectServerError('ifttt', fields, 'If-S3CRET');
  });

  it('matrix: login, m.room.message by PUT to each room (an alias through the directory), logout', async () => {
    const matrix = (request: Received): Reply => {
      if (request.path === '/_matrix/client/v3/login') return request.body.includes('"password":"Mx-S3CRET"') ? { json: { access_token: 'syt_tok', user_id: '@wk:example.org' } } : { status: 403, json: { errcode: 'M_FORBIDDEN', error: 'Invalid password' } };
      if (request.path.startsWith('/_matrix/client/v3/directory/room/')) return { json: { room_id: '!ops:example.org' } };
      if (request.path.includes('/send/m.room.message/')) return request.headers.authorization === 'Bearer syt_tok' ? { json: { event_id: '$e1' } } : { status: 401, json: { error: 'Unknown token' } };
      if (request.path === '/_matrix/client/v3/logout') return { json: {} };
      return { status: 404, json: { errcode: 'M_UNRECOGNIZED' } };
    };
    const fields = { url: base, username: 'wk', password: 'Mx-S3CRET', properties: { rooms: '!abc:example.org, #ops:example.org' } };
    const { outcome, all } = await send('matrix', fields, matrix, { ...MESSAGE, html: '<b>Disk full</b>' });
    expect(outcome).toEqual({ ok: true, status: 200, message: 'sent to !abc:example.org, #ops:example.org' });
    expect(all.map((request) => `${request.method} ${request.path.replace(/[0-9a-f-]{36}$/, '{txn}')}`)).toEqual([
      'POST /_matrix/client/v3/login',
      'PUT /_matrix/client/v3/rooms/!abc%3Aexample.org/send/m.room.message/{txn}',
      'GET /_matrix/client/v3/directory/room/%23ops%3Aexample.org',
      'PUT /_matrix/client/v3/rooms/!ops%3Aexample.org/send/m.room.message/{txn}',
      'POST /_matrix/client/v3/logout',
    ]);
    expect(json(nth(all, 1))).toEqual({ msgtype: 'm.text', body: `${MESSAGE.title}\n${MESSAGE.text}`, format: 'org.matrix.custom.html', formatted_body: '<b>Disk full</b>' });
    const token = await send('matrix', { url: base, password: 'syt_tok', properties: { room: '!abc:example.org' } }, matrix);
    expect(token.all.map((request) => request.method)).toEqual(['PUT']);
    expect(token.outcome.ok).toBe(true);
    const refused = await send('matrix', { ...fields, password: 'Wrong-S3CRET' }, matrix);
    expect(refused.outcome).toMatchObject({ ok: false, status: 403, message: `POST ${base}/_matrix/client/v3/login: HTTP 403 Forbidden: Invalid password` });
    await expectServerError('matrix', { url: base, password: 'syt_tok', properties: { rooms: '!abc:example.org' } }, 'syt_tok');
  });
});

describe('the send id (issue 35: at-least-once with an idempotency key)', () => {
  const SEND_ID = '6f1f7c1e-9a52-4c1b-8d7e-2b7a0c0e5a11';
  const withId: ChannelMessage = { ...MESSAGE, sendId: SEND_ID };

  it('every HTTP channel sends it as X-Watchkeeper-Send-Id on each request, and nothing without one', async () => {
    const cases: Array<[string, Partial<Omit<ResolvedConnection, 'type'>>, (request: Received) => Reply]> = [
      ['generic_webhook', { url: `${base}/hook` }, () => ({ text: 'ok' })],
      ['slack', { url: `${base}/api`, password: 'xoxb-1', properties: { channel: 'C1' } }, () => ({ json: { ok: true } })],
      ['slack', { url: `${base}/services`, password: 'T/B/X', properties: { webhook: 'true' } }, () => ({ text: 'ok' })],
      ['teams', { url: base, password: 'o', properties: { group: 'g', tenant: 't', altID: 'a' } }, () => ({ text: '1' })],
      ['discord', { url: base, username: '1', password: 'd' }, () => ({ status: 204 })],
      ['ntfy', { url: base, properties: { topic: 'alerts' } }, () => ({ text: 'ok' })],
      ['opsgenie', { url: base, password: 'k' }, () => ({ status: 202, json: {} })],
      ['telegram', { url: base, password: 't', properties: { chats: '1,2' } }, () => ({ json: { ok: true } })],
    ];
    for (const [type, fields, reply] of cases) {
      const { outcome, all } = await send(type, fields, reply, withId);
      expect(outcome.ok, `${type}: ${outcome.message}`).toBe(true);
      for (const request of all) expect(request.headers['x-watchkeeper-send-id'], `${type} ${request.path}`).toBe(SEND_ID);
      const plain = await send(type, fields, reply);
      for (const request of plain.all) expect(request.headers['x-watchkeeper-send-id'], `${type} ${request.path}`).toBeUndefined();
    }
  });

  it('only the generic webhook adds sendId to its JSON body; Slack and Teams payloads are unchanged', async () => {
    const hook = await send('generic_webhook', { url: `${base}/hook` }, () => ({ text: 'ok' }), withId);
    expect(json(hook.last)).toEqual({ message: MESSAGE.text, title: MESSAGE.title, sendId: SEND_ID });
    const slack = await send('slack', { url: `${base}/api`, password: 'xoxb-1', properties: { channel: 'C1' } }, () => ({ json: { ok: true } }), withId);
    expect(json(slack.last)).toEqual({ channel: 'C1', text: `*${MESSAGE.title}*\n${MESSAGE.text}` });
    const teams = await send('teams', { url: base, password: 'o', properties: { group: 'g', tenant: 't', altID: 'a' } }, () => ({ text: '1' }), withId);
    expect(json(teams.last)).toEqual({ '@type': 'MessageCard', '@context': 'https://schema.org/extensions', summary: MESSAGE.title, title: MESSAGE.title, text: MESSAGE.text });
  });
});

describe('email', () => {
  interface Mail {
    from: string;
    to: string[];
    user: string | undefined;
    data: string;
  }
  const mails: Mail[] = [];
  let smtp: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === 'wk' && auth.password === 'Smtp-S3CRET') return callback(null, { user: auth.username });
        callback(new Error('Invalid username or password'));
      },
      onRcptTo(address, _session, callback) {
        if (address.address.endsWith('@nowhere.test')) return callback(new Error('No such user'));
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const from = session.envelope.mailFrom;
          mails.push({ from: from ? from.address : '', to: session.envelope.rcptTo.map((rcpt) => rcpt.address), user: typeof session.user === 'string' ? session.user : undefined, data: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    smtp.on('error', () => undefined);
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    const address = smtp.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  const fields = () => ({ username: 'wk', password: 'Smtp-S3CRET', properties: { host: '127.0.0.1', port: String(port), encryption: 'None', fromAddress: 'alerts@example.com', fromName: 'Watchkeeper', toAddresses: 'a@example.com, b@example.com' } });

  it('logs in and sends one multipart message: subject the title, a text and an html part', async () => {
    const outcome = await sendThrough(connection('email', fields()), { ...MESSAGE, html: '<p>Only <b>3%</b> left</p>' }, AbortSignal.timeout(5000));
    expect(outcome).toEqual({ ok: true, message: 'sent to a@example.com, b@example.com' });
    const mail = mails.at(-1);
    expect(mail).toMatchObject({ from: 'alerts@example.com', to: ['a@example.com', 'b@example.com'], user: 'wk' });
    expect(mail?.data).toContain(`Subject: ${MESSAGE.title}`);
    expect(mail?.data).toContain('From: Watchkeeper <alerts@example.com>');
    expect(mail?.data).toMatch(/Content-Type: multipart\/alternative/);
    expect(mail?.data).toMatch(/Content-Type: text\/plain[\s\S]*Only \*3%\* left on \/var/);
    expect(mail?.data).toMatch(/Content-Type: text\/html[\s\S]*<b>3%<\/b>/);
    expect(mail?.data).not.toMatch(/X-Watchkeeper-Send-Id/i);
  });

  it('a send id goes in the X-Watchkeeper-Send-Id header of the message', async () => {
    const outcome = await sendThrough(connection('email', fields()), { ...MESSAGE, sendId: '0b7e1d8e-1111-4a2b-9c3d-5e6f7a8b9c0d' }, AbortSignal.timeout(5000));
    expect(outcome.ok).toBe(true);
    // Header names are case-insensitive (the composer writes X-Watchkeeper-Send-ID).
    expect(mails.at(-1)?.data).toMatch(/^X-Watchkeeper-Send-Id: 0b7e1d8e-1111-4a2b-9c3d-5e6f7a8b9c0d\r?$/im);
  });

  it('a per-send `to` overrides the recipients; a refused recipient and a wrong password are failures without the password', async () => {
    expect((await sendThrough(connection('email', fields()), { ...MESSAGE, properties: { to: 'c@example.com' } }, AbortSignal.timeout(5000))).message).toBe('sent to c@example.com');
    expect(mails.at(-1)?.to).toEqual(['c@example.com']);
    const partly = await sendThrough(connection('email', fields()), { ...MESSAGE, properties: { to: 'c@example.com, x@nowhere.test' } }, AbortSignal.timeout(5000));
    expect(partly).toEqual({ ok: false, message: 'the server refused x@nowhere.test (sent to c@example.com)' });
    const wrong = await sendThrough(connection('email', { ...fields(), password: 'Wrong-S3CRET' }), MESSAGE, AbortSignal.timeout(5000));
    expect(wrong.ok).toBe(false);
    expect(wrong.message).toMatch(new RegExp(`^could not log in as wk to 127\\.0\\.0\\.1:${port}: .*Invalid username or password`));
    expect(wrong.message).not.toContain('Wrong-S3CRET');
    expect(await sendThrough(connection('email', { properties: { host: '127.0.0.1', port: String(port), encryption: 'None', fromAddress: 'a@example.com' } }), MESSAGE, AbortSignal.timeout(5000))).toEqual({ ok: false, message: 'toAddresses is required: the recipients, comma separated' });
  });
});
