import type pg from 'pg';
import { sendThrough, type ChannelMessage } from '../../platform/channels';
import { parseShoutrrr } from '../../platform/channels/shoutrrr';
import type { ResolvedConnection } from '../../platform/connections/types';
import { errorMessage } from '../../platform/jobs/db';
import { secretStore } from '../../platform/secrets';
import { resolveConnection, resolveEnvVar } from '../../platform/secrets/resolve';
import type { Recipient } from './recipients';
import { waitedFor } from './stored-rule';

/** How a message reaches its recipient: the connection (a stored one, a URL, a webhook, SMTP_URL) and the send. */

/** The server's SMTP_URL and sender address (EngineOptions). */
export interface SmtpOptions {
  smtpUrl?: string | undefined;
  smtpFrom?: string | undefined;
}

/** The connection a recipient's message goes through. */
async function connectionFor(pool: pg.Pool, smtp: SmtpOptions, recipient: Recipient, namespace: string): Promise<ResolvedConnection | string> {
  const store = secretStore(pool);
  const service = recipient.service;
  if (recipient.kind === 'person' || recipient.kind === 'email') {
    const to = recipient.kind === 'email' ? recipient.email : recipient.email;
    if (!to) return `${recipient.label} has no email address`;
    return smtpConnection(smtp, to);
  }
  if (!service) return 'the recipient names no service';
  if (service.kind === 'connection' && service.connection) {
    // A connection the rule waited for (saved before it existed) is looked up now, by its reference.
    if (!service.connection_id) return resolveConnection(store, service.connection, namespace, 'to.connection').catch((error: unknown) => waitedFor(error));
    return resolveConnection(store, service.connection, namespace, 'to.connection');
  }
  if (service.kind === 'url') {
    const parsed = parseShoutrrr(service.url ?? '');
    return parsed.ok ? parsed.connection : parsed.error;
  }
  if (service.kind === 'webhook' && service.webhook) {
    const hook = service.webhook;
    const base = service.connection
      ? await resolveConnection(store, service.connection, namespace, 'to.webhook.connection').catch((error: unknown) => {
          if (!service.connection_id) throw new Error(waitedFor(error));
          throw error;
        })
      : undefined;
    const value = async (envVar: unknown, where: string) => (envVar === undefined ? '' : typeof envVar === 'string' ? envVar : resolveEnvVar(store, namespace, envVar as { value?: unknown; valueFrom?: unknown }, where));
    const properties: Record<string, string> = { ...(base?.properties ?? {}), method: hook.method ?? 'POST' };
    for (const header of hook.headers ?? []) properties[`header.${header.name}`] = await value(header, `to.webhook.headers.${header.name}`);
    const bearer = await value(hook.bearer, 'to.webhook.bearer');
    if (bearer) properties['header.Authorization'] = `Bearer ${bearer}`;
    return {
      id: base?.id ?? '', name: base?.name ?? 'webhook', namespace, type: 'generic_webhook', url: hook.url ?? base?.url ?? '',
      username: (await value(hook.username, 'to.webhook.username')) || (base?.username ?? ''), password: (await value(hook.password, 'to.webhook.password')) || (base?.password ?? ''),
      certificate: '', insecureTLS: Boolean((hook.tls as { insecureSkipVerify?: boolean } | undefined)?.insecureSkipVerify) || (base?.insecureTLS ?? false), properties,
    };
  }
  return `cannot send to ${recipient.label}`;
}

/** Email to a person or address through the server's SMTP_URL. */
function smtpConnection(smtp: SmtpOptions, to: string): ResolvedConnection | string {
  if (!smtp.smtpUrl) return `no SMTP server is configured (SMTP_URL), so the email to ${to} cannot go out`;
  const url = new URL(smtp.smtpUrl);
  const loopback = ['localhost', '127.0.0.1', '::1'].includes(url.hostname);
  return {
    id: '', name: 'SMTP_URL', namespace: 'default', type: 'email', url: '',
    username: decodeURIComponent(url.username), password: decodeURIComponent(url.password), certificate: '',
    insecureTLS: loopback || url.searchParams.get('insecure') === 'true',
    properties: {
      host: url.hostname,
      port: url.port || (url.protocol === 'smtps:' ? '465' : '587'),
      encryption: url.protocol === 'smtps:' ? 'ImplicitTLS' : 'Auto',
      from: smtp.smtpFrom ?? 'watchkeeper@localhost',
      to,
      ...(url.username ? {} : { auth: 'None' }),
    },
  };
}

/** `permanent`: nothing to retry (no SMTP server, a connection or secret that cannot be read): it fails now. */
export async function sendTo(pool: pg.Pool, smtp: SmtpOptions, recipient: Recipient, message: ChannelMessage, namespace: string): Promise<{ ok: boolean; message: string; permanent?: boolean }> {
  let connection: ResolvedConnection | string;
  try {
    connection = await connectionFor(pool, smtp, recipient, namespace);
  } catch (error) {
    return { ok: false, message: errorMessage(error), permanent: true };
  }
  if (typeof connection === 'string') return { ok: false, message: connection, permanent: true };
  const properties = recipient.service?.properties;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('the channel did not answer within 30 s')), 30_000);
  try {
    const outcome = await sendThrough(connection, { ...message, ...(properties ? { properties } : {}) }, controller.signal);
    if (outcome.ok) return { ok: true, message: outcome.message };
    return { ok: false, message: [outcome.message, outcome.status ? `(HTTP ${outcome.status})` : '', outcome.excerpt ? `: ${outcome.excerpt}` : ''].filter(Boolean).join(' ') };
  } finally {
    clearTimeout(timer);
  }
}
