import type { Config } from '../../platform/config';
import type { Logger } from '../../platform/logger';
import { createMailer, type Mailer } from '../identity';

/** What the invite answers about its mail (docs/HOSTED.md "Organizations admin"). */
export type InviteMailResult = { email_sent: true } | { email_sent: false; email_error?: string };

export interface InviteMail {
  to: string;
  organization: string;
  /** The console as the inviting administrator reaches it (the invited person signs in at `<console>/login`). */
  consoleUrl: string;
  invitedBy: string | undefined;
}

/**
 * The invitation mail of hosted mode: sent when the console has a mail server (SMTP_URL, the mailer of the
 * built-in invite) and signs people in through a provider; it says where to sign in and through whom.
 * Without a mail server nothing is sent (email_sent: false); a mail server that fails is reported in
 * email_error, and the membership stands.
 */
export function inviteMailer(config: Pick<Config, 'smtpUrl' | 'smtpFrom' | 'oidc'>, log: Logger): (mail: InviteMail) => Promise<InviteMailResult> {
  const mailer: Mailer | undefined = config.smtpUrl ? createMailer(config, log) : undefined;
  const issuerHost = config.oidc ? new URL(config.oidc.issuer).host : undefined;
  return async (mail) => {
    if (!mailer?.delivers || !issuerHost) return { email_sent: false };
    const login = `${mail.consoleUrl}/login`;
    try {
      await mailer.send({
        to: mail.to,
        subject: `You are invited to ${mail.organization} on Watchkeeper`,
        text: [
          `${mail.invitedBy ? `${mail.invitedBy} invited you` : 'You are invited'} to the organization ${mail.organization} on Watchkeeper.`,
          '',
          `To join, open ${login} and sign in through ${issuerHost} with this address (${mail.to}).`,
          '',
          'If you did not expect this invitation, you can ignore this mail.',
        ].join('\n'),
      });
      return { email_sent: true };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      log.warn({ to: mail.to, reason }, 'the invitation mail could not be sent');
      return { email_sent: false, email_error: `the invitation mail could not be sent through SMTP_URL: ${reason}` };
    }
  };
}
