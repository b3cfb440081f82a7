import type pg from 'pg';
import { connectionType, connectionTypeOfBlock, fieldValue, MASK, type ConnectionInput } from '../../../common/connections';
import { isRecord } from '../../platform/errors';
import { KUBE_GROUP, kubeRv, kubeSoftDelete, kubeText, type KubeKind, type KubeRow } from '../../platform/kube-kinds';
import { processKeyring } from '../../platform/secrets';
import { configMapKind, connectionKind, secretKind } from './kinds';

/** A connection row (secrets masked as the REST API shows them) as Mission Control's spec: its type's block, else the flat fields. */
function connectionSpec(row: KubeRow): Record<string, unknown> {
  const flat = row.spec ?? {};
  const properties = isRecord(flat.properties) ? (flat.properties as Record<string, string>) : {};
  const shown: Pick<ConnectionInput, 'url' | 'username' | 'password' | 'certificate' | 'insecure_tls' | 'properties'> = {
    ...(typeof flat.url === 'string' ? { url: flat.url } : {}),
    ...(typeof flat.username === 'string' ? { username: flat.username } : {}),
    ...(typeof flat.password === 'string' ? { password: flat.password } : {}),
    ...(typeof flat.certificate === 'string' ? { certificate: flat.certificate } : {}),
    insecure_tls: flat.insecure_tls === true,
    properties,
  };
  const def = connectionType(kubeText(flat.type));
  if (!def?.block) {
    const out: Record<string, unknown> = { ...flat };
    if (out.insecure_tls !== true) delete out.insecure_tls;
    if (Object.keys(properties).length === 0) delete out.properties;
    return out;
  }
  const block: Record<string, unknown> = {};
  const left = { ...properties };
  for (const field of def.fields) {
    const value = fieldValue(shown, field);
    if (field.target.startsWith('properties.')) delete left[field.target.slice('properties.'.length)];
    if (value === '') continue;
    block[field.key] = field.target === 'insecure_tls' ? true : value;
  }
  return { [def.block]: block, ...(Object.keys(left).length > 0 ? { properties: left } : {}) };
}

/** Masks a Connection document's secret fields (its type's secret fields, password and certificate). */
function redactConnection(document: Record<string, unknown>): void {
  const spec = document.spec;
  if (!isRecord(spec)) return;
  const mask = (holder: Record<string, unknown>, key: string) => {
    if (holder[key] !== undefined && holder[key] !== null) holder[key] = MASK;
  };
  mask(spec, 'password');
  mask(spec, 'certificate');
  const flatType = typeof spec.type === 'string' ? connectionType(spec.type) : undefined;
  for (const field of flatType?.fields ?? []) {
    if (field.input !== 'secret') continue;
    if (field.target.startsWith('properties.')) {
      if (isRecord(spec.properties)) mask(spec.properties, field.target.slice('properties.'.length));
    } else mask(spec, field.target);
  }
  for (const [key, value] of Object.entries(spec)) {
    const def = connectionTypeOfBlock(key);
    if (!def || !isRecord(value)) continue;
    for (const field of def.fields) if (field.input === 'secret') mask(value, field.key);
  }
}

/** The base64 of each stored value of a Secret, decrypted: only to fill a written document, never answered. */
async function storedSecretData(db: Pick<pg.Pool, 'query'>, id: string): Promise<Record<string, string>> {
  const { rows } = await db.query<{ data: Record<string, string> }>("SELECT data FROM secrets WHERE id = $1 AND kind = 'Secret'", [id]);
  const keyring = processKeyring();
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(rows[0]?.data ?? {})) out[key] = Buffer.from(keyring.decrypt(value), 'utf8').toString('base64');
  return out;
}


/** Connection as kubectl reads and writes it (docs/KUBECTL.md). */
export const connectionKubeKind: KubeKind = {
  kind: 'Connection', group: KUBE_GROUP.missionControl, version: 'v1', plural: 'connections', singular: 'connection', shortNames: ['conn'], namespaced: true,
  // connections_shown: secrets masked as the REST API shows them.
  rows: `SELECT id, name, namespace, labels,
           jsonb_strip_nulls(jsonb_build_object('type', type, 'url', url, 'username', username, 'password', password, 'certificate', certificate,
             'insecure_tls', insecure_tls, 'properties', properties)) AS spec,
           source, created_at, ${kubeRv()}, jsonb_build_object('type', type) AS extra
         FROM connections_shown WHERE deleted_at IS NULL`,
  rbac: 'connections',
  resourceKind: connectionKind,
  specOf: connectionSpec,
  redactApplied: redactConnection,
  columns: [{ name: 'Type', description: 'the connection type', cell: (row) => kubeText(row.extra?.type) }],
  remove: kubeSoftDelete('connections'),
};

/** Secret as kubectl reads and writes it: its values are write-only (docs/KUBECTL.md). */
export const secretKubeKind: KubeKind = {
  kind: 'Secret', group: '', version: 'v1', plural: 'secrets', singular: 'secret', shortNames: [], namespaced: true,
  // Values are write-only: every key answers an empty value.
  rows: `SELECT id, name, namespace, labels,
           jsonb_strip_nulls(jsonb_build_object('type', type, 'data', (SELECT coalesce(jsonb_object_agg(key, ''), '{}'::jsonb) FROM jsonb_object_keys(data) AS key))) AS spec,
           source, created_at, ${kubeRv()}, jsonb_build_object('type', coalesce(type, 'Opaque'), 'keys', (SELECT count(*) FROM jsonb_object_keys(data))) AS extra
         FROM secrets WHERE kind = 'Secret' AND deleted_at IS NULL`,
  rbac: 'connections',
  resourceKind: secretKind,
  topLevel: true,
  annotations: { 'watchkeeper.dev/values': 'write-only: data keys are listed with empty values; a key sent empty keeps its stored value' },
  columns: [
    { name: 'Type', description: 'the secret type', cell: (row) => kubeText(row.extra?.type) },
    { name: 'Data', description: 'number of keys', cell: (row) => kubeText(row.extra?.keys) },
  ],
  async prepare(db, id, document) {
    if (!isRecord(document.data)) return;
    const empty = Object.entries(document.data).filter(([, value]) => value === '' || value === null);
    if (empty.length === 0) return;
    const stored = await storedSecretData(db, id);
    for (const [key] of empty) if (stored[key] !== undefined) document.data[key] = stored[key];
  },
  redactApplied(document) {
    for (const field of ['data', 'stringData']) {
      const values = document[field];
      if (isRecord(values)) for (const key of Object.keys(values)) values[key] = '';
    }
  },
  remove: kubeSoftDelete('secrets'),
};

/** ConfigMap as kubectl reads and writes it (docs/KUBECTL.md). */
export const configMapKubeKind: KubeKind = {
  kind: 'ConfigMap', group: '', version: 'v1', plural: 'configmaps', singular: 'configmap', shortNames: ['cm'], namespaced: true,
  rows: `SELECT id, name, namespace, labels, jsonb_build_object('data', data) AS spec, source, created_at, ${kubeRv()},
           jsonb_build_object('keys', (SELECT count(*) FROM jsonb_object_keys(data))) AS extra
         FROM secrets WHERE kind = 'ConfigMap' AND deleted_at IS NULL`,
  rbac: 'connections',
  resourceKind: configMapKind,
  topLevel: true,
  columns: [{ name: 'Data', description: 'number of keys', cell: (row) => kubeText(row.extra?.keys) }],
  remove: kubeSoftDelete('secrets'),
};
