import SMTPConnection, { type SMTPConnectionAuth } from 'nodemailer/lib/smtp-connection';
import XOAuth2 from 'nodemailer/lib/xoauth2';
import type { ConnectionTester } from '../types';
import { failed, passed, reasonOf, secretsOf, TEST_TIMEOUT_MS } from './shared';

const ENCRYPTIONS = ['None', 'ExplicitTLS', 'ImplicitTLS', 'Auto'] as const;

/**
 * The login properties.auth asks for: Plain and CRAMMD5 force that SASL method, OAuth2 sends the password
 * as an XOAUTH2 access token, Unknown (the default) takes the first method the server offers.
 */
function authOf(method: string, user: string, pass: string): SMTPConnectionAuth {
  if (method === 'OAuth2') return { user, oauth2: new XOAuth2({ user, accessToken: pass }) };
  return { user, pass, ...(method === 'Plain' ? { method: 'PLAIN' } : method === 'CRAMMD5' ? { method: 'CRAM-MD5' } : {}) };
}

/**
 * `email`: connects to properties.host:properties.port (587 by default; 465 for ImplicitTLS without a
 * port), says EHLO and logs in when a username is given; nothing is sent. properties.encryption: None
 * never starts TLS, ExplicitTLS requires STARTTLS, ImplicitTLS speaks TLS from the start, Auto (the
 * default) upgrades when the server offers STARTTLS. insecure_tls accepts any certificate. properties.auth
 * None skips the login even with a username.
 */
export const testEmail: ConnectionTester = async (connection, signal) => {
  const host = connection.properties.host?.trim() ?? '';
  if (!host) return failed('host is required');
  const encryption = connection.properties.encryption?.trim() || 'Auto';
  if (!(ENCRYPTIONS as readonly string[]).includes(encryption)) return failed(`encryption must be one of ${ENCRYPTIONS.join(', ')}`);
  const portText = connection.properties.port?.trim() || (encryption === 'ImplicitTLS' ? '465' : '587');
  if (!/^\d+$/.test(portText) || Number(portText) > 65535) return failed(`port ${JSON.stringify(portText)} is not a port number`);
  const port = Number(portText);
  const smtp = new SMTPConnection({
    host,
    port,
    secure: encryption === 'ImplicitTLS',
    requireTLS: encryption === 'ExplicitTLS',
    ignoreTLS: encryption === 'None',
    tls: { rejectUnauthorized: !connection.insecureTLS },
    connectionTimeout: TEST_TIMEOUT_MS,
    greetingTimeout: TEST_TIMEOUT_MS,
    socketTimeout: TEST_TIMEOUT_MS,
    socketCloseTimeout: 0,
    logger: false,
  });
  // Failures while connecting (refused, TLS, a rejected STARTTLS) arrive as 'error' events, not through
  // connect()'s callback; the listener also keeps a late one from being unhandled.
  let lastError: unknown;
  smtp.on('error', (error: unknown) => {
    lastError = error;
  });
  const abort = () => smtp.close();
  signal.addEventListener('abort', abort, { once: true });
  const where = `${host}:${port}`;
  let step = 'connect to';
  try {
    await new Promise<void>((resolve, reject) => {
      smtp.once('error', reject);
      smtp.once('end', () => reject(lastError ?? new Error('the connection was closed')));
      smtp.connect((error) => (error ? reject(error) : resolve()));
    });
    const security = smtp.secure ? (encryption === 'ImplicitTLS' ? 'over TLS' : 'after STARTTLS') : 'without TLS';
    const method = connection.properties.auth?.trim() || 'Unknown';
    if (connection.username && method !== 'None') {
      step = `log in as ${connection.username} to`;
      // Many servers offer AUTH only after STARTTLS: say so rather than let the login fail obscurely.
      if (!smtp.allowsAuth) return failed(`${where} does not offer AUTH ${security}, so ${connection.username} cannot log in`);
      const auth = authOf(method, connection.username, connection.password);
      await new Promise<void>((resolve, reject) => smtp.login(auth, (error) => (error ? reject(error) : resolve())));
      return passed(`${where} answered EHLO ${security} and accepted the login of ${connection.username}`);
    }
    return passed(`${where} answered EHLO ${security}`);
  } catch (error) {
    return failed(`could not ${step} ${where}: ${reasonOf(lastError ?? error, signal, secretsOf(connection))}`);
  } finally {
    signal.removeEventListener('abort', abort);
    smtp.quit();
    smtp.close();
  }
};
