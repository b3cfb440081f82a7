import { z } from 'zod';
import { isRecord } from '../errors';
import { redactDeep, redactText, type RedactOptions } from '../secrets/redact';
import { valueFromReference } from '../secrets/resolve';

/**
 * The problem of a malformed `valueFrom` (a secretKeyRef without a key, …), or undefined for one that
 * names what to read. What it names is read when the check, scrape or action runs
 * (server/platform/secrets/spec-references.ts), as upstream reads it: a missing secret fails that run.
 */
export function valueFromIssue(valueFrom: unknown): { code: 'custom'; message: string } | undefined {
  const ref = valueFromReference(valueFrom);
  return typeof ref === 'string' ? { code: 'custom', message: ref } : undefined;
}

/**
 * A canary-checker EnvVar field (`password: {value: s3cret}`, `{valueFrom: {secretKeyRef: {name, key}}}`),
 * or a plain text. A valueFrom is resolved before the spec is read for a run, so here it only has to be
 * well formed.
 */
export const envVarField = z
  .union([z.string(), z.object({ value: z.string().optional(), valueFrom: z.unknown().optional() }).loose()], {
    message: 'must be a text or {value: "…"}',
  })
  .superRefine((raw, ctx) => {
    if (typeof raw === 'string') return;
    if (raw.valueFrom !== undefined) {
      const issue = valueFromIssue(raw.valueFrom);
      if (issue) ctx.addIssue({ ...issue, path: ['valueFrom'] });
    } else if (raw.value === undefined) ctx.addIssue({ code: 'custom', message: 'must be a text or {value: "…"}' });
  })
  .transform((raw) => (typeof raw === 'string' ? raw : (raw.value ?? '')));

/** A named EnvVar as in canary-checker's `headers` and `env` lists: `{name, value}` or `{name, valueFrom}`. */
export const namedEnvVarField = z
  .object({ name: z.string({ message: 'is required' }).min(1, 'is required'), value: z.string().optional(), valueFrom: z.unknown().optional() })
  .loose()
  .superRefine((raw, ctx) => {
    if (raw.valueFrom === undefined) return;
    const issue = valueFromIssue(raw.valueFrom);
    if (issue) ctx.addIssue({ ...issue, path: ['valueFrom'] });
  })
  .transform((raw) => ({ name: raw.name, value: raw.value ?? '' }));

/** Scheme-prefixed URLs (postgres://, redis://, ldap://, http://…), as opposed to key=value or Go DSN forms. */
export function isUrlForm(text: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
}

/**
 * canary-checker writes credentials into connection URLs as `$(username)` and `$(password)`. In URL form the
 * values are percent-encoded, so a password with `@` or `/` cannot break the URL; elsewhere they go in as written.
 * A URL without credentials gets the username and password fields as its user info.
 */
export function withCredentials(template: string, username: string | undefined, password: string | undefined): string {
  const url = isUrlForm(template);
  const encode = (value: string) => (url ? encodeURIComponent(value) : value);
  const text = template.replaceAll('$(username)', encode(username ?? '')).replaceAll('$(password)', encode(password ?? ''));
  if (!url || (!username && !password)) return text;
  try {
    const parsed = new URL(text);
    if (!parsed.username && username) parsed.username = encodeURIComponent(username);
    if (!parsed.password && password) parsed.password = encodeURIComponent(password);
    return parsed.toString();
  } catch {
    return text;
  }
}

/** A connection string fit to show: the password of a URL's user info and `password=…` pairs are masked. */
export function redactConnection(text: string): string {
  let shown = text.replace(/(password\s*=\s*)('[^']*'|[^\s;&]*)/gi, '$1***');
  if (isUrlForm(shown)) {
    // Not `new URL`: it would re-encode the rest of the text; only the user info changes.
    shown = shown.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i, (_match, scheme: string, userInfo: string) => {
      const colon = userInfo.indexOf(':');
      return colon === -1 ? `${scheme}${userInfo}@` : `${scheme}${userInfo.slice(0, colon)}:***@`;
    });
  } else {
    // Go DSN (user:password@tcp(host)/db): the password sits between the first ':' and the last '@' before the address.
    shown = shown.replace(/^([^:@/]*):(.*)@((?:tcp|unix)?\(|\/)/, '$1:***@$3');
  }
  return shown;
}

/** The password in a URL's user info (decoded), to keep it out of messages. */
export function urlPassword(text: string): string | undefined {
  if (!isUrlForm(text)) return undefined;
  try {
    return decodeURIComponent(new URL(text).password) || undefined;
  } catch {
    return undefined;
  }
}

/** Check results, scrapers and connection tests show a secret as *** (server/platform/secrets/redact.ts does the work). */
const CHECK_REDACTION: RedactOptions = { mask: '***', minLength: 3, encodings: false };

/** Removes every secret from a text (an error message may quote a connection string or a credential). */
export function withoutSecrets(text: string, secrets: ReadonlyArray<string | undefined>): string {
  return redactText(text, secrets, CHECK_REDACTION);
}

/** Every text inside a value (results, details, variables) without the given secrets; other values as they are. */
export function withoutSecretsDeep<T>(value: T, secrets: ReadonlyArray<string | undefined>): T {
  return redactDeep(value, secrets, CHECK_REDACTION);
}

/** The message of anything thrown, without the given secrets. */
export function safeMessage(error: unknown, secrets: ReadonlyArray<string | undefined>): string {
  const message = error instanceof Error ? error.message || error.name : isRecord(error) && typeof error.message === 'string' ? error.message : String(error);
  return withoutSecrets(message, secrets);
}

/** What an API answer shows in place of a secret (migration 0009 redact_secrets does the same in SQL). */
export const SECRET_MASK = '******';

const URL_PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*):[^@/\s]+@/i;

/** A URL with the password of its user info masked, as redact_secrets shows it. */
export function maskUrlPassword(text: string): string {
  return text.replace(URL_PASSWORD, `$1:${SECRET_MASK}@`);
}

/**
 * A spec saved from an editor that was shown masked secrets: every `******` (and every URL whose password
 * shows as `******`) where the stored spec has a value at the same path gets the stored value back, so
 * saving never replaces a secret with the mask. Anything the user typed is kept.
 */
export function restoreSecrets(incoming: unknown, stored: unknown): unknown {
  if (incoming === SECRET_MASK) return stored !== undefined && stored !== null ? stored : incoming;
  // The console's forms write a secret as {value: …}, so a masked `password: s3cret` comes back as
  // {value: ******}: the stored text stands.
  if (isRecord(incoming) && typeof stored === 'string' && Object.keys(incoming).length === 1 && incoming.value === SECRET_MASK) return stored;
  if (typeof incoming === 'string') {
    return typeof stored === 'string' && incoming.includes(`:${SECRET_MASK}@`) && maskUrlPassword(stored) === incoming ? stored : incoming;
  }
  if (Array.isArray(incoming)) return incoming.map((item, index) => restoreSecrets(item, Array.isArray(stored) ? stored[index] : undefined));
  if (isRecord(incoming)) return Object.fromEntries(Object.entries(incoming).map(([key, value]) => [key, restoreSecrets(value, isRecord(stored) ? stored[key] : undefined)]));
  return incoming;
}
