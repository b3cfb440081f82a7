import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ResolvedConnection } from '../connections/types';
import { sendThrough } from './index';
import { parseShoutrrr, SHOUTRRR_SCHEMES } from './shoutrrr';

/** The connection a URL becomes (id, name, namespace and certificate left out), or the parse error. */
function parsed(url: string): Partial<ResolvedConnection> {
  const result = parseShoutrrr(url);
  if (!result.ok) throw new Error(result.error);
  const { id: _id, name: _name, namespace: _namespace, certificate: _certificate, ...rest } = result.connection;
  return rest;
}

const error = (url: string): string => {
  const result = parseShoutrrr(url);
  return result.ok ? '' : result.error;
};

const none = { url: '', username: '', password: '', insecureTLS: false };

describe('parseShoutrrr', () => {
  it('slack: a bot token with its channel, a webhook in both forms', () => {
    expect(parsed('slack://xoxb:1234-5678-Abc@C0123?botname=WK')).toEqual({ ...none, type: 'slack', password: 'xoxb-1234-5678-Abc', properties: { channel: 'C0123', botName: 'WK' } });
    expect(parsed('slack://xoxb-1234-5678-Abc@C0123')).toEqual({ ...none, type: 'slack', password: 'xoxb-1234-5678-Abc', properties: { channel: 'C0123' } });
    expect(parsed('slack://hook:T000-B000-XXXX@webhook')).toEqual({ ...none, type: 'slack', password: 'T000/B000/XXXX', properties: { webhook: 'true' } });
    expect(parsed('slack://wk@T000/B000/XXXX')).toEqual({ ...none, type: 'slack', password: 'T000/B000/XXXX', properties: { webhook: 'true', botName: 'wk' } });
    expect(error('slack://nothing@C0123')).toMatch(/bot token/);
  });

  it('smtp: login, host, port and the mail fields', () => {
    expect(parsed('smtp://wk:p%40ss@mail.example.com:587/?from=alerts@example.com&to=a@example.com,b@example.com&fromname=Watchkeeper&encryption=ExplicitTLS&auth=Plain')).toEqual({
      ...none,
      type: 'email',
      username: 'wk',
      password: 'p@ss',
      properties: { host: 'mail.example.com', port: '587', fromAddress: 'alerts@example.com', fromName: 'Watchkeeper', toAddresses: 'a@example.com,b@example.com', encryption: 'ExplicitTLS', auth: 'Plain' },
    });
    expect(parsed('smtp://mail.example.com/?from=a@x&to=b@x&usestarttls=no').properties).toEqual({ host: 'mail.example.com', port: '25', fromAddress: 'a@x', toAddresses: 'b@x', encryption: 'None' });
  });

  it('generic: https by default, http with disabletls or generic+http; headers, fields, keys; the rest forwarded', () => {
    expect(parsed('generic://hooks.example.com/api/alert?template=json&titlekey=subject&messagekey=body&@X-Token=abc&$team=ops&source=wk&_template=raw')).toEqual({
      ...none,
      type: 'generic_webhook',
      url: 'https://hooks.example.com/api/alert?source=wk&template=raw',
      properties: { 'header.X-Token': 'abc', 'field.team': 'ops', titleKey: 'subject', messageKey: 'body' },
    });
    expect(parsed('generic://127.0.0.1:8080/hook?disabletls=yes').url).toBe('http://127.0.0.1:8080/hook');
    expect(parsed('generic+http://127.0.0.1:8080/hook').url).toBe('http://127.0.0.1:8080/hook');
    expect(parsed('generic+https://user:pw@example.com/hook?requestmethod=GET')).toMatchObject({ url: 'https://example.com/hook', username: 'user', password: 'pw', properties: { method: 'GET' } });
    expect(parsed('https://example.com/hook?key=k1')).toEqual({ ...none, type: 'generic_webhook', url: 'https://example.com/hook?key=k1', properties: {} });
    expect(parsed('http://127.0.0.1:9/hook').url).toBe('http://127.0.0.1:9/hook');
  });

  it('discord, teams and telegram', () => {
    expect(parsed('discord://Dc-TOKEN@123456')).toEqual({ ...none, type: 'discord', username: '123456', password: 'Dc-TOKEN', properties: {} });
    expect(parsed('teams://grp@tnt/alt/owner?host=org.webhook.office.com')).toEqual({ ...none, type: 'teams', url: 'https://org.webhook.office.com', password: 'owner', properties: { group: 'grp', tenant: 'tnt', altID: 'alt' } });
    expect(parsed('teams://grp@tnt/alt/owner/extra').password).toBe('owner/extra');
    expect(error('teams://grp@tnt/alt')).toMatch(/teams:\/\/group@tenant/);
    expect(parsed('telegram://110201543:AAHd-Tok@telegram?chats=@ops,-100123')).toEqual({ ...none, type: 'telegram', password: '110201543:AAHd-Tok', properties: { chats: '@ops,-100123' } });
  });

  it('ntfy, pushover and pushbullet', () => {
    expect(parsed('ntfy://me:pw@ntfy.example.com/alerts?priority=4')).toEqual({ ...none, type: 'ntfy', url: 'https://ntfy.example.com', username: 'me', password: 'pw', properties: { topic: 'alerts', priority: '4' } });
    expect(parsed('ntfy://127.0.0.1:8080/alerts?scheme=http').url).toBe('http://127.0.0.1:8080');
    expect(parsed('pushover://shoutrrr:Po-TOKEN@uKEY/?devices=phone&priority=1')).toEqual({ ...none, type: 'pushover', username: 'uKEY', password: 'Po-TOKEN', properties: { devices: 'phone', priority: '1' } });
    expect(parsed('pushbullet://Pb-TOKEN/dev1/#ops/me@example.com')).toEqual({ ...none, type: 'pushbullet', password: 'Pb-TOKEN', properties: { targets: 'dev1,#ops,me@example.com' } });
  });

  it('mattermost, rocketchat, googlechat, zulip', () => {
    expect(parsed('mattermost://wk@mm.example.com/mm-TOKEN/town-square')).toEqual({ ...none, type: 'mattermost', url: 'https://mm.example.com', username: 'wk', password: 'mm-TOKEN', properties: { channel: 'town-square' } });
    expect(parsed('rocketchat://wk@rc.example.com:3000/id1/Rc-TOKEN/general')).toEqual({ ...none, type: 'rocketchat', url: 'https://rc.example.com:3000', username: 'wk', password: 'id1/Rc-TOKEN', properties: { channel: '#general' } });
    expect(parsed('rocketchat://rc.example.com/id1/Rc-TOKEN/@alice').properties).toEqual({ channel: '@alice' });
    expect(parsed('googlechat://chat.googleapis.com/v1/spaces/AAA/messages?key=K&token=T')).toEqual({ ...none, type: 'google_chat', url: 'https://chat.googleapis.com/v1/spaces/AAA/messages?key=K&token=T', properties: {} });
    expect(parsed('zulip://bot%40zulip.example:Zu-KEY@zulip.example.com/?stream=ops&topic=alerts')).toEqual({ ...none, type: 'zulip_chat', url: 'https://zulip.example.com', username: 'bot@zulip.example', password: 'Zu-KEY', properties: { stream: 'ops', topic: 'alerts' } });
    expect(parsed('zulip://bot@zulip.example:Zu-KEY@zulip.example.com/?stream=ops').username).toBe('bot@zulip.example');
  });

  it('matrix, opsgenie, ifttt', () => {
    expect(parsed('matrix://wk:Mx-PASS@matrix.example.org/?rooms=!abc:example.org,#ops:example.org')).toEqual({ ...none, type: 'matrix', url: 'https://matrix.example.org', username: 'wk', password: 'Mx-PASS', properties: { rooms: '!abc:example.org,#ops:example.org' } });
    expect(parsed('matrix://:syt_tok@127.0.0.1:8008/?rooms=!abc:x&disableTLS=yes')).toMatchObject({ url: 'http://127.0.0.1:8008', username: '', password: 'syt_tok' });
    expect(parsed('opsgenie://api.eu.opsgenie.com/Og-KEY?priority=P1&responders=team:ops')).toEqual({ ...none, type: 'opsgenie', url: 'https://api.eu.opsgenie.com', password: 'Og-KEY', properties: { priority: 'P1', responders: 'team:ops' } });
    expect(parsed('ifttt://If-KEY/?events=alert,page')).toEqual({ ...none, type: 'ifttt', password: 'If-KEY', properties: { events: 'alert,page' } });
  });

  it('an unknown scheme or no scheme is an error naming the scheme, never the URL', () => {
    expect(error('gotify://gotify.example.com/S3CRET')).toMatch(/^gotify:\/\/ is not a notification URL this server sends to \(one of .*slack:\/\//);
    expect(error('gotify://gotify.example.com/S3CRET')).not.toContain('S3CRET');
    expect(error('just text')).toBe('a notification URL starts with a scheme, such as slack:// or https://');
    expect(SHOUTRRR_SCHEMES).toContain('generic+https');
  });
});

describe('a parsed URL sends through its channel', () => {
  it('ntfy over http to a local peer', async () => {
    const requests: Array<{ path: string; title: string | undefined; body: string }> = [];
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        requests.push({ path: request.url ?? '', title: typeof request.headers.title === 'string' ? request.headers.title : undefined, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"id":"x"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const { port } = server.address() as AddressInfo;
      const result = parseShoutrrr(`ntfy://127.0.0.1:${port}/alerts?disabletls=yes`);
      if (!result.ok) throw new Error(result.error);
      expect(await sendThrough(result.connection, { title: 'Hello', text: 'World' }, AbortSignal.timeout(5000))).toEqual({ ok: true, status: 200, message: 'sent to topic alerts' });
      expect(requests).toEqual([{ path: '/alerts', title: 'Hello', body: 'World' }]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
