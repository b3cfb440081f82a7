import { callEach } from './http';
import type { ChannelSender } from './types';

/** `google_chat`: POST the webhook url (a secret: it carries the key and token) with `{text}`. */
export const sendGoogleChat: ChannelSender = (connection, message, signal) => callEach(connection, signal, [{ url: connection.url, method: 'POST', json: { text: `*${message.title}*\n${message.text}` } }], '');
