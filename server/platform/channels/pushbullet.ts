import { baseUrl, listOf } from '../connections/testers/shared';
import { callEach, setting } from './http';
import type { ChannelSender } from './types';

/**
 * `pushbullet`: POST https://api.pushbullet.com/v2/pushes (url overrides) with `Access-Token`, a note to
 * each of properties.targets: `#tag` a channel, an address with @ an email, anything else a device.
 */
export const sendPushbullet: ChannelSender = (connection, message, signal) => {
  const url = `${baseUrl(connection.url, 'https://api.pushbullet.com')}/v2/pushes`;
  const targets = listOf(setting(connection, message, 'targets'));
  const targetOf = (target: string) => (target.startsWith('#') ? { channel_tag: target.slice(1) } : target.includes('@') ? { email: target } : { device_iden: target });
  const requests = (targets.length > 0 ? targets.map(targetOf) : [{}]).map((target) => ({ url, method: 'POST', headers: { 'access-token': connection.password }, json: { type: 'note', title: message.title, body: message.text, ...target } }));
  return callEach(connection, signal, requests, targets.join(', '));
};
