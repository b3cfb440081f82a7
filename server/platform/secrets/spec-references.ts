import type { ResolvedConnection } from '../connections/types';
import { connectionSecretValues, isUserNameField } from './collect';
import { isRecord } from '../errors';
import { parseConnectionReference, resolveConnection, resolveEnvVar } from './resolve';
import type { SecretStore } from './store';

/** A spec with what it points at filled in, and the clear values it now holds (to keep out of messages). */
export interface ResolvedSpec<T = Record<string, unknown>> {
  spec: T;
  secrets: string[];
}

const ENV_VAR_KEYS = new Set(['name', 'value', 'valueFrom']);

/** `{value}` objects as the check schemas read an EnvVar. */
const env = (value: string) => ({ value });

/**
 * Fills the object that named a connection with the connection's fields, as upstream hydrates a check
 * from its connection: only what the spec leaves empty. AWS connections give the `accessKey`,
 * `secretKey`, `region` and `endpoint` of an awsSigV4 block or an AWS scraper; every other type gives
 * `url`, `username` and `password` (and `bearer` and `db` where the type has them).
 */
export function fillFromConnection(target: Record<string, unknown>, connection: ResolvedConnection): Record<string, unknown> {
  const out: Record<string, unknown> = { ...target };
  delete out.connection;
  const empty = (key: string) => out[key] === undefined || out[key] === null || out[key] === '';
  const set = (key: string, value: unknown) => {
    if (empty(key) && value !== '' && value !== undefined) out[key] = value;
  };
  if (connection.type === 'aws' || connection.type === 's3') {
    set('accessKey', connection.username ? env(connection.username) : undefined);
    set('secretKey', connection.password ? env(connection.password) : undefined);
    set('region', connection.properties.region);
    set('endpoint', connection.url || undefined);
    if (connection.type === 's3') set('bucket', connection.properties.bucket);
    return out;
  }
  set('url', connection.url || undefined);
  set('username', connection.username ? env(connection.username) : undefined);
  set('password', connection.password ? env(connection.password) : undefined);
  if (connection.properties.bearer) set('bearer', env(connection.properties.bearer));
  if (connection.type === 'git' && connection.certificate) set('certificate', env(connection.certificate));
  if (connection.type === 'redis' && /^\d+$/.test(connection.properties.db ?? '')) set('db', Number(connection.properties.db));
  return out;
}


async function walk(store: SecretStore, value: unknown, namespace: string, where: string, secrets: string[]): Promise<unknown> {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const [index, item] of value.entries()) out.push(await walk(store, item, namespace, `${where}[${index}]`, secrets));
    return out;
  }
  if (!isRecord(value)) return value;
  if (value.valueFrom !== undefined && Object.keys(value).every((key) => ENV_VAR_KEYS.has(key))) {
    const resolved = await resolveEnvVar(store, namespace, value, where);
    // A user name read from a Secret is still a user name, not a secret.
    if (!isUserNameField(where.split('.').pop())) secrets.push(resolved);
    const { valueFrom: _dropped, ...rest } = value;
    return { ...rest, value: resolved };
  }
  let current: Record<string, unknown> = value;
  if (typeof value.connection === 'string' && parseConnectionReference(value.connection, namespace)) {
    const connection = await resolveConnection(store, value.connection, namespace, `${where}.connection`);
    // Its secrets (password, certificate, tokens), never its user name or its plain properties (a database, a region).
    secrets.push(...connectionSecretValues(connection));
    current = fillFromConnection(value, connection);
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(current)) out[key] = await walk(store, item, namespace, where === '' ? key : `${where}.${key}`, secrets);
  return out;
}

/**
 * A spec (a check, a scraper entry, an action) with every EnvVar `valueFrom` replaced by `{value}` and
 * every object that names a `connection://` filled from that connection. Throws UnresolvedReference
 * naming the first reference that cannot be read.
 */
export async function resolveSpecReferences<T>(store: SecretStore, spec: T, namespace: string, where = ''): Promise<ResolvedSpec<T>> {
  const secrets: string[] = [];
  const resolved = (await walk(store, spec, namespace, where, secrets)) as T;
  return { spec: resolved, secrets: secrets.filter((secret) => secret.length >= 3) };
}

/** Whether a spec names anything to resolve (most do not: then resolving costs nothing). */
export function hasReferences(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasReferences);
  if (!isRecord(value)) return false;
  if (value.valueFrom !== undefined) return true;
  if (typeof value.connection === 'string' && value.connection.startsWith('connection://')) return true;
  return Object.values(value).some(hasReferences);
}
