import { SMTPServer } from 'smtp-server';
import { freePort } from '../server/platform/db/embedded';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/**
 * A local SMTP server that accepts every message and keeps it, for tests of mail the console sends
 * (recovery, verification and invitation codes). Loopback only, no authentication, no TLS.
 */
export async function startSmtpSink(): Promise<{ url: string; mails: ReceivedMail[]; next(to: string, timeoutMs?: number): Promise<ReceivedMail>; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** The first mail to `to` not seen yet by an earlier call, waiting up to `timeoutMs`. */
    async next(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = mails.findIndex((mail) => mail.to.includes(to));
        const [found] = index >= 0 ? mails.splice(index, 1) : [];
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first run of `digits` digits in a mail (a recovery or verification code). */
export function codeIn(mail: ReceivedMail, digits = 6): string {
  const body = mail.raw.split(/\r?\n\r?\n/).slice(1).join('\n');
  const match = new RegExp(`\\b(\\d{${digits}})\\b`).exec(body);
  if (!match?.[1]) throw new Error(`no ${digits}-digit code in the mail:\n${mail.raw}`);
  return match[1];
}
