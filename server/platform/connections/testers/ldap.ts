import ldap from 'ldapjs';
import { assertEgressUrl } from '../../egress-connect';
import { redactConnection } from '../../peers/credentials';
import type { ConnectionTester } from '../types';
import { failed, passed, reasonOf, secretsOf, TEST_TIMEOUT_MS } from './shared';

/**
 * `ldap`: connects to url (ldap:// or ldaps://; insecure_tls accepts any certificate) and binds as
 * username with password; without a username, an anonymous bind, which proves the server speaks LDAP.
 */
export const testLdap: ConnectionTester = async (connection, signal) => {
  const url = connection.url.trim();
  if (!/^ldaps?:\/\/\S+$/i.test(url)) return failed('url must be ldap://host:389 or ldaps://host:636');
  // ldapjs connects as soon as the client exists: the egress policy judges the host first.
  try {
    await assertEgressUrl(url);
  } catch (error) {
    return failed(`could not connect to ${redactConnection(url)}: ${reasonOf(error, signal, secretsOf(connection))}`);
  }
  const client = ldap.createClient({ url, connectTimeout: TEST_TIMEOUT_MS, timeout: TEST_TIMEOUT_MS, reconnect: false, tlsOptions: { rejectUnauthorized: !connection.insecureTLS } });
  // Errors reach the pending step; this listener keeps a second one from crashing the server.
  client.on('error', () => undefined);
  const connected = new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('connectError', reject);
    client.once('connectTimeout', () => reject(new Error('connection timed out')));
    client.once('error', reject);
  });
  const abort = () => client.destroy();
  signal.addEventListener('abort', abort, { once: true });
  const who = connection.username ? `as ${connection.username}` : 'anonymously';
  let step = 'connect to';
  try {
    await connected;
    step = `bind ${who} to`;
    await new Promise<void>((resolve, reject) => client.bind(connection.username, connection.password, (error) => (error ? reject(error) : resolve())));
    return passed(`bound ${who} to ${redactConnection(url)}`);
  } catch (error) {
    return failed(`could not ${step} ${redactConnection(url)}: ${reasonOf(error, signal, secretsOf(connection))}`);
  } finally {
    signal.removeEventListener('abort', abort);
    connected.catch(() => undefined);
    client.destroy();
  }
};
