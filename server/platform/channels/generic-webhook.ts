import { basicAuthOf, callEach, setting } from './http';
import type { ChannelSender } from './types';

/** The connection's properties that start with `prefix`, without it (shoutrrr's `@header` and `$field` query values). */
function prefixed(properties: Record<string, string>, prefix: string): Record<string, string> {
  return Object.fromEntries(Object.entries(properties).flatMap(([key, value]) => (key.startsWith(prefix) && key.length > prefix.length ? [[key.slice(prefix.length), value]] : [])));
}

/**
 * `generic_webhook`: properties.method (POST by default) to url with `{messageKey: text, titleKey: title}`
 * as a body of properties.contentType (application/json by default); GET puts both in the query instead.
 * Basic auth when a username or password is set. Properties `header.<Name>` add request headers and
 * `field.<key>` add body fields (what a shoutrrr `generic://` URL's `@Name=` and `$key=` values become).
 * A notification's send id goes in the JSON body as `sendId` (beside the X-Watchkeeper-Send-Id header every
 * HTTP channel sends), so a receiver that keeps only the body can deduplicate a re-send too.
 */
export const sendGenericWebhook: ChannelSender = (connection, message, signal) => {
  const method = (setting(connection, message, 'method') || 'POST').toUpperCase();
  const fields = { ...prefixed(connection.properties, 'field.'), [setting(connection, message, 'messageKey') || 'message']: message.text, [setting(connection, message, 'titleKey') || 'title']: message.title };
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
  const headers = prefixed(connection.properties, 'header.');
  const payload = message.sendId ? { ...fields, sendId: message.sendId } : fields;
  const body = method === 'GET' ? {} : { body: JSON.stringify(payload), headers: { ...headers, 'content-type': setting(connection, message, 'contentType') || 'application/json' } };
  return callEach(connection, signal, [{ url, method, headers, ...body, ...basicAuthOf(connection) }], '');
};
