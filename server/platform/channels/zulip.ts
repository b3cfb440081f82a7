import { isRecord } from '../errors';
import { baseUrl } from '../connections/testers/shared';
import { basicAuthOf, callEach, setting, textOf } from './http';
import type { ChannelSender } from './types';

/**
 * `zulip_chat`: POST {url}/api/v1/messages as botMail:botKey (basic auth), form-encoded as Zulip reads it:
 * to properties.stream under properties.topic (the title when unset), else a direct message to the bot itself.
 */
export const sendZulip: ChannelSender = (connection, message, signal) => {
  const stream = setting(connection, message, 'stream');
  const form = new URLSearchParams(
    stream ? { type: 'stream', to: stream, topic: setting(connection, message, 'topic') || message.title, content: message.text } : { type: 'private', to: JSON.stringify([connection.username]), content: `**${message.title}**\n${message.text}` },
  );
  return callEach(
    connection,
    signal,
    [{ url: `${baseUrl(connection.url, '')}/api/v1/messages`, method: 'POST', body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' }, ...basicAuthOf(connection) }],
    stream || connection.username,
    (json) => (isRecord(json) && json.result === 'success' ? undefined : `Zulip refused the message: ${isRecord(json) ? textOf(json.msg) || 'result is not success' : 'no JSON answer'}`),
  );
};
