import { baseUrl, listOf } from '../connections/testers/shared';
import { callEach, failure, setting } from './http';
import type { ChannelSender } from './types';

/**
 * `ifttt`: POST {url}/trigger/{event}/with/key/{webhookID} (https://maker.ifttt.com by default) for each
 * of properties.events, with value1 the title, value2 the text and value3 properties.value3.
 */
export const sendIfttt: ChannelSender = (connection, message, signal) => {
  const events = listOf(setting(connection, message, 'events'));
  if (events.length === 0) return Promise.resolve(failure('events is required'));
  const base = baseUrl(connection.url, 'https://maker.ifttt.com');
  const json = { value1: message.title, value2: message.text, value3: setting(connection, message, 'value3') };
  const requests = events.map((event) => ({ url: `${base}/trigger/${encodeURIComponent(event)}/with/key/${connection.password}`, method: 'POST', json }));
  return callEach(connection, signal, requests, `event${events.length === 1 ? '' : 's'} ${events.join(', ')}`);
};
