import { gunzipSync } from 'node:zlib';
import { parseValueReference, type ValueReference } from '../../../common/connections';
import type { ResolvedConnection } from '../connections/types';
import { isRecord } from '../errors';
import { jsonPathMatches } from '../expressions/shared/jsonpath';
import { serviceAccountToken } from './service-accounts';
import type { SecretStore, StoredConnection } from './store';

/**
 * Resolution of what specs point at: EnvVar `valueFrom` (secretKeyRef, configMapKeyRef, helmRef,
 * serviceAccount), stored-field references (`secret://name/key`), and connections
 * (`connection://namespace/name`). A missing secret, key or connection is an error naming it; it never
 * becomes an empty value.
 */
export class UnresolvedReference extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnresolvedReference';
  }
}

function quote(text: string): string {
  return JSON.stringify(text);
}

/** ` (looked up on agent "edge-1")` for a store that names where it looks (SecretStore.at), else nothing. */
function lookedUp(store: SecretStore): string {
  return store.place ? ` (looked up on ${store.place})` : '';
}

/** A stored reference's value, read in `namespace`. */
export async function resolveReference(store: SecretStore, namespace: string, ref: ValueReference, where: string): Promise<string> {
  if (ref.kind === 'serviceaccount') {
    const token = await serviceAccountToken(store.pool, ref.name);
    if (!token) throw new UnresolvedReference(`${where}: no account ${quote(ref.name)} to issue a token for (a service account is a person of this console, named by email)${lookedUp(store)}`);
    return token;
  }
  if (ref.kind === 'helm') return helmValue(store, namespace, ref.name, ref.key, where);
  const kind = ref.kind === 'secret' ? 'Secret' : 'ConfigMap';
  const label = ref.kind === 'secret' ? 'secret' : 'config map';
  const data = await store.data(kind, namespace, ref.name);
  if (!data) throw new UnresolvedReference(`${where}: ${label} ${quote(ref.name)} not found in namespace ${quote(namespace)}${lookedUp(store)}`);
  const value = Object.hasOwn(data, ref.key) ? data[ref.key] : undefined;
  if (value === undefined) {
    const keys = Object.keys(data).sort();
    throw new UnresolvedReference(`${where}: ${label} ${quote(ref.name)} in namespace ${quote(namespace)} has no key ${quote(ref.key)}${keys.length > 0 ? ` (its keys: ${keys.join(', ')})` : ' (it has no keys)'}${lookedUp(store)}`);
  }
  return store.reveal(value);
}

/** A stored field in clear: decrypted, a reference resolved, or the text itself. */
export async function revealStored(store: SecretStore, namespace: string, stored: string | null | undefined, where: string): Promise<string> {
  if (stored === null || stored === undefined) return '';
  const ref = parseValueReference(stored);
  if (ref) return resolveReference(store, namespace, ref, where);
  return store.reveal(stored);
}

function merge(base: unknown, over: unknown): unknown {
  if (!isRecord(base) || !isRecord(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = merge(base[key], value);
  return out;
}

/**
 * A value of a Helm release, as Helm keeps releases: Secrets labelled owner=helm, name=<release> (type
 * helm.sh/release.v1) whose `release` key holds the release gzipped and base64-encoded. The values are the
 * chart's defaults overlaid with the release's own; `key` is a JSONPath into them (`.auth.password`).
 */
async function helmValue(store: SecretStore, namespace: string, release: string, key: string, where: string): Promise<string> {
  const revisions = await store.helmReleases(namespace, release);
  const latest = revisions?.[0];
  if (!latest) throw new UnresolvedReference(`${where}: Helm release ${quote(release)} not found in namespace ${quote(namespace)} (no Secret labelled owner=helm, name=${release})${lookedUp(store)}`);
  let values: unknown;
  try {
    const encoded = store.reveal(latest.release ?? '');
    const decoded: unknown = JSON.parse(gunzipSync(Buffer.from(encoded, 'base64')).toString('utf8'));
    const chart = isRecord(decoded) && isRecord(decoded.chart) ? decoded.chart.values : undefined;
    values = merge(chart ?? {}, isRecord(decoded) ? decoded.config : undefined);
  } catch {
    throw new UnresolvedReference(`${where}: the Helm release ${quote(release)} in namespace ${quote(namespace)} cannot be read (its Secret's release key is not a gzipped, base64-encoded release)`);
  }
  const path = key.startsWith('$') ? key : key.startsWith('.') ? `$${key}` : `$.${key}`;
  let found: unknown[];
  try {
    found = jsonPathMatches(path, values);
  } catch {
    throw new UnresolvedReference(`${where}: ${quote(key)} is not a JSONPath into the values of Helm release ${quote(release)}`);
  }
  const value = found[0];
  if (value === undefined || value === null) throw new UnresolvedReference(`${where}: the values of Helm release ${quote(release)} in namespace ${quote(namespace)} have nothing at ${quote(key)}${lookedUp(store)}`);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The reference a canary-checker `valueFrom` names, or a message of what is wrong with it. */
export function valueFromReference(valueFrom: unknown): ValueReference | string {
  if (!isRecord(valueFrom)) return 'must be {secretKeyRef: {name, key}}, {configMapKeyRef: {name, key}}, {helmRef: {name, key}} or {serviceAccount: name}';
  const secret = valueFrom.secretKeyRef;
  const configMap = valueFrom.configMapKeyRef;
  const helm = valueFrom.helmRef;
  const account = valueFrom.serviceAccount;
  const pair = (ref: unknown, field: string): { name: string; key: string } | string => {
    if (!isRecord(ref)) return `${field} must be {name, key}`;
    if (typeof ref.name !== 'string' || ref.name === '') return `${field}.name is required`;
    if (typeof ref.key !== 'string' || ref.key === '') return `${field}.key is required`;
    return { name: ref.name, key: ref.key };
  };
  if (secret !== undefined) {
    const found = pair(secret, 'secretKeyRef');
    return typeof found === 'string' ? found : { kind: 'secret', ...found };
  }
  if (configMap !== undefined) {
    const found = pair(configMap, 'configMapKeyRef');
    return typeof found === 'string' ? found : { kind: 'configmap', ...found };
  }
  if (helm !== undefined) {
    const found = pair(helm, 'helmRef');
    return typeof found === 'string' ? found : { kind: 'helm', ...found };
  }
  if (account !== undefined) {
    const name = typeof account === 'string' ? account : isRecord(account) && typeof account.name === 'string' ? account.name : '';
    return name ? { kind: 'serviceaccount', name } : 'serviceAccount must name an account';
  }
  return `names none of secretKeyRef, configMapKeyRef, helmRef or serviceAccount (it has ${Object.keys(valueFrom).join(', ') || 'nothing'})`;
}

/** `valueFrom.secretKeyRef (name "db", key "password")`, for messages. */
export function describeReference(ref: ValueReference): string {
  if (ref.kind === 'serviceaccount') return `valueFrom.serviceAccount ${quote(ref.name)}`;
  const field = ref.kind === 'secret' ? 'secretKeyRef' : ref.kind === 'configmap' ? 'configMapKeyRef' : 'helmRef';
  return `valueFrom.${field} (name ${quote(ref.name)}, key ${quote(ref.key)})`;
}

/** An EnvVar (`{value}` or `{valueFrom}`) in clear. */
export async function resolveEnvVar(store: SecretStore, namespace: string, envVar: { value?: unknown; valueFrom?: unknown }, where: string): Promise<string> {
  if (envVar.valueFrom === undefined) return envVar.value === undefined || envVar.value === null ? '' : String(envVar.value);
  const ref = valueFromReference(envVar.valueFrom);
  if (typeof ref === 'string') throw new UnresolvedReference(`${where}.valueFrom: ${ref}`);
  return resolveReference(store, namespace, ref, `${where}: ${describeReference(ref)}`);
}

/** `connection://ns/name`, `connection://name` (the user's namespace), or undefined for anything else. */
export function parseConnectionReference(text: string, namespace: string): { namespace: string; name: string } | undefined {
  const match = /^connection:\/\/(?:([^/\s]+)\/)?([^/\s]+)$/.exec(text.trim());
  if (!match) return undefined;
  return { namespace: match[1] ?? namespace, name: match[2] ?? '' };
}

/** A stored connection with every secret decrypted and every reference read (in its own namespace). */
export async function revealConnection(store: SecretStore, row: StoredConnection): Promise<ResolvedConnection> {
  const where = (field: string) => `connection ${row.namespace}/${row.name} ${field}`;
  const properties: Record<string, string> = {};
  for (const [key, value] of Object.entries(row.properties ?? {})) {
    properties[key] = typeof value === 'string' ? await revealStored(store, row.namespace, value, where(`properties.${key}`)) : JSON.stringify(value);
  }
  return {
    id: row.id,
    name: row.name,
    namespace: row.namespace,
    type: row.type,
    url: await revealStored(store, row.namespace, row.url, where('url')),
    username: await revealStored(store, row.namespace, row.username, where('username')),
    password: await revealStored(store, row.namespace, row.password, where('password')),
    certificate: await revealStored(store, row.namespace, row.certificate, where('certificate')),
    insecureTLS: row.insecure_tls,
    properties,
  };
}

/** The connection a reference names, in clear; an error naming it when there is none. */
export async function resolveConnection(store: SecretStore, reference: string, namespace: string, where: string): Promise<ResolvedConnection> {
  const target = parseConnectionReference(reference, namespace);
  if (!target) throw new UnresolvedReference(`${where}: ${quote(reference)} is not a connection reference (connection://<namespace>/<name>)`);
  const row = await store.connection(target.namespace, target.name);
  if (!row) throw new UnresolvedReference(`${where}: connection ${quote(`${target.namespace}/${target.name}`)} not found${lookedUp(store)}`);
  return revealConnection(store, row);
}
