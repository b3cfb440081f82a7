import type pg from 'pg';
import { z } from 'zod';
import {
  CONNECTION_TYPES,
  MASK,
  connectionType,
  connectionTypeOfBlock,
  isTextTarget,
  parseValueReference,
  valueReferenceText,
  type ConnectionField,
  type ConnectionInput,
  type ConnectionTarget,
  type ConnectionTypeDef,
} from '../../../common/connections';
import { returnedRow } from '../../platform/db/rows';
import { isRecord } from '../../platform/errors';
import { AppError } from '../../platform/http/errors';
import { assertSavable } from '../../platform/spec-rows';
import type { Queryable } from '../../platform/jobs/db';
import type { ResourceSource } from '../../platform/resources';
import { isEncrypted, type Keyring } from '../../platform/secrets';
import { valueFromReference } from '../../platform/secrets/resolve';
import { resourceName, resourceNamespace } from '../../platform/names';

/** A problem of a connection by path (`url`, `properties.port`, `spec.slack.token`). */
export interface Problem {
  path: string;
  message: string;
}

export class ConnectionInvalid extends Error {
  constructor(readonly problems: Problem[]) {
    super(problems.map((problem) => `${problem.path}: ${problem.message}`).join('; '));
  }
}

/**
 * A field value as the API and the Connection kind accept it: a text, `{value}`, or
 * `{valueFrom: {secretKeyRef|configMapKeyRef|helmRef: {name, key}}}`; answered as the text to store
 * (a reference is kept as `secret://name/key`, resolved where the connection is used).
 */
export function fieldText(raw: unknown, path: string, problems: Problem[]): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  if (isRecord(raw)) {
    if (raw.valueFrom !== undefined) {
      const ref = valueFromReference(raw.valueFrom);
      if (typeof ref === 'string') {
        problems.push({ path: `${path}.valueFrom`, message: ref });
        return undefined;
      }
      return valueReferenceText(ref);
    }
    if (raw.value !== undefined) return fieldText(raw.value, path, problems);
  }
  problems.push({ path, message: 'must be a text, {value: …} or {valueFrom: {secretKeyRef: {name, key}}}' });
  return undefined;
}

function assign(input: ConnectionInput, field: ConnectionField, value: string): void {
  if (field.target === 'insecure_tls') input.insecure_tls = value === 'true';
  else if (field.target.startsWith('properties.')) input.properties = { ...input.properties, [field.target.slice('properties.'.length)]: value };
  else if (isTextTarget(field.target)) input[field.target] = value;
}

/** Fills the defaults of the type's form (spec §3: port 587 for email, ref main for git, …) where a value is missing. */
export function withDefaults(input: ConnectionInput): ConnectionInput {
  const def = connectionType(input.type);
  if (!def) return input;
  const out: ConnectionInput = { ...input, properties: { ...input.properties } };
  for (const field of def.fields) {
    if (field.default === undefined) continue;
    const current = field.target.startsWith('properties.') ? out.properties?.[field.target.slice('properties.'.length)] : isTextTarget(field.target) ? out[field.target] : undefined;
    if (current === undefined || current === '') assign(out, field, field.default);
  }
  return out;
}

const apiBody = z.object({
  name: resourceName,
  namespace: resourceNamespace.default('default'),
  type: z.string({ message: 'is required' }).trim().min(1, 'is required'),
  url: z.unknown().optional(),
  username: z.unknown().optional(),
  password: z.unknown().optional(),
  certificate: z.unknown().optional(),
  insecure_tls: z.boolean({ message: 'must be true or false' }).optional(),
  properties: z.record(z.string(), z.unknown(), { message: 'must be a map of texts' }).optional(),
  labels: z.record(z.string(), z.string()).optional(),
});
export const connectionBody = apiBody;
export const connectionPatchBody = apiBody.partial().omit({ name: true, namespace: true });

/** The API's body as a connection (every problem by field path, none written on a problem). */
export function connectionFromBody(body: Partial<z.infer<typeof apiBody>>, base?: ConnectionInput): { input: ConnectionInput; problems: Problem[] } {
  const problems: Problem[] = [];
  const input: ConnectionInput = base ? { ...base, properties: { ...base.properties } } : { name: body.name ?? '', namespace: body.namespace ?? 'default', type: body.type ?? '' };
  if (body.type !== undefined) input.type = body.type;
  for (const key of ['url', 'username', 'password', 'certificate'] as const) {
    if (body[key] === undefined) continue;
    const text = fieldText(body[key], key, problems);
    if (text !== undefined) input[key] = text;
  }
  if (body.insecure_tls !== undefined) input.insecure_tls = body.insecure_tls;
  if (body.properties) {
    const properties: Record<string, string> = {};
    for (const [key, value] of Object.entries(body.properties)) {
      const text = fieldText(value, `properties.${key}`, problems);
      if (text !== undefined) properties[key] = text;
    }
    input.properties = properties;
  }
  return { input, problems };
}

/**
 * A Connection document's spec (Mission Control's format): a type block (`spec.postgres`, `spec.slack`,
 * `spec.smtp`, …) whose keys are the form's fields, or the older flat form (`type`, `url`, `username`,
 * `password`, `certificate`, `insecure_tls`, `properties`). Blocks and keys this version does not know are
 * warnings naming them.
 */
export function connectionFromSpec(name: string, namespace: string, spec: Record<string, unknown>): { input: ConnectionInput; problems: Problem[]; warnings: string[] } {
  const problems: Problem[] = [];
  const warnings: string[] = [];
  const input: ConnectionInput = { name, namespace, type: '' };
  const FLAT = new Set(['type', 'url', 'port', 'username', 'password', 'certificate', 'insecure_tls', 'properties']);
  const blocks = Object.keys(spec).filter((key) => !FLAT.has(key));
  let def: ConnectionTypeDef | undefined;
  for (const block of blocks) {
    const found = connectionTypeOfBlock(block);
    if (!found) {
      warnings.push(`spec.${block}: connection type block "${block}" is not supported yet; ignored (types: ${CONNECTION_TYPES.filter((t) => t.block).map((t) => t.block).join(', ')})`);
      continue;
    }
    if (def) {
      problems.push({ path: `spec.${block}`, message: `a connection has one type; it already has ${def.block}` });
      continue;
    }
    def = found;
    const values = spec[block];
    if (!isRecord(values)) {
      problems.push({ path: `spec.${block}`, message: 'must be a mapping of the type\'s fields' });
      continue;
    }
    input.type = found.type;
    const known = new Map(found.fields.map((field) => [field.key, field]));
    for (const [key, value] of Object.entries(values)) {
      const field = known.get(key) ?? (key === 'insecure_tls' ? known.get('insecureTLS') : undefined);
      if (!field) {
        const text = fieldText(value, `spec.${block}.${key}`, problems);
        if (text !== undefined) {
          input.properties = { ...input.properties, [key]: text };
          warnings.push(`spec.${block}.${key}: not a field of the ${found.label} form; kept as a property`);
        }
        continue;
      }
      const text = fieldText(value, `spec.${block}.${key}`, problems);
      if (text !== undefined) assign(input, field, text);
    }
  }
  if (!def) {
    // The flat form (Mission Control's older fields), or a spec with only unknown blocks.
    input.type = typeof spec.type === 'string' ? spec.type : '';
    for (const key of ['url', 'username', 'password', 'certificate'] as const) {
      const text = fieldText(spec[key], `spec.${key}`, problems);
      if (text !== undefined) input[key] = text;
    }
    if (spec.insecure_tls !== undefined) input.insecure_tls = spec.insecure_tls === true || spec.insecure_tls === 'true';
    if (spec.port !== undefined) {
      const port = fieldText(spec.port, 'spec.port', problems);
      if (port !== undefined) input.properties = { ...input.properties, port };
    }
    if (spec.properties !== undefined) {
      if (!isRecord(spec.properties)) problems.push({ path: 'spec.properties', message: 'must be a map of texts' });
      else
        for (const [key, value] of Object.entries(spec.properties)) {
          const text = fieldText(value, `spec.properties.${key}`, problems);
          if (text !== undefined) input.properties = { ...input.properties, [key]: text };
        }
    }
  } else if (spec.properties !== undefined && isRecord(spec.properties)) {
    for (const [key, value] of Object.entries(spec.properties)) {
      const text = fieldText(value, `spec.properties.${key}`, problems);
      if (text !== undefined && input.properties?.[key] === undefined) input.properties = { ...input.properties, [key]: text };
    }
  }
  return { input, problems, warnings };
}

const SECRET_TARGETS = new Set(['password', 'certificate']);

/** Whether a field of the row holds a secret: the type's `secret` fields, and password and certificate always. */
function secretTargets(def: ConnectionTypeDef | undefined): Set<string> {
  const targets = new Set(SECRET_TARGETS);
  for (const field of def?.fields ?? []) if (field.input === 'secret') targets.add(field.target);
  return targets;
}

/** A URL's user info moved out of it: the list shows URLs, and a password never sits in one in clear. */
function splitUrlCredentials(input: ConnectionInput): ConnectionInput {
  const url = input.url;
  if (!url || parseValueReference(url) || isEncrypted(url)) return input;
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#@\s]*)@(.*)$/i.exec(url);
  if (!match) return input;
  const [, scheme = '', userInfo = '', rest = ''] = match;
  const colon = userInfo.indexOf(':');
  if (colon === -1) return input;
  const user = decodeURIComponent(userInfo.slice(0, colon));
  const pass = decodeURIComponent(userInfo.slice(colon + 1));
  if (pass === MASK || pass === '') return input;
  return {
    ...input,
    url: `${scheme}${userInfo.slice(0, colon) ? `${userInfo.slice(0, colon)}@` : ''}${rest}`,
    username: input.username || user,
    password: input.password || pass,
  };
}

export interface StoredFields {
  url: string | null;
  username: string | null;
  password: string | null;
  certificate: string | null;
  insecure_tls: boolean;
  properties: Record<string, string>;
}

/**
 * The row's values: every secret field encrypted (a reference is stored as written), and a masked value
 * (`******`, sent back by a form that was shown the mask) replaced by what is stored.
 */
export function storedFields(keyring: Keyring, input: ConnectionInput, existing?: StoredFields): StoredFields {
  const def = connectionType(input.type);
  const secret = secretTargets(def);
  const clean = splitUrlCredentials(input);
  const keep = (target: ConnectionTarget, current: string | null | undefined): string | null => {
    if (!existing) return null;
    if (target.startsWith('properties.')) return existing.properties[target.slice('properties.'.length)] ?? null;
    return isTextTarget(target) ? (existing[target] ?? current ?? null) : null;
  };
  const store = (target: ConnectionTarget, value: string | undefined): string | null => {
    if (value === undefined || value === '') return null;
    if (value === MASK) return keep(target, null);
    if (parseValueReference(value) || isEncrypted(value)) return isEncrypted(value) ? keep(target, null) : value;
    return secret.has(target) ? keyring.encrypt(value) : value;
  };
  const properties: Record<string, string> = {};
  for (const [key, value] of Object.entries(clean.properties ?? {})) {
    const stored = store(`properties.${key}`, value);
    if (stored !== null) properties[key] = stored;
  }
  return {
    url: store('url', clean.url),
    username: store('username', clean.username),
    password: store('password', clean.password),
    certificate: store('certificate', clean.certificate),
    insecure_tls: clean.insecure_tls === true,
    properties,
  };
}

/** What validation sees of a masked field: the stored value counts as given. */
export function forValidation(input: ConnectionInput, existing?: StoredFields): ConnectionInput {
  if (!existing) return input;
  const out: ConnectionInput = { ...input, properties: { ...input.properties } };
  for (const key of ['url', 'username', 'password', 'certificate'] as const) if (out[key] === MASK && existing[key]) out[key] = 'set';
  for (const [key, value] of Object.entries(out.properties ?? {})) if (value === MASK && existing.properties[key] && out.properties) out.properties[key] = 'set';
  return out;
}

export interface SaveOptions {
  source: ResourceSource | string;
  createdBy?: string | undefined;
  id?: string;
  createOnly?: boolean;
  labels?: Record<string, string>;
}

/** Creates or updates a connection (by id from the console, else by namespace and name), secrets encrypted. */
export async function saveConnection(client: pg.PoolClient, keyring: Keyring, input: ConnectionInput, options: SaveOptions): Promise<{ id: string; action: 'created' | 'updated' }> {
  const found = options.id
    ? await client.query<StoredFields & { id: string; source: string; type: string }>('SELECT id, source, type, url, username, password, certificate, insecure_tls, properties FROM connections WHERE id = $1 AND deleted_at IS NULL FOR UPDATE', [options.id])
    : await client.query<StoredFields & { id: string; source: string; type: string }>(
        'SELECT id, source, type, url, username, password, certificate, insecure_tls, properties FROM connections WHERE namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL FOR UPDATE',
        [input.namespace, input.name],
      );
  const existing = found.rows[0];
  assertSavable(existing, { noun: 'connection', name: input.name, namespace: input.namespace, source: options.source, id: options.id, createOnly: options.createOnly, field: 'name' });
  // A type change keeps nothing of the old type's secrets.
  const previous = existing && existing.type === input.type ? existing : undefined;
  const fields = storedFields(keyring, input, previous);
  const values = [input.type, fields.url, fields.username, fields.password, fields.certificate, fields.insecure_tls, JSON.stringify(fields.properties), JSON.stringify(options.labels ?? {}), options.source];
  if (existing) {
    await client.query(
      'UPDATE connections SET type = $2, url = $3, username = $4, password = $5, certificate = $6, insecure_tls = $7, properties = $8, labels = $9, source = $10 WHERE id = $1',
      [existing.id, ...values],
    );
    return { id: existing.id, action: 'updated' };
  }
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO connections (name, namespace, type, url, username, password, certificate, insecure_tls, properties, labels, source, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
    [input.name, input.namespace, ...values, options.createdBy || null],
  );
  return { id: returnedRow(rows, 'INSERT INTO connections').id, action: 'created' };
}

/** The stored row as the API answers it (secrets masked, references as written). */
export async function shownConnection(db: Queryable, id: string): Promise<Record<string, unknown> | undefined> {
  const { rows } = await db.query<Record<string, unknown>>(
    'SELECT id, name, namespace, type, url, username, password, certificate, insecure_tls, properties, labels, source, created_by, created_at, updated_at FROM connections_shown WHERE id = $1',
    [id],
  );
  return rows[0];
}

/** The stored row (secrets still encrypted) as a connection input, to apply a partial change to. */
export async function storedConnection(db: Queryable, id: string): Promise<(ConnectionInput & { source: string; stored: StoredFields; labels: Record<string, string> }) | undefined> {
  const { rows } = await db.query<StoredFields & { name: string; namespace: string; type: string; source: string; labels: Record<string, string> }>(
    'SELECT name, namespace, type, url, username, password, certificate, insecure_tls, properties, labels, source FROM connections WHERE id = $1 AND deleted_at IS NULL',
    [id],
  );
  const row = rows[0];
  if (!row) return undefined;
  // The stored secrets go back as the mask: saving keeps them unless a new value is given.
  const shown = (value: string | null) => (value === null ? undefined : isEncrypted(value) ? MASK : value);
  const properties = Object.fromEntries(Object.entries(row.properties).map(([key, value]) => [key, shown(value) ?? '']));
  const input: ConnectionInput = { name: row.name, namespace: row.namespace, type: row.type, insecure_tls: row.insecure_tls, properties };
  for (const key of ['url', 'username', 'password', 'certificate'] as const) {
    const value = shown(row[key]);
    if (value !== undefined) input[key] = value;
  }
  return { ...input, source: row.source, stored: row, labels: row.labels };
}
