import { connectionType, parseValueReference } from '../../../common/connections';
import type { ResolvedConnection } from '../connections/types';
import { isRecord } from '../errors';
import type { SecretValues } from './redact';
import { resolveConnection, resolveEnvVar, resolveReference } from './resolve';
import type { SecretStore } from './store';

/** Property keys that hold a credential whatever the type says (bearer, apiKey, secretKey, token, …). */
const SECRET_PROPERTY = /pass|secret|token|key|bearer|auth|cred|private/i;

/** A field that holds a user name (`username`, `user`): its value is never treated as a secret. */
export function isUserNameField(key: string | undefined): boolean {
  return key !== undefined && /^(user|username|userName)$/.test(key);
}

/** The password of a URL's user info (decoded and as written), when it has one. */
function urlCredentials(url: string): string[] {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@\s]*)@/i.exec(url.trim());
  if (!match) return [];
  const userInfo = match[1] ?? '';
  const colon = userInfo.indexOf(':');
  if (colon < 0) return [];
  const written = userInfo.slice(colon + 1);
  let decoded = written;
  try {
    decoded = decodeURIComponent(written);
  } catch {
    // kept as written
  }
  return [written, decoded];
}

/**
 * The clear values of a resolved connection a run must not store or send: its password, certificate,
 * the password in its URL, a URL the type treats as a secret (a webhook URL), its secret properties, and
 * `username:password` (so a Basic authorization header's base64 is caught too). Never its user name: a
 * user name is not a secret, and a result that shows it (`SELECT current_user`) shows it as it is.
 */
export function connectionSecretValues(connection: ResolvedConnection): string[] {
  const def = connectionType(connection.type);
  const out = [connection.password, connection.certificate, ...urlCredentials(connection.url)];
  if (connection.username && connection.password) out.push(`${connection.username}:${connection.password}`);
  if (def?.fields.some((field) => field.target === 'url' && field.input === 'secret')) out.push(connection.url);
  for (const [key, value] of Object.entries(connection.properties)) {
    const field = def?.fields.find((item) => item.target === `properties.${key}`);
    if (field?.input === 'secret' || SECRET_PROPERTY.test(key)) out.push(value);
  }
  return out.filter((value): value is string => typeof value === 'string' && value !== '');
}

/**
 * Adds to `values` every secret a (rendered) spec points at: EnvVar `valueFrom` values, `secret://`
 * references, and the credentials of every `connection` it names (`connection://ns/name` or a bare name
 * in `namespace`). What cannot be read is skipped: the code that uses it reports that itself.
 */
export async function collectSpecSecrets(store: SecretStore, spec: unknown, namespace: string, values: SecretValues): Promise<void> {
  const walk = async (value: unknown, key: string | undefined): Promise<void> => {
    if (typeof value === 'string') {
      const text = value.trim();
      if (key === 'connection' && text !== '') {
        const reference = text.startsWith('connection://') ? text : `connection://${text}`;
        const connection = await resolveConnection(store, reference, namespace, key).catch(() => undefined);
        if (connection) values.add(...connectionSecretValues(connection));
        return;
      }
      const ref = /^(secret|helm|serviceaccount):\/\//.test(text) ? parseValueReference(text) : undefined;
      if (ref) values.add(await resolveReference(store, namespace, ref, key ?? '').catch(() => undefined));
      return;
    }
    if (Array.isArray(value)) {
      for (const item of value) await walk(item, undefined);
      return;
    }
    if (!isRecord(value)) return;
    // A user name read from a Secret is still a user name, not a secret.
    if (value.valueFrom !== undefined && !isUserNameField(key)) values.add(await resolveEnvVar(store, namespace, value, key ?? '').catch(() => undefined));
    for (const [name, item] of Object.entries(value)) if (name !== 'valueFrom') await walk(item, name);
  };
  await walk(spec, undefined);
}
