import { isRecord } from '../errors';
import { baseUrl, listOf } from '../connections/testers/shared';
import { callEach, failure, setting, textOf } from './http';
import type { ChannelSender } from './types';

/** `telegram`: POST {url}/bot{token}/sendMessage (https://api.telegram.org by default) for each of properties.chats. */
export const sendTelegram: ChannelSender = (connection, message, signal) => {
  const chats = listOf(setting(connection, message, 'chats'));
  if (chats.length === 0) return Promise.resolve(failure('chats is required: chat ids or @channel names'));
  const base = baseUrl(connection.url, 'https://api.telegram.org');
  const requests = chats.map((chat) => ({ url: `${base}/bot${connection.password}/sendMessage`, method: 'POST', json: { chat_id: chat, text: `${message.title}\n${message.text}` } }));
  return callEach(connection, signal, requests, chats.join(', '), (json) =>
    isRecord(json) && json.ok === true ? undefined : `Telegram refused the message: ${isRecord(json) ? textOf(json.description) || 'ok is false' : 'no JSON answer'}`,
  );
};
