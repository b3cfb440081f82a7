import { sendThrough } from '../../channels';
import { matrixBase, matrixError, matrixLogout, matrixSession } from '../../channels/matrix';
import { genieKey, opsgenieApi } from '../../channels/opsgenie';
import { slackCall, slackRefusal } from '../../channels/slack';
import type { ChannelMessage, SendOutcome } from '../../channels/types';
import { isRecord } from '../../errors';
import type { ConnectionTester, ResolvedConnection, TestOutcome } from '../types';
import { exchange, failed, jsonOf, listOf, passed, statusLine, TEST_MESSAGE, TEST_TITLE, type PeerRequest } from './shared';

/**
 * Notification services: each test sends the test message through the type's channel
 * (server/platform/channels), so the test speaks the service's API exactly as a notification does; the
 * URL is built from the connection's url or host, so a local HTTP peer can stand in for the service. ok
 * when the service accepts it. Where posting would do harm (an OpsGenie alert pages someone) or has no
 * target (a Matrix connection without rooms), the test proves the credentials instead.
 */

const TEST: ChannelMessage = { title: TEST_TITLE, text: TEST_MESSAGE };

/** `HTTP 200 OK: test message sent to #ops`, or the channel's failure as it is. */
const asTest = (outcome: SendOutcome, said = (sent: SendOutcome) => `${sent.status !== undefined ? `${statusLine(sent.status)}: ` : ''}test message ${sent.message}`): TestOutcome =>
  outcome.ok ? passed(said(outcome)) : failed(outcome.message);

/** A tester that sends the test message through the type's channel. */
const throughChannel =
  (said?: (sent: SendOutcome) => string): ConnectionTester =>
  async (connection, signal) =>
    asTest(await sendThrough(connection, TEST, signal), said);

export const testGenericWebhook = throughChannel();
export const testNtfy = throughChannel();
export const testMattermost = throughChannel();
export const testRocketChat = throughChannel();
export const testGoogleChat = throughChannel();
export const testTeams = throughChannel();
export const testDiscord = throughChannel();
export const testTelegram = throughChannel((sent) => `test message ${sent.message}`);
export const testPushover = throughChannel();
export const testPushbullet = throughChannel();
export const testZulip = throughChannel();
export const testIfttt = throughChannel();

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * `slack`: auth.test with the bot token first (so a bad token is named as such), then the test message
 * through the channel. An incoming-webhook connection (shoutrrr's `slack://hook:…`) has no token to check.
 */
export const testSlack: ConnectionTester = async (connection, signal) => {
  if (connection.properties.webhook) return asTest(await sendThrough(connection, TEST, signal));
  if (!connection.properties.channel?.trim()) return failed('channel is required');
  const auth = await slackCall(connection, signal, 'auth.test', {});
  if ('outcome' in auth) return failed(auth.outcome.message);
  const refusal = slackRefusal(auth.json);
  if (refusal !== undefined) return failed(`Slack refused the token: ${refusal}`);
  const json = isRecord(auth.json) ? auth.json : {};
  const who = [text(json.user) && `as ${text(json.user)}`, text(json.team) && `in ${text(json.team)}`].filter(Boolean).join(' ');
  return asTest(await sendThrough(connection, TEST, signal), (sent) => `authenticated${who ? ` ${who}` : ''}; test message posted to ${sent.message.replace(/^sent to /, '')}`);
};

/** One request that only reads (no message is posted): its refusal, or `done` of the answer. */
async function probe(connection: ResolvedConnection, signal: AbortSignal, peer: PeerRequest, done: (json: unknown, status: number) => TestOutcome): Promise<TestOutcome> {
  const result = await exchange(connection, signal, peer);
  return 'outcome' in result ? result.outcome : done(jsonOf(result.response), result.response.status);
}

/**
 * `matrix`: GET {url}/_matrix/client/versions, then with properties.rooms the test message through the
 * channel; without rooms it proves the credentials without posting: with a user, the channel's password
 * login (and a logout of the session it made); without one, the password is an access token that
 * /account/whoami must accept.
 */
export const testMatrix: ConnectionTester = async (connection, signal) => {
  const base = matrixBase(connection);
  let versions = '';
  const server = await probe(connection, signal, { url: `${base}/_matrix/client/versions` }, (json) => {
    versions = isRecord(json) && Array.isArray(json.versions) ? json.versions.map(String).at(-1) ?? '' : '';
    return isRecord(json) && Array.isArray(json.versions) ? passed('') : failed(`${base} did not answer as a Matrix server (no versions)`);
  });
  if (!server.ok) return server;
  const shown = versions ? ` (client API ${versions})` : '';
  if (listOf(connection.properties.rooms).length > 0) return asTest(await sendThrough(connection, TEST, signal), (sent) => `Matrix server${shown}: test message ${sent.message}`);
  if (!connection.username) {
    return probe(connection, signal, { url: `${base}/_matrix/client/v3/account/whoami`, bearerToken: connection.password }, (json) =>
      isRecord(json) && typeof json.user_id === 'string' ? passed(`Matrix server${shown} accepted the access token of ${json.user_id}`) : failed(`Matrix refused the access token: ${matrixError(json) || 'no user_id'}`),
    );
  }
  const session = await matrixSession(connection, signal, 'Watchkeeper connection test');
  if ('outcome' in session) return failed(session.outcome.message);
  await matrixLogout(connection, signal, session);
  return passed(`Matrix server${shown} accepted the login of ${session.userId}`);
};

/**
 * `opsgenie`: GET {api}/v2/heartbeats with the channel's `Authorization: GenieKey …`: it proves the API
 * key without opening an alert (a test alert would page whoever is on call).
 */
export const testOpsgenie: ConnectionTester = (connection, signal) =>
  probe(connection, signal, { url: `${opsgenieApi(connection)}/v2/heartbeats`, headers: { ...genieKey(connection), accept: 'application/json' } }, (json, status) => {
    const count = isRecord(json) && isRecord(json.data) && Array.isArray(json.data.heartbeats) ? json.data.heartbeats.length : undefined;
    return passed(`${statusLine(status)}: OpsGenie accepted the API key${count !== undefined ? ` (${count} heartbeat${count === 1 ? '' : 's'})` : ''}`);
  });
