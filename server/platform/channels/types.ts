import type { ResolvedConnection } from '../connections/types';

/** One notification as a channel delivers it. */
export interface ChannelMessage {
  title: string;
  /** The body: plain text or markdown, as the service renders it. */
  text: string;
  /** An HTML body; only email uses it (as the html part beside the text part). */
  html?: string;
  /** Per-send overrides of the connection's properties: channel, priority, to, topic, … */
  properties?: Record<string, string>;
  /**
   * The send's idempotency key (a notification_send_history row id): the same on every attempt of one
   * send, re-sends after a crash included. HTTP channels send it as the X-Watchkeeper-Send-Id header, the
   * generic webhook also as `sendId` in its JSON body, email as a header of the message.
   */
  sendId?: string;
}

/** What a send came to. */
export interface SendOutcome {
  ok: boolean;
  /** The peer's HTTP status, when it answered over HTTP. */
  status?: number;
  /** Short words: "sent to #ops", "Slack refused the message to C999: channel_not_found". Never a secret. */
  message: string;
  /** At most 300 characters of the peer's answer on failure, secrets masked. */
  excerpt?: string;
}

/** Delivers one message through a connection of one type within the signal's deadline. */
export type ChannelSender = (connection: ResolvedConnection, message: ChannelMessage, signal: AbortSignal) => Promise<SendOutcome>;
