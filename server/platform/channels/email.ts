import MailComposer from 'nodemailer/lib/mail-composer';
import SMTPConnection, { type SMTPConnectionAuth } from 'nodemailer/lib/smtp-connection';
import XOAuth2 from 'nodemailer/lib/xoauth2';
import type { ResolvedConnection } from '../connections/types';
import { listOf, reasonOf, secretsOf, TEST_TIMEOUT_MS } from '../connections/testers/shared';
import { failure, SEND_ID_HEADER, setting } from './http';
import type { ChannelSender } from './types';
import { assertEgressResolved } from '../egress-connect';
import { isOneOf } from '../../../common/guards';

const ENCRYPTIONS = ['None', 'ExplicitTLS', 'ImplicitTLS', 'Auto'] as const;

/**
 * The login properties.auth asks for: Plain and CRAMMD5 force that SASL method, OAuth2 sends the password
 * as an XOAUTH2 access token, Unknown (the default) takes the first method the server offers.
 */
function authOf(method: string, user: string, pass: string): SMTPConnectionAuth {
  if (method === 'OAuth2') return { user, oauth2: new XOAuth2({ user, accessToken: pass }) };
  return { user, pass, ...(method === 'Plain' ? { method: 'PLAIN' } : method === 'CRAMMD5' ? { method: 'CRAM-MD5' } : {}) };
}

/** An SMTP session after EHLO (and the login, when one is asked for). */
export interface SmtpSession {
  smtp: SMTPConnection;
  /** host:port */
  where: string;
  /** "over TLS", "after STARTTLS" or "without TLS". */
  security: string;
  /** The user that logged in, '' without a login. */
  user: string;
}

/**
 * Connects to properties.host:properties.port (587 by default; 465 for ImplicitTLS without a port), says
 * EHLO, logs in when a username is given, runs `use` and says QUIT. properties.encryption: None never
 * starts TLS, ExplicitTLS requires STARTTLS, ImplicitTLS speaks TLS from the start, Auto (the default)
 * upgrades when the server offers STARTTLS. insecure_tls accepts any certificate. properties.auth None
 * skips the login even with a username. The answer is `use`'s, or the failure in words.
 */
export async function withSmtp<T>(connection: ResolvedConnection, signal: AbortSignal, use: (session: SmtpSession) => Promise<T>): Promise<T | { error: string }> {
  const host = connection.properties.host?.trim() ?? '';
  if (!host) return { error: 'host is required' };
  const encryption = connection.properties.encryption?.trim() || 'Auto';
  if (!isOneOf(ENCRYPTIONS, encryption)) return { error: `encryption must be one of ${ENCRYPTIONS.join(', ')}` };
  const portText = connection.properties.port?.trim() || (encryption === 'ImplicitTLS' ? '465' : '587');
  if (!/^\d+$/.test(portText) || Number(portText) > 65535) return { error: `port ${JSON.stringify(portText)} is not a port number` };
  const port = Number(portText);
  // The egress policy judges the host (and its addresses) before the SMTP client connects.
  try {
    await assertEgressResolved(host);
  } catch (error) {
    return { error: `could not connect to ${host}:${port}: ${reasonOf(error, signal, secretsOf(connection))}` };
  }
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
    let user = '';
    if (connection.username && method !== 'None') {
      step = `log in as ${connection.username} to`;
      // Many servers offer AUTH only after STARTTLS: say so rather than let the login fail obscurely.
      if (!smtp.allowsAuth) return { error: `${where} does not offer AUTH ${security}, so ${connection.username} cannot log in` };
      const auth = authOf(method, connection.username, connection.password);
      await new Promise<void>((resolve, reject) => smtp.login(auth, (error) => (error ? reject(error) : resolve())));
      user = connection.username;
    }
    step = 'send through';
    lastError = undefined;
    return await use({ smtp, where, security, user });
  } catch (error) {
    return { error: `could not ${step} ${where}: ${reasonOf(lastError ?? error, signal, secretsOf(connection))}` };
  } finally {
    signal.removeEventListener('abort', abort);
    smtp.quit();
    smtp.close();
  }
}

/** The sender: properties.fromAddress (or from, else the username), named properties.fromName when set. */
function senderOf(connection: ResolvedConnection): { address: string; name: string } {
  const address = connection.properties.fromAddress?.trim() || connection.properties.from?.trim() || connection.username.trim();
  return { address, name: connection.properties.fromName?.trim() ?? '' };
}

/**
 * `email`: one multipart message (the text part, and the html part when given) with the title as its
 * subject, from fromAddress to toAddresses (comma separated; a message's `to` overrides them), over the
 * session withSmtp opens.
 */
export const sendEmail: ChannelSender = async (connection, message, signal) => {
  const from = senderOf(connection);
  if (!from.address) return failure('fromAddress is required (or a username that is an address)');
  const to = listOf(message.properties?.to || connection.properties.toAddresses || connection.properties.to);
  if (to.length === 0) return failure('toAddresses is required: the recipients, comma separated');
  const mail = new MailComposer({ from: from.name ? { name: from.name, address: from.address } : from.address, to, subject: message.title, text: message.text, ...(message.html ? { html: message.html } : {}), ...(message.sendId ? { headers: { [SEND_ID_HEADER]: message.sendId } } : {}) });
  const raw = await new Promise<Buffer>((resolve, reject) => mail.compile().build((error, built) => (error ? reject(error) : resolve(built))));
  const result = await withSmtp(connection, signal, async ({ smtp }) => {
    const info = await new Promise<SMTPConnection.SentMessageInfo>((resolve, reject) => smtp.send({ from: from.address, to }, raw, (error, sent) => (error ? reject(error) : resolve(sent))));
    return info;
  });
  if ('error' in result) return failure(result.error);
  if (result.rejected.length > 0) {
    const accepted = result.accepted.map(String);
    return failure(`the server refused ${result.rejected.map(String).join(', ')}${accepted.length > 0 ? ` (sent to ${accepted.join(', ')})` : ''}`);
  }
  return { ok: true, message: `sent to ${to.join(', ')}` };
};
