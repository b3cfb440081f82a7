import { isRecord } from '../errors';
import { baseUrl } from '../connections/testers/shared';
import { callEach, setting } from './http';
import type { ChannelSender } from './types';

/**
 * `pushover`: POST https://api.pushover.net/1/messages.json (url overrides the origin) with the app token
 * (password), the user key (username), and properties.priority and devices when set. Pushover says no with `status: 0`.
 */
export const sendPushover: ChannelSender = (connection, message, signal) => {
  const priority = setting(connection, message, 'priority');
  const devices = setting(connection, message, 'devices');
  const json = { token: connection.password, user: connection.username, title: message.title, message: message.text, ...(priority ? { priority: Number(priority) } : {}), ...(devices ? { device: devices } : {}) };
  return callEach(connection, signal, [{ url: `${baseUrl(connection.url, 'https://api.pushover.net')}/1/messages.json`, method: 'POST', json }], '', (answer) =>
    isRecord(answer) && answer.status === 1 ? undefined : `Pushover refused the message: ${isRecord(answer) && Array.isArray(answer.errors) ? answer.errors.map(String).join('; ') : 'status is not 1'}`,
  );
};
