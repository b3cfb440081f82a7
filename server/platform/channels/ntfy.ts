import { baseUrl } from '../connections/testers/shared';
import { basicAuthOf, callEach, failure, setting } from './http';
import type { ChannelSender } from './types';

/**
 * `ntfy`: POST https://{host}/{topic} (an http:// host stays http) with the text as the body, the title
 * and properties.priority (1-5 or min…max) as headers, basic auth when set.
 */
export const sendNtfy: ChannelSender = (connection, message, signal) => {
  const topic = setting(connection, message, 'topic');
  if (!topic) return Promise.resolve(failure('topic is required'));
  const priority = setting(connection, message, 'priority');
  const url = `${baseUrl(connection.url, 'ntfy.sh')}/${encodeURIComponent(topic)}`;
  const headers = { 'content-type': 'text/plain', title: message.title, ...(priority ? { priority } : {}) };
  return callEach(connection, signal, [{ url, method: 'POST', body: message.text, headers, ...basicAuthOf(connection) }], `topic ${topic}`);
};
