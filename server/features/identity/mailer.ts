import nodemailer from 'nodemailer';
import type { Config } from '../../platform/config';
import type { Logger } from '../../platform/logger';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** True when mail really leaves the server; false when it only goes to the log. */
  readonly delivers: boolean;
  send(mail: Mail): Promise<void>;
}

/**
 * Mail through the SMTP server of SMTP_URL. Without one, each message is written to the server log at
 * warn level (where an operator finds a recovery code on a fresh install), and the flows say so.
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'smtpFrom'>, log: Logger): Mailer {
  if (!config.smtpUrl) {
    return {
      delivers: false,
      async send(mail) {
        log.warn({ to: mail.to, subject: mail.subject, mail: mail.text }, `no SMTP server is configured (SMTP_URL): mail to ${mail.to} written here instead`);
      },
    };
  }
  const url = new URL(config.smtpUrl);
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    // A mail server on this machine often has a self-signed certificate; STARTTLS is still attempted.
    tls: { rejectUnauthorized: url.searchParams.get('insecure') !== 'true' && !['localhost', '127.0.0.1', '::1'].includes(url.hostname) },
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
  });
  return {
    delivers: true,
    async send(mail) {
      await transport.sendMail({ from: config.smtpFrom, to: mail.to, subject: mail.subject, text: mail.text });
      log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
    },
  };
}
