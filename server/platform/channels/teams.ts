import { baseUrl } from '../connections/testers/shared';
import { callEach, failure } from './http';
import type { ChannelSender } from './types';

/**
 * `teams`: POST https://{host}/webhookb2/{group}@{tenant}/IncomingWebhook/{altID}/{groupOwner} (host is
 * url, outlook.office.com by default; groupOwner is the password) with a MessageCard.
 */
export const sendTeams: ChannelSender = (connection, message, signal) => {
  const [group, tenant, altID] = [connection.properties.group?.trim(), connection.properties.tenant?.trim(), connection.properties.altID?.trim()];
  if (!group || !tenant || !altID) return Promise.resolve(failure('group, tenant and altID are all needed to build the webhook URL'));
  const url = `${baseUrl(connection.url, 'outlook.office.com')}/webhookb2/${group}@${tenant}/IncomingWebhook/${altID}/${connection.password}`;
  const card = { '@type': 'MessageCard', '@context': 'https://schema.org/extensions', summary: message.title, title: message.title, text: message.text };
  return callEach(connection, signal, [{ url, method: 'POST', json: card }], '');
};
