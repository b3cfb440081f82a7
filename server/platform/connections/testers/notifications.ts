import { isRecord } from '../../errors';
import type { ConnectionTester, ResolvedConnection, TestOutcome } from '../types';
import { baseUrl, exchange, failed, jsonOf, listOf, passed, statusLine, TEST_MESSAGE, TEST_TITLE, type PeerRequest } from './shared';

/**
 * Notification services: each test sends one test message (or, where a service has no harmless way to
 * post, proves the credentials) to the service's own API path, built from the connection's url or host
 * so that a local HTTP peer can stand in for the service. ok when the service accepts it.
 */

/** Sends each request in turn; the first refusal is the answer, else `done` of the last answer. */
async function sendAll(connection: ResolvedConnection, signal: AbortSignal, requests: PeerRequest[], done: (json: unknown, status: number) => TestOutcome): Promise<TestOutcome> {
  let last: TestOutcome = failed('nothing to send');
  for (const peer of requests) {
    const result = await exchange(connection, signal, peer);
    if ('outcome' in result) return result.outcome;
    last = done(jsonOf(result.response), result.response.status);
    if (!last.ok) return last;
  }
  return last;
}

const sent = (where: string) => (_json: unknown, status: number) => passed(`${statusLine(status)}: test message sent${where ? ` to ${where}` : ''}`);
const basicAuth = (connection: ResolvedConnection) => (connection.username || connection.password ? { basicAuth: { username: connection.username, password: connection.password } } : {});
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * `generic_webhook`: properties.method (POST by default) to url with `{messageKey: …, titleKey: …}` as a
 * body of properties.contentType (application/json by default); GET puts both in the query instead.
 * Basic auth when a username or password is set.
 */
export const testGenericWebhook: ConnectionTester = async (connection, signal) => {
  const method = (connection.properties.method?.trim() || 'POST').toUpperCase();
  const fields = { [connection.properties.messageKey?.trim() || 'message']: TEST_MESSAGE, [connection.properties.titleKey?.trim() || 'title']: TEST_TITLE };
  let url = connection.url.trim();
  if (method === 'GET') {
    try {
      const parsed = new URL(url);
      for (const [key, value] of Object.entries(fields)) parsed.searchParams.set(key, value);
      url = parsed.toString();
    } catch {
      // The request names the bad url.
    }
  }
  const body = method === 'GET' ? {} : { body: JSON.stringify(fields), headers: { 'content-type': connection.properties.contentType?.trim() || 'application/json' } };
  return sendAll(connection, signal, [{ url, method, ...body, ...basicAuth(connection) }], sent(''));
};

/** `ntfy`: POST https://{host}/{topic} (an http:// host stays http) with the message, its title and basic auth when set. */
export const testNtfy: ConnectionTester = async (connection, signal) => {
  const topic = connection.properties.topic?.trim();
  if (!topic) return failed('topic is required');
  const url = `${baseUrl(connection.url, 'ntfy.sh')}/${encodeURIComponent(topic)}`;
  return sendAll(connection, signal, [{ url, method: 'POST', body: TEST_MESSAGE, headers: { 'content-type': 'text/plain', title: TEST_TITLE }, ...basicAuth(connection) }], sent(`topic ${topic}`));
};

/**
 * `slack`: POST {url}/auth.test with the bot token (https://slack.com/api by default), then
 * chat.postMessage to properties.channel. Slack answers 200 with `ok: false` and an `error` code when it refuses.
 */
export const testSlack: ConnectionTester = async (connection, signal) => {
  const channel = connection.properties.channel?.trim();
  if (!channel) return failed('channel is required');
  const base = baseUrl(connection.url, 'https://slack.com/api');
  const call = (method: string, json: Record<string, unknown>): PeerRequest => ({ url: `${base}/${method}`, method: 'POST', json, headers: { 'content-type': 'application/json; charset=utf-8' }, bearerToken: connection.password });
  let who = '';
  const slackSaid = (step: string, then: (json: Record<string, unknown>) => TestOutcome) => (json: unknown) =>
    isRecord(json) && json.ok === true ? then(json) : failed(`Slack refused ${step}: ${isRecord(json) && typeof json.error === 'string' ? json.error : 'no ok in the answer'}`);
  const auth = await sendAll(connection, signal, [call('auth.test', {})], slackSaid('the token', (json) => {
    who = [text(json.user) && `as ${text(json.user)}`, text(json.team) && `in ${text(json.team)}`].filter(Boolean).join(' ');
    return passed('');
  }));
  if (!auth.ok) return auth;
  const botName = connection.properties.botName?.trim();
  const message = { channel, text: `*${TEST_TITLE}*\n${TEST_MESSAGE}`, ...(botName ? { username: botName } : {}) };
  return sendAll(connection, signal, [call('chat.postMessage', message)], slackSaid(`the message to ${channel}`, () => passed(`authenticated${who ? ` ${who}` : ''}; test message posted to ${channel}`)));
};

/** Mattermost and Rocket.Chat incoming webhooks: POST {url}/hooks/{token} with text, channel and username when set. */
function incomingHook(service: string): ConnectionTester {
  return async (connection, signal) => {
    const channel = connection.properties.channel?.trim();
    const json = { text: `**${TEST_TITLE}**\n${TEST_MESSAGE}`, ...(channel ? { channel } : {}), ...(connection.username ? { username: connection.username } : {}) };
    return sendAll(connection, signal, [{ url: `${baseUrl(connection.url, '')}/hooks/${connection.password}`, method: 'POST', json }], (answer, status) =>
      // Rocket.Chat answers 200 with `success: false` when the integration refuses the message.
      isRecord(answer) && answer.success === false ? failed(`${service} refused the message: ${text(answer.error) || 'success is false'}`) : sent(channel ?? '')(answer, status),
    );
  };
}

export const testMattermost = incomingHook('Mattermost');
export const testRocketChat = incomingHook('Rocket.Chat');

/** `google_chat`: POST the webhook url (a secret: it carries the key and token) with `{text}`. */
export const testGoogleChat: ConnectionTester = (connection, signal) =>
  sendAll(connection, signal, [{ url: connection.url, method: 'POST', json: { text: `*${TEST_TITLE}*\n${TEST_MESSAGE}` } }], sent(''));

/** `teams`: POST https://{host}/webhookb2/{group}@{tenant}/IncomingWebhook/{altID}/{groupOwner} with a MessageCard. */
export const testTeams: ConnectionTester = async (connection, signal) => {
  const { group, tenant, altID } = connection.properties;
  if (!group?.trim() || !tenant?.trim() || !altID?.trim()) return failed('group, tenant and altID are all needed to build the webhook URL');
  const url = `${baseUrl(connection.url, 'outlook.office.com')}/webhookb2/${group.trim()}@${tenant.trim()}/IncomingWebhook/${altID.trim()}/${connection.password}`;
  const card = { '@type': 'MessageCard', '@context': 'https://schema.org/extensions', summary: TEST_TITLE, title: TEST_TITLE, text: TEST_MESSAGE };
  return sendAll(connection, signal, [{ url, method: 'POST', json: card }], sent(''));
};

/** `discord`: POST {url}/api/webhooks/{webhookID}/{token} (https://discord.com by default) with `{content}`. */
export const testDiscord: ConnectionTester = (connection, signal) =>
  sendAll(
    connection,
    signal,
    [{ url: `${baseUrl(connection.url, 'https://discord.com')}/api/webhooks/${encodeURIComponent(connection.username)}/${connection.password}`, method: 'POST', json: { content: `**${TEST_TITLE}**\n${TEST_MESSAGE}` } }],
    sent(''),
  );

/** `telegram`: POST {url}/bot{token}/sendMessage (https://api.telegram.org by default) for each of properties.chats. */
export const testTelegram: ConnectionTester = async (connection, signal) => {
  const chats = listOf(connection.properties.chats);
  if (chats.length === 0) return failed('chats is required: chat ids or @channel names');
  const base = baseUrl(connection.url, 'https://api.telegram.org');
  const requests = chats.map((chat) => ({ url: `${base}/bot${connection.password}/sendMessage`, method: 'POST', json: { chat_id: chat, text: `${TEST_TITLE}\n${TEST_MESSAGE}` } }));
  return sendAll(connection, signal, requests, (json) =>
    isRecord(json) && json.ok === true ? passed(`test message sent to ${chats.join(', ')}`) : failed(`Telegram refused the message: ${isRecord(json) ? text(json.description) || 'ok is false' : 'no JSON answer'}`),
  );
};

/** `pushover`: POST https://api.pushover.net/1/messages.json (url overrides the origin) with the app token and user key. */
export const testPushover: ConnectionTester = (connection, signal) =>
  sendAll(
    connection,
    signal,
    [{ url: `${baseUrl(connection.url, 'https://api.pushover.net')}/1/messages.json`, method: 'POST', json: { token: connection.password, user: connection.username, title: TEST_TITLE, message: TEST_MESSAGE } }],
    (json, status) =>
      isRecord(json) && json.status === 1 ? sent('')(json, status) : failed(`Pushover refused the message: ${isRecord(json) && Array.isArray(json.errors) ? json.errors.map(String).join('; ') : 'status is not 1'}`),
  );

/**
 * `pushbullet`: POST https://api.pushbullet.com/v2/pushes (url overrides) with `Access-Token`, a note to
 * each of properties.targets: `#tag` a channel, an address with @ an email, anything else a device.
 */
export const testPushbullet: ConnectionTester = async (connection, signal) => {
  const url = `${baseUrl(connection.url, 'https://api.pushbullet.com')}/v2/pushes`;
  const targets = listOf(connection.properties.targets);
  const targetOf = (target: string) => (target.startsWith('#') ? { channel_tag: target.slice(1) } : target.includes('@') ? { email: target } : { device_iden: target });
  const requests = (targets.length > 0 ? targets.map(targetOf) : [{}]).map((target) => ({ url, method: 'POST', headers: { 'access-token': connection.password }, json: { type: 'note', title: TEST_TITLE, body: TEST_MESSAGE, ...target } }));
  return sendAll(connection, signal, requests, sent(targets.join(', ')));
};

/**
 * `matrix`: GET {url}/_matrix/client/versions, then proves the credentials without posting to a room:
 * with a user, a password login (and a logout of the session it made); without one, the password is an
 * access token that /account/whoami must accept.
 */
export const testMatrix: ConnectionTester = async (connection, signal) => {
  const base = baseUrl(connection.url, '');
  let versions = '';
  const server = await sendAll(connection, signal, [{ url: `${base}/_matrix/client/versions` }], (json) => {
    versions = isRecord(json) && Array.isArray(json.versions) ? json.versions.map(String).at(-1) ?? '' : '';
    return isRecord(json) && Array.isArray(json.versions) ? passed('') : failed(`${base} did not answer as a Matrix server (no versions)`);
  });
  if (!server.ok) return server;
  const shown = versions ? ` (client API ${versions})` : '';
  const matrixError = (json: unknown) => (isRecord(json) ? text(json.error) || text(json.errcode) : '');
  if (!connection.username) {
    return sendAll(connection, signal, [{ url: `${base}/_matrix/client/v3/account/whoami`, bearerToken: connection.password }], (json) =>
      isRecord(json) && typeof json.user_id === 'string' ? passed(`Matrix server${shown} accepted the access token of ${json.user_id}`) : failed(`Matrix refused the access token: ${matrixError(json) || 'no user_id'}`),
    );
  }
  let token = '';
  const login = await sendAll(
    connection,
    signal,
    [{ url: `${base}/_matrix/client/v3/login`, method: 'POST', json: { type: 'm.login.password', identifier: { type: 'm.id.user', user: connection.username }, password: connection.password, initial_device_display_name: 'Watchkeeper connection test' } }],
    (json) => {
      token = isRecord(json) ? text(json.access_token) : '';
      return token ? passed(`Matrix server${shown} accepted the login of ${isRecord(json) ? text(json.user_id) || connection.username : connection.username}`) : failed(`Matrix refused the login: ${matrixError(json) || 'no access token'}`);
    },
  );
  if (token) await exchange(connection, signal, { url: `${base}/_matrix/client/v3/logout`, method: 'POST', json: {}, bearerToken: token });
  return login;
};

/**
 * `zulip_chat`: POST {url}/api/v1/messages as botMail:botKey (basic auth), form-encoded as Zulip reads it:
 * to properties.stream and topic when a stream is set, else a direct message to the bot itself.
 */
export const testZulip: ConnectionTester = async (connection, signal) => {
  const stream = connection.properties.stream?.trim();
  const form = new URLSearchParams(
    stream ? { type: 'stream', to: stream, topic: connection.properties.topic?.trim() || TEST_TITLE, content: TEST_MESSAGE } : { type: 'private', to: JSON.stringify([connection.username]), content: TEST_MESSAGE },
  );
  return sendAll(
    connection,
    signal,
    [{ url: `${baseUrl(connection.url, '')}/api/v1/messages`, method: 'POST', body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' }, ...basicAuth(connection) }],
    (json, status) => (isRecord(json) && json.result === 'success' ? sent(stream ?? connection.username)(json, status) : failed(`Zulip refused the message: ${isRecord(json) ? text(json.msg) || 'result is not success' : 'no JSON answer'}`)),
  );
};

/** `ifttt`: POST {url}/trigger/{event}/with/key/{webhookID} (https://maker.ifttt.com by default) for each of properties.events. */
export const testIfttt: ConnectionTester = async (connection, signal) => {
  const events = listOf(connection.properties.events);
  if (events.length === 0) return failed('events is required');
  const base = baseUrl(connection.url, 'https://maker.ifttt.com');
  const requests = events.map((event) => ({ url: `${base}/trigger/${encodeURIComponent(event)}/with/key/${connection.password}`, method: 'POST', json: { value1: TEST_TITLE, value2: TEST_MESSAGE, value3: '' } }));
  return sendAll(connection, signal, requests, sent(`event${events.length === 1 ? '' : 's'} ${events.join(', ')}`));
};

/**
 * `opsgenie`: GET https://{host}:{port}/v2/heartbeats with `Authorization: GenieKey …`: it proves the API
 * key without opening an alert (a host written with http:// or a port keeps them).
 */
export const testOpsgenie: ConnectionTester = async (connection, signal) => {
  const host = connection.url.trim() || 'api.opsgenie.com';
  const port = connection.properties.port?.trim() || '443';
  const base = /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host.replace(/\/+$/, '') : `https://${host}${port === '443' ? '' : `:${port}`}`;
  return sendAll(connection, signal, [{ url: `${base}/v2/heartbeats`, headers: { authorization: `GenieKey ${connection.password}`, accept: 'application/json' } }], (json, status) => {
    const count = isRecord(json) && isRecord(json.data) && Array.isArray(json.data.heartbeats) ? json.data.heartbeats.length : undefined;
    return passed(`${statusLine(status)}: OpsGenie accepted the API key${count !== undefined ? ` (${count} heartbeat${count === 1 ? '' : 's'})` : ''}`);
  });
};
