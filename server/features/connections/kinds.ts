import type pg from 'pg';
import { z } from 'zod';
import { connectionProblems, connectionType, type ConnectionInput } from '../../../common/connections';
import { returnedRow } from '../../platform/db/rows';
import { assertSavable } from '../../platform/spec-rows';
import { problemPathSegments, type ResourceKind, type ResourceSource } from '../../platform/resources';
import { processKeyring } from '../../platform/secrets';
import { connectionFromSpec, saveConnection, withDefaults, type Problem } from './service';

const metadata = z.object({
  name: z.string({ message: 'is required' }).trim().min(1, 'is required').max(253),
  namespace: z.string().trim().min(1).max(253).optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
});

/** Problems of a connection document, by path from the document (`spec.postgres.url: URL is required`). */
function documentProblems(input: ConnectionInput, blockPath: (target: string) => string): Problem[] {
  return connectionProblems(input, { form: false })
    .filter((problem) => problem.path !== 'name' && problem.path !== 'namespace')
    .map((problem) => ({ path: blockPath(problem.path), message: problem.message }));
}

/** Where a row field came from in the document: the type block's key, or the flat field. */
function pathIn(spec: Record<string, unknown>, input: ConnectionInput) {
  const def = connectionType(input.type);
  // The block as the document writes it (read without regard to case: `azurekeyvault` is azureKeyVault).
  const block = def?.block ? Object.keys(spec).find((key) => key.toLowerCase() === def.block?.toLowerCase()) : undefined;
  return (target: string) => {
    if (target === 'type') return 'spec.type';
    const field = def?.fields.find((candidate) => candidate.target === target);
    if (block && field) return `spec.${block}.${field.key}`;
    return `spec.${target}`;
  };
}

const connectionDocument = z
  .object({ apiVersion: z.string(), kind: z.literal('Connection'), metadata, spec: z.record(z.string(), z.unknown(), { message: 'must be a mapping' }) })
  .superRefine((doc, ctx) => {
    const { input, problems } = connectionFromSpec(doc.metadata.name, doc.metadata.namespace ?? 'default', doc.spec);
    for (const problem of [...problems, ...documentProblems(withDefaults(input), pathIn(doc.spec, input))]) {
      ctx.addIssue({ code: 'custom', path: problemPathSegments(problem.path), message: problem.message });
    }
  });

/** Mission Control's Connection (mission-control.flanksource.com/v1), secrets encrypted as they are saved. */
export const connectionKind: ResourceKind<z.infer<typeof connectionDocument>> = {
  kind: 'Connection',
  apiVersions: ['mission-control.flanksource.com/v1'],
  schema: connectionDocument,
  async apply(doc, { client, source }) {
    const { input, warnings } = connectionFromSpec(doc.metadata.name, doc.metadata.namespace ?? 'default', doc.spec);
    const saved = await saveConnection(client, processKeyring(), withDefaults(input), { source, labels: doc.metadata.labels ?? {} });
    return { action: saved.action, id: saved.id, name: doc.metadata.name, ...(warnings.length > 0 ? { warnings } : {}) };
  },
};

/** Kubernetes names: lower-case letters, digits, '-' and '.' (a Secret's keys also allow '_'). */
const KEY = /^[-._a-zA-Z0-9]+$/;

function base64Text(value: string): string | undefined {
  const compact = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) return undefined;
  return Buffer.from(compact, 'base64').toString('utf8');
}

const textMap = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String), { message: 'must be a map of keys to texts' });

const secretDocument = z
  .object({
    apiVersion: z.literal('v1', { message: 'must be v1' }),
    kind: z.literal('Secret'),
    metadata,
    type: z.string().optional(),
    data: textMap.optional(),
    stringData: textMap.optional(),
    immutable: z.boolean().optional(),
  })
  .superRefine((doc, ctx) => {
    for (const [key, value] of Object.entries(doc.data ?? {})) {
      if (!KEY.test(key)) ctx.addIssue({ code: 'custom', path: ['data', key], message: 'a key is letters, digits, -, _ or .' });
      else if (base64Text(value) === undefined) ctx.addIssue({ code: 'custom', path: ['data', key], message: 'must be base64 (put clear text under stringData)' });
    }
    for (const key of Object.keys(doc.stringData ?? {})) if (!KEY.test(key)) ctx.addIssue({ code: 'custom', path: ['stringData', key], message: 'a key is letters, digits, -, _ or .' });
  });

const configMapDocument = z
  .object({
    apiVersion: z.literal('v1', { message: 'must be v1' }),
    kind: z.literal('ConfigMap'),
    metadata,
    data: textMap.optional(),
    binaryData: textMap.optional(),
    immutable: z.boolean().optional(),
  })
  .superRefine((doc, ctx) => {
    for (const key of Object.keys(doc.data ?? {})) if (!KEY.test(key)) ctx.addIssue({ code: 'custom', path: ['data', key], message: 'a key is letters, digits, -, _ or .' });
    for (const [key, value] of Object.entries(doc.binaryData ?? {})) {
      if (base64Text(value) === undefined) ctx.addIssue({ code: 'custom', path: ['binaryData', key], message: 'must be base64' });
      if (doc.data && Object.hasOwn(doc.data, key)) ctx.addIssue({ code: 'custom', path: ['binaryData', key], message: 'is also under data; a key is in one of them' });
    }
  });

export interface SecretInput {
  kind: 'Secret' | 'ConfigMap';
  name: string;
  namespace: string;
  type?: string | undefined;
  /** Clear values by key. For an update, `******` (or an empty value) of a Secret key keeps the stored value. */
  data: Record<string, string>;
  labels: Record<string, string>;
}

/** Creates or updates a Secret or ConfigMap (by id from the console, else by namespace and name); Secret values encrypted. */
export async function saveSecret(client: pg.PoolClient, input: SecretInput, options: { source: ResourceSource | string; createdBy?: string | undefined; id?: string; createOnly?: boolean }): Promise<{ id: string; action: 'created' | 'updated' }> {
  const noun = input.kind === 'Secret' ? 'secret' : 'config map';
  const found = options.id
    ? await client.query<{ id: string; source: string; data: Record<string, string> }>('SELECT id, source, data FROM secrets WHERE id = $1 AND kind = $2 AND deleted_at IS NULL FOR UPDATE', [options.id, input.kind])
    : await client.query<{ id: string; source: string; data: Record<string, string> }>('SELECT id, source, data FROM secrets WHERE kind = $1 AND namespace = $2 AND name = $3 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL FOR UPDATE', [input.kind, input.namespace, input.name]);
  const existing = found.rows[0];
  assertSavable(existing, { noun, name: input.name, namespace: input.namespace, source: options.source, id: options.id, createOnly: options.createOnly, field: 'name' });
  const keyring = processKeyring();
  const data: Record<string, string> = {};
  for (const [key, value] of Object.entries(input.data)) {
    const kept = existing?.data[key];
    if (input.kind === 'Secret') data[key] = options.source === 'UI' && (value === '******' || value === '') && kept !== undefined ? kept : keyring.encrypt(value);
    else data[key] = value;
  }
  if (existing) {
    await client.query('UPDATE secrets SET data = $2, labels = $3, type = $4, source = $5 WHERE id = $1', [existing.id, JSON.stringify(data), JSON.stringify(input.labels), input.type ?? null, options.source]);
    return { id: existing.id, action: 'updated' };
  }
  const { rows } = await client.query<{ id: string }>(
    'INSERT INTO secrets (kind, name, namespace, type, data, labels, source, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id',
    [input.kind, input.name, input.namespace, input.type ?? null, JSON.stringify(data), JSON.stringify(input.labels), options.source, options.createdBy || null],
  );
  return { id: returnedRow(rows, 'INSERT INTO secrets').id, action: 'created' };
}

/** Kubernetes' Secret (v1): `data` base64, `stringData` clear; stored encrypted, key by key. */
export const secretKind: ResourceKind<z.infer<typeof secretDocument>> = {
  kind: 'Secret',
  apiVersions: ['v1'],
  schema: secretDocument,
  async apply(doc, { client, source }) {
    const data: Record<string, string> = {};
    for (const [key, value] of Object.entries(doc.data ?? {})) data[key] = base64Text(value) ?? '';
    // Kubernetes: stringData wins over data for the same key.
    Object.assign(data, doc.stringData ?? {});
    const saved = await saveSecret(client, { kind: 'Secret', name: doc.metadata.name, namespace: doc.metadata.namespace ?? 'default', type: doc.type, data, labels: doc.metadata.labels ?? {} }, { source });
    const warnings = doc.immutable ? ['immutable: not enforced here; the secret can be changed by applying it again'] : [];
    return { action: saved.action, id: saved.id, name: doc.metadata.name, ...(warnings.length > 0 ? { warnings } : {}) };
  },
};

/** Kubernetes' ConfigMap (v1): `data` as written, `binaryData` base64 (kept as its UTF-8 text). */
export const configMapKind: ResourceKind<z.infer<typeof configMapDocument>> = {
  kind: 'ConfigMap',
  apiVersions: ['v1'],
  schema: configMapDocument,
  async apply(doc, { client, source }) {
    const data: Record<string, string> = { ...(doc.data ?? {}) };
    for (const [key, value] of Object.entries(doc.binaryData ?? {})) data[key] = base64Text(value) ?? '';
    const saved = await saveSecret(client, { kind: 'ConfigMap', name: doc.metadata.name, namespace: doc.metadata.namespace ?? 'default', data, labels: doc.metadata.labels ?? {} }, { source });
    const warnings = doc.immutable ? ['immutable: not enforced here; the config map can be changed by applying it again'] : [];
    return { action: saved.action, id: saved.id, name: doc.metadata.name, ...(warnings.length > 0 ? { warnings } : {}) };
  },
};
