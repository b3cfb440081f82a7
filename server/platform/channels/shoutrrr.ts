import type { ResolvedConnection } from '../connections/types';

/**
 * Mission Control's notification recipients (`to.url`) are shoutrrr service URLs. Each form we accept
 * becomes a connection of the matching type, so it is sent by the same channel as a saved connection.
 * The URL is taken apart by hand rather than by WHATWG URL: shoutrrr writes `#channel` and `@user` in
 * paths and queries (a browser URL would read `#` as a fragment), and most hosts are no hosts at all (a
 * webhook id, a token).
 */

export type ShoutrrrParse = { ok: true; connection: ResolvedConnection } | { ok: false; error: string };

interface Parts {
  scheme: string;
  user: string;
  password: string;
  /** host[:port] as written */
  host: string;
  hostname: string;
  port: string;
  /** Path segments, decoded, without empty ones. */
  path: string[];
  query: URLSearchParams;
  /** The URL after `scheme://`, for the forms that forward it (generic+https://, googlechat://). */
  rest: string;
}

const decode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

function partsOf(url: string): Parts | undefined {
  const match = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/is.exec(url.trim());
  if (!match) return undefined;
  const scheme = (match[1] ?? '').toLowerCase();
  const rest = match[2] ?? '';
  const queryAt = rest.indexOf('?');
  const beforeQuery = queryAt === -1 ? rest : rest.slice(0, queryAt);
  const query = new URLSearchParams(queryAt === -1 ? '' : rest.slice(queryAt + 1));
  const slash = beforeQuery.indexOf('/');
  const authority = slash === -1 ? beforeQuery : beforeQuery.slice(0, slash);
  const path = (slash === -1 ? '' : beforeQuery.slice(slash + 1)).split('/').filter((segment) => segment !== '').map(decode);
  // The last @ ends the user info: a Zulip bot's address may be written with its own @ unencoded.
  const at = authority.lastIndexOf('@');
  const userInfo = at === -1 ? '' : authority.slice(0, at);
  const host = at === -1 ? authority : authority.slice(at + 1);
  const colon = userInfo.indexOf(':');
  const user = decode(colon === -1 ? userInfo : userInfo.slice(0, colon));
  const password = colon === -1 ? '' : decode(userInfo.slice(colon + 1));
  const portMatch = /^(.*?)(?::(\d+))?$/.exec(host);
  return { scheme, user, password, host, hostname: decode(portMatch?.[1] ?? host), port: portMatch?.[2] ?? '', path, query, rest };
}

/** Query values are read case-insensitively, as shoutrrr does. */
function param(parts: Parts, ...names: string[]): string {
  for (const [key, value] of parts.query) if (names.includes(key.toLowerCase())) return value.trim();
  return '';
}

const yes = (value: string) => /^(yes|true|1|on)$/i.test(value);

/** `?disabletls=yes` (or `scheme=http`) sends over plain http, for a local peer. */
const schemeOf = (parts: Parts) => (yes(param(parts, 'disabletls')) || param(parts, 'scheme') === 'http' ? 'http' : 'https');

const originOf = (parts: Parts) => `${schemeOf(parts)}://${parts.host}`;

function connection(type: string, fields: Partial<Omit<ResolvedConnection, 'type' | 'properties'>> & { properties?: Record<string, string | undefined> }): ResolvedConnection {
  const properties = Object.fromEntries(Object.entries(fields.properties ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''));
  return { id: '', name: type, namespace: '', url: '', username: '', password: '', certificate: '', insecureTLS: false, ...fields, type, properties };
}

type Parser = (parts: Parts) => ResolvedConnection | string;

const GENERIC_RESERVED = ['template', 'titlekey', 'messagekey', 'contenttype', 'requestmethod', 'disabletls', 'title'];

/** generic:// and generic+http(s)://: reserved values configure, `@Name` headers, `$key` body fields, the rest (and `_key` as key) goes on to the target. */
function generic(parts: Parts, scheme: string): ResolvedConnection {
  const properties: Record<string, string> = {};
  const forwarded = new URLSearchParams();
  for (const [key, value] of parts.query) {
    const lower = key.toLowerCase();
    if (key.startsWith('@')) properties[`header.${key.slice(1)}`] = value;
    else if (key.startsWith('$')) properties[`field.${key.slice(1)}`] = value;
    else if (key.startsWith('_')) forwarded.append(key.slice(1), value);
    else if (!GENERIC_RESERVED.includes(lower)) forwarded.append(key, value);
  }
  const query = forwarded.toString();
  const beforeQuery = parts.rest.split('?')[0] ?? '';
  const authority = beforeQuery.split('/')[0] ?? '';
  const target = `${scheme}://${authority.slice(authority.lastIndexOf('@') + 1)}${beforeQuery.slice(authority.length)}${query ? `?${query}` : ''}`;
  return connection('generic_webhook', {
    url: target,
    username: parts.user,
    password: parts.password,
    properties: { ...properties, method: param(parts, 'requestmethod'), titleKey: param(parts, 'titlekey'), messageKey: param(parts, 'messagekey'), contentType: param(parts, 'contenttype') },
  });
}

const PARSERS: Readonly<Record<string, Parser>> = {
  generic: (parts) => generic(parts, schemeOf(parts)),
  'generic+https': (parts) => generic(parts, 'https'),
  'generic+http': (parts) => generic(parts, 'http'),
  // A plain webhook URL: the JSON template as it is, the query kept.
  https: (parts) => connection('generic_webhook', { url: `https://${parts.rest}` }),
  http: (parts) => connection('generic_webhook', { url: `http://${parts.rest}` }),

  slack: (parts) => {
    const channel = parts.hostname;
    const botName = param(parts, 'botname') || (parts.password ? '' : parts.user);
    // slack://hook:A-B-C@webhook, and the legacy slack://[botname@]A/B/C
    if (parts.user === 'hook' && parts.password) return connection('slack', { password: parts.password.split('-').join('/'), properties: { webhook: 'true', botName: param(parts, 'botname'), channel: param(parts, 'channel') } });
    if (parts.path.length === 2 && !parts.password) return connection('slack', { password: [parts.hostname, ...parts.path].join('/'), properties: { webhook: 'true', botName, channel: param(parts, 'channel') } });
    // slack://xoxb:1234-5678-abc@C0123 (the token's prefix as the user), or slack://xoxb-1234-5678-abc@C0123
    const token = parts.password ? `${parts.user}-${parts.password}` : parts.user;
    if (!token.startsWith('xox')) return 'a slack:// URL needs a bot token (xoxb:…@channel) or a webhook (hook:…@webhook)';
    if (!channel) return 'a slack:// URL names the channel as its host: slack://xoxb:…@C0123';
    return connection('slack', { password: token, properties: { channel, botName: param(parts, 'botname') } });
  },

  smtp: (parts) => {
    const encryption = param(parts, 'encryption') || (param(parts, 'usestarttls') && !yes(param(parts, 'usestarttls')) ? 'None' : '');
    return connection('email', {
      username: parts.user,
      password: parts.password,
      properties: {
        host: parts.hostname,
        port: parts.port || '25',
        fromAddress: param(parts, 'from', 'fromaddress'),
        fromName: param(parts, 'fromname'),
        toAddresses: param(parts, 'to', 'toaddresses'),
        subject: param(parts, 'subject'),
        auth: param(parts, 'auth'),
        encryption,
      },
    });
  },

  // discord://token@webhookid
  discord: (parts) => (parts.user && parts.hostname ? connection('discord', { username: parts.hostname, password: parts.user }) : 'a discord:// URL is discord://token@webhookid'),

  // teams://group@tenant/altId/groupOwner[/extraId]?host=…: the extra id is the webhook path's last part, after the owner.
  teams: (parts) => {
    const [altID, ...owner] = parts.path;
    if (!parts.user || !parts.hostname || !altID || owner.length === 0) return 'a teams:// URL is teams://group@tenant/altId/groupOwner?host=…';
    const host = param(parts, 'host');
    return connection('teams', { url: host ? `${schemeOf(parts)}://${host}` : '', password: owner.join('/'), properties: { group: parts.user, tenant: parts.hostname, altID } });
  },

  // telegram://123456:ABC-token@telegram?chats=@channel,-100123 (the token's colon splits it into user and password)
  telegram: (parts) => {
    const token = parts.password ? `${parts.user}:${parts.password}` : parts.user;
    if (!token) return 'a telegram:// URL is telegram://token@telegram?chats=…';
    return connection('telegram', { password: token, properties: { chats: param(parts, 'chats', 'channels') } });
  },

  // ntfy://[user:password@]host[:port]/topic
  ntfy: (parts) => connection('ntfy', { url: originOf(parts), username: parts.user, password: parts.password, properties: { topic: parts.path[0] ?? '', priority: param(parts, 'priority') } }),

  // pushover://shoutrrr:apiToken@userKey/?devices=…&priority=…
  pushover: (parts) =>
    parts.password && parts.hostname ? connection('pushover', { username: parts.hostname, password: parts.password, properties: { devices: param(parts, 'devices'), priority: param(parts, 'priority') } }) : 'a pushover:// URL is pushover://shoutrrr:apiToken@userKey/',

  // pushbullet://token[/device][/#channel][/email]
  pushbullet: (parts) => (parts.hostname ? connection('pushbullet', { password: parts.hostname, properties: { targets: parts.path.join(',') } }) : 'a pushbullet:// URL is pushbullet://token/targets'),

  // mattermost://[user@]host[:port]/token[/channel]
  mattermost: (parts) =>
    parts.path[0] ? connection('mattermost', { url: originOf(parts), username: parts.user, password: parts.path[0], properties: { channel: parts.path[1] ?? param(parts, 'channel') } }) : 'a mattermost:// URL is mattermost://[user@]host/token[/channel]',

  // rocketchat://[user@]host[:port]/tokenA/tokenB[/channel or @user]
  rocketchat: (parts) => {
    const [tokenA, tokenB, channel] = parts.path;
    if (!tokenA || !tokenB) return 'a rocketchat:// URL is rocketchat://[user@]host/tokenA/tokenB[/channel]';
    return connection('rocketchat', { url: originOf(parts), username: parts.user, password: `${tokenA}/${tokenB}`, properties: { channel: channel ? (/^[#@]/.test(channel) ? channel : `#${channel}`) : '' } });
  },

  // googlechat://chat.googleapis.com/v1/spaces/…/messages?key=…&token=…
  googlechat: (parts) => connection('google_chat', { url: `${schemeOf(parts)}://${parts.rest.replace(/([?&])disabletls=[^&]*&?/i, '$1').replace(/[?&]$/, '')}` }),

  // zulip://bot-mail:bot-key@host[:port]/?stream=…&topic=…
  zulip: (parts) =>
    parts.user && parts.password ? connection('zulip_chat', { url: originOf(parts), username: parts.user, password: parts.password, properties: { stream: param(parts, 'stream'), topic: param(parts, 'topic') } }) : 'a zulip:// URL is zulip://botmail:botkey@host/?stream=…',

  // matrix://user:password@host[:port]/?rooms=!id,#alias; without a user the password is an access token
  matrix: (parts) => connection('matrix', { url: originOf(parts), username: parts.user, password: parts.password, properties: { rooms: param(parts, 'rooms', 'room') } }),

  // opsgenie://host[:port]/apikey?priority=…&responders=…&tags=…&alias=…
  opsgenie: (parts) =>
    parts.path[0]
      ? connection('opsgenie', {
          url: originOf(parts),
          password: parts.path[0],
          properties: { priority: param(parts, 'priority'), responders: param(parts, 'responders'), tags: param(parts, 'tags'), alias: param(parts, 'alias') },
        })
      : 'an opsgenie:// URL is opsgenie://host/apikey',

  // ifttt://webhookid/?events=a,b
  ifttt: (parts) => (parts.hostname ? connection('ifttt', { password: parts.hostname, properties: { events: param(parts, 'events'), value3: param(parts, 'value3') } }) : 'an ifttt:// URL is ifttt://key/?events=…'),
};

/** The schemes parseShoutrrr reads. */
export const SHOUTRRR_SCHEMES: readonly string[] = Object.keys(PARSERS);

/**
 * A shoutrrr service URL as a connection for sendThrough. A form we do not read is an error naming its
 * scheme; no error repeats the URL (it carries the service's token).
 */
export function parseShoutrrr(url: string): ShoutrrrParse {
  const parts = partsOf(url);
  if (!parts) return { ok: false, error: 'a notification URL starts with a scheme, such as slack:// or https://' };
  const parser = Object.hasOwn(PARSERS, parts.scheme) ? PARSERS[parts.scheme] : undefined;
  if (!parser) return { ok: false, error: `${parts.scheme}:// is not a notification URL this server sends to (one of ${SHOUTRRR_SCHEMES.map((scheme) => `${scheme}://`).join(', ')})` };
  const result = parser(parts);
  return typeof result === 'string' ? { ok: false, error: result } : { ok: true, connection: result };
}
