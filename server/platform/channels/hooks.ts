import { isRecord } from '../errors';
import { baseUrl } from '../connections/testers/shared';
import { callEach, setting, textOf } from './http';
import type { ChannelSender } from './types';

/**
 * Mattermost and Rocket.Chat incoming webhooks: POST {url}/hooks/{token} with markdown text, and the
 * channel (properties.channel) and username when set. Rocket.Chat's token is its two parts, `id/token`.
 */
function incomingHook(service: string): ChannelSender {
  return (connection, message, signal) => {
    const channel = setting(connection, message, 'channel');
    const json = { text: `**${message.title}**\n${message.text}`, ...(channel ? { channel } : {}), ...(connection.username ? { username: connection.username } : {}) };
    return callEach(connection, signal, [{ url: `${baseUrl(connection.url, '')}/hooks/${connection.password}`, method: 'POST', json }], channel, (answer) =>
      // Rocket.Chat answers 200 with `success: false` when the integration refuses the message.
      isRecord(answer) && answer.success === false ? `${service} refused the message: ${textOf(answer.error) || 'success is false'}` : undefined,
    );
  };
}

export const sendMattermost = incomingHook('Mattermost');
export const sendRocketChat = incomingHook('Rocket.Chat');
