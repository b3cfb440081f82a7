import { basicAuthOf, callEach, setting } from './http';
import type { ChannelSender } from './types';

/**
 * `generic_webhook`: properties.method (POST by default) to url with `{messageKey: text, titleKey: title}`
 * as a body of properties.contentType (application/json by default); GET puts both in the query instead.
 * Basic auth when a username or password is set.
 */
export const sendGenericWebhook: ChannelSender = (connection, message, signal) => {
  const method = (setting(connection, message, 'method') || 'POST').toUpperCase();
  const fields = { [setting(connection, message, 'messageKey') || 'message']: message.text, [setting(connection, message, 'titleKey') || 'title']: message.title };
  let url = connection.url.trim();
  if (method === 'GET') {
    try {
      const parsed = new URL(url);
      for (const [key, value] of Object.entries(fields)) parsed.searchParams.set(key, value);
      url = parsed.toString();
    } catch {
      // The request names the bad url.
    }
  }
  const body = method === 'GET' ? {} : { body: JSON.stringify(fields), headers: { 'content-type': setting(connection, message, 'contentType') || 'application/json' } };
  return callEach(connection, signal, [{ url, method, ...body, ...basicAuthOf(connection) }], '');
};
