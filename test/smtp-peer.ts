import { SMTPServer } from 'smtp-server';
import { freePort } from '../server/platform/db/embedded';
import { testCertificates } from './peers/certificates';

export interface SmtpPeerOptions {
  /** TLS from the first byte (SMTPS, port 465 style) instead of plain SMTP. */
  implicitTLS?: boolean;
  /** Offer STARTTLS on a plain connection (ignored with implicitTLS). */
  starttls?: boolean;
  /** The one login accepted; AUTH is not offered without it. */
  login?: { username: string; password: string };
  /** Offer AUTH only on a TLS connection, as many real servers do. */
  authOnlyOverTLS?: boolean;
}

export interface SmtpSession {
  ehlo: string;
  secure: boolean;
  user: string | undefined;
}

/**
 * A local SMTP server for tests of clients that log in and negotiate TLS (connection tests): plain,
 * STARTTLS or implicit TLS with the test CA's certificate, AUTH PLAIN/LOGIN/CRAM-MD5 for one login. It
 * keeps what each session did (its EHLO name, TLS, who logged in). Loopback only.
 */
export async function startSmtpPeer(options: SmtpPeerOptions = {}): Promise<{ host: string; port: number; ca: string; sessions: SmtpSession[]; logins: string[]; close(): Promise<void> }> {
  const { ca, cert, key } = await testCertificates();
  const sessions: SmtpSession[] = [];
  const logins: string[] = [];
  const tls = options.implicitTLS || options.starttls;
  const server = new SMTPServer({
    secure: options.implicitTLS ?? false,
    ...(tls ? { key, cert } : {}),
    hideSTARTTLS: !options.starttls || options.implicitTLS === true,
    authMethods: ['PLAIN', 'LOGIN', 'CRAM-MD5'],
    authOptional: true,
    allowInsecureAuth: !options.authOnlyOverTLS,
    // hideSTARTTLS alone still accepts the command (with a built-in certificate): a server without it refuses it.
    disabledCommands: [...(options.login ? [] : ['AUTH']), ...(tls ? [] : ['STARTTLS'])],
    logger: false,
    onConnect(_session, callback) {
      callback();
    },
    onAuth(auth, session, callback) {
      logins.push(auth.username ?? '');
      const login = options.login;
      const good =
        login !== undefined &&
        auth.username === login.username &&
        (auth.method === 'CRAM-MD5' ? auth.validatePassword(login.password) : auth.password === login.password);
      if (!good) return callback(new Error('Invalid username or password'));
      sessions.push({ ehlo: session.hostNameAppearsAs, secure: session.secure, user: auth.username });
      callback(null, { user: auth.username });
    },
    onClose(session) {
      if (!session.user) sessions.push({ ehlo: session.hostNameAppearsAs, secure: session.secure, user: undefined });
    },
  });
  server.on('error', () => undefined);
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return { host: '127.0.0.1', port, ca, sessions, logins, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
