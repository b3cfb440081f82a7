import type { ResolvedConnection } from '../connections/types';
import { listOf } from '../connections/testers/shared';
import { callEach, failure, setting } from './http';
import type { ChannelSender } from './types';

/**
 * The Alert API origin: https://{host}:{port} from url (api.opsgenie.com by default) and properties.port
 * (443 by default, then left out); a host written with a scheme (http:// for a local peer) is kept as it is.
 */
export function opsgenieApi(connection: ResolvedConnection): string {
  const host = connection.url.trim() || 'api.opsgenie.com';
  const port = connection.properties.port?.trim() || '443';
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host.replace(/\/+$/, '') : `https://${host}${port === '443' ? '' : `:${port}`}`;
}

export const genieKey = (connection: ResolvedConnection) => ({ authorization: `GenieKey ${connection.password}` });

/** OpsGenie takes a message of at most 130 characters. */
const MESSAGE_MAX = 130;

/** `team:ops, user:me@example.com` as OpsGenie's responders: a user by username, the others by name. */
function respondersOf(text: string): Array<Record<string, string>> {
  return listOf(text).map((item) => {
    const [type = '', ...rest] = item.split(':');
    const value = rest.join(':');
    const responder: Record<string, string> = type === 'user' ? { type, username: value } : { type, name: value };
    return responder;
  });
}

/**
 * `opsgenie`: POST {api}/v2/alerts with `Authorization: GenieKey {apiKey}` and `{message: title (at most
 * 130 characters), description: text}`, plus properties.priority (P1…P5), responders (`team:name`,
 * `user:address`, comma separated), tags and alias when set. OpsGenie answers 202 and creates the alert later.
 */
export const sendOpsgenie: ChannelSender = (connection, message, signal) => {
  const priority = setting(connection, message, 'priority');
  if (priority && !/^P[1-5]$/.test(priority)) return Promise.resolve(failure(`priority ${JSON.stringify(priority)} is not one of P1, P2, P3, P4, P5`));
  const responders = respondersOf(setting(connection, message, 'responders'));
  const tags = listOf(setting(connection, message, 'tags'));
  const alias = setting(connection, message, 'alias');
  const json = {
    message: message.title.slice(0, MESSAGE_MAX),
    description: message.text,
    ...(priority ? { priority } : {}),
    ...(responders.length > 0 ? { responders } : {}),
    ...(tags.length > 0 ? { tags } : {}),
    ...(alias ? { alias } : {}),
  };
  return callEach(connection, signal, [{ url: `${opsgenieApi(connection)}/v2/alerts`, method: 'POST', json, headers: { ...genieKey(connection), accept: 'application/json' } }], '');
};
