import { isRecord } from '../errors';
import type { ResolvedConnection } from '../connections/types';
import { baseUrl, type PeerRequest } from '../connections/testers/shared';
import { call, callEach, delivered, failure, refused, setting, type Exchange } from './http';
import type { ChannelMessage, ChannelSender } from './types';

/** The Web API base: url, https://slack.com/api by default. */
export const slackApi = (connection: ResolvedConnection): string => baseUrl(connection.url, 'https://slack.com/api');

/** One Slack Web API method called with the bot token. Slack answers 200 with `ok: false` and an `error` code when it refuses. */
export function slackCall(connection: ResolvedConnection, signal: AbortSignal, method: string, json: Record<string, unknown>): Promise<Exchange> {
  const peer: PeerRequest = { url: `${slackApi(connection)}/${method}`, method: 'POST', json, headers: { 'content-type': 'application/json; charset=utf-8' }, bearerToken: connection.password };
  return call(connection, signal, peer);
}

/** Why Slack said no, or undefined when it said ok. */
export const slackRefusal = (json: unknown): string | undefined => (isRecord(json) && json.ok === true ? undefined : isRecord(json) && typeof json.error === 'string' ? json.error : 'no ok in the answer');

const slackText = (message: ChannelMessage) => `*${message.title}*\n${message.text}`;

/**
 * `slack`: chat.postMessage to properties.channel with the bot token (password), as properties.botName
 * when set. A connection whose properties.webhook is set (shoutrrr's `slack://hook:…`) posts to the
 * incoming webhook {url}/{password} instead (https://hooks.slack.com/services by default).
 */
export const sendSlack: ChannelSender = async (connection, message, signal) => {
  const channel = setting(connection, message, 'channel');
  const botName = setting(connection, message, 'botName');
  if (connection.properties.webhook) {
    const url = `${baseUrl(connection.url, 'https://hooks.slack.com/services')}/${connection.password}`;
    const json = { text: slackText(message), ...(channel ? { channel } : {}), ...(botName ? { username: botName } : {}) };
    return callEach(connection, signal, [{ url, method: 'POST', json }], channel);
  }
  if (!channel) return failure('channel is required');
  const result = await slackCall(connection, signal, 'chat.postMessage', { channel, text: slackText(message), ...(botName ? { username: botName } : {}) });
  if ('outcome' in result) return result.outcome;
  const refusal = slackRefusal(result.json);
  if (refusal !== undefined) return refused(result.response, `Slack refused the message to ${channel}: ${refusal}`);
  return delivered(result.response, channel);
};
