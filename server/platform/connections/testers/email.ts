import { withSmtp } from '../../channels/email';
import type { ConnectionTester } from '../types';
import { failed, passed } from './shared';

/**
 * `email`: the email channel's SMTP session (host, port, encryption, login: see withSmtp) up to EHLO and
 * the login, then QUIT; nothing is sent, so a test never mails anyone.
 */
export const testEmail: ConnectionTester = async (connection, signal) => {
  const result = await withSmtp(connection, signal, async ({ where, security, user }) => `${where} answered EHLO ${security}${user ? ` and accepted the login of ${user}` : ''}`);
  return typeof result === 'string' ? passed(result) : failed(result.error);
};
