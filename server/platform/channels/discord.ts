import { baseUrl } from '../connections/testers/shared';
import { callEach } from './http';
import type { ChannelSender } from './types';

/** `discord`: POST {url}/api/webhooks/{webhookID}/{token} (https://discord.com by default) with `{content}`; the id is the username. */
export const sendDiscord: ChannelSender = (connection, message, signal) =>
  callEach(connection, signal, [{ url: `${baseUrl(connection.url, 'https://discord.com')}/api/webhooks/${encodeURIComponent(connection.username)}/${connection.password}`, method: 'POST', json: { content: `**${message.title}**\n${message.text}` } }], '');
