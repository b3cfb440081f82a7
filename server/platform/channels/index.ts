import type { ResolvedConnection } from '../connections/types';
import { reasonOf, secretsOf } from '../connections/testers/shared';
import { withoutSecrets } from '../peers/credentials';
import { sendDiscord } from './discord';
import { sendEmail } from './email';
import { sendGenericWebhook } from './generic-webhook';
import { sendGoogleChat } from './google-chat';
import { sendMattermost, sendRocketChat } from './hooks';
import { EXCERPT_MAX, withSendId } from './http';
import { sendIfttt } from './ifttt';
import { sendMatrix } from './matrix';
import { sendNtfy } from './ntfy';
import { sendOpsgenie } from './opsgenie';
import { sendPushbullet } from './pushbullet';
import { sendPushover } from './pushover';
import { sendSlack } from './slack';
import { sendTeams } from './teams';
import { sendTelegram } from './telegram';
import type { ChannelMessage, ChannelSender, SendOutcome } from './types';
import { sendZulip } from './zulip';

export type { ChannelMessage, ChannelSender, SendOutcome } from './types';

/** One sender per notification connection type of common/connections.ts: adding a channel is a module and one line here. */
export const CHANNELS: Readonly<Record<string, ChannelSender>> = {
  discord: sendDiscord,
  email: sendEmail,
  generic_webhook: sendGenericWebhook,
  google_chat: sendGoogleChat,
  ifttt: sendIfttt,
  matrix: sendMatrix,
  mattermost: sendMattermost,
  ntfy: sendNtfy,
  opsgenie: sendOpsgenie,
  pushbullet: sendPushbullet,
  pushover: sendPushover,
  rocketchat: sendRocketChat,
  slack: sendSlack,
  teams: sendTeams,
  telegram: sendTelegram,
  zulip_chat: sendZulip,
};

/** The connection types a message can be sent through. */
export function channelTypes(): string[] {
  return Object.keys(CHANNELS).sort();
}

/**
 * Sends one message through the connection's channel. Never throws: an unknown type, a refusal, an
 * unreachable peer or a sender's own bug is `ok: false` in words; and neither the message nor the excerpt
 * carries a secret of the connection (password, certificate, the password of its URL, secret fields),
 * whatever the peer repeated. A message's `sendId` goes with every HTTP request of the send as the
 * X-Watchkeeper-Send-Id header.
 */
export async function sendThrough(connection: ResolvedConnection, message: ChannelMessage, signal: AbortSignal): Promise<SendOutcome> {
  const sender = Object.hasOwn(CHANNELS, connection.type) ? CHANNELS[connection.type] : undefined;
  if (!sender) return { ok: false, message: `${JSON.stringify(connection.type)} is not a notification channel (one of ${channelTypes().join(', ')})` };
  let secrets: string[] = [];
  let outcome: SendOutcome;
  try {
    secrets = secretsOf(connection);
    outcome = await withSendId(message.sendId, () => sender(connection, message, signal));
  } catch (error) {
    outcome = { ok: false, message: `the send failed: ${reasonOf(error, signal, secrets)}` };
  }
  const excerpt = outcome.excerpt === undefined ? undefined : withoutSecrets(outcome.excerpt, secrets).slice(0, EXCERPT_MAX);
  return { ...outcome, message: withoutSecrets(outcome.message, secrets), ...(excerpt !== undefined ? { excerpt } : {}) };
}
