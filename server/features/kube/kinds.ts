import type pg from 'pg';
import { connectionType, connectionTypeOfBlock, fieldValue, MASK, type ConnectionInput } from '../../../common/connections';
import type { Action, Resource } from '../../../common/rbac';
import { isRecord } from '../../platform/errors';
import { inTransaction } from '../../platform/jobs/db';
import type { ResourceKind } from '../../platform/resources';
import { processKeyring } from '../../platform/secrets';
import { applicationKind } from '../applications/applications';
import { scrapeConfigKind } from '../catalog/scraper-kind';
import { deleteScraper } from '../catalog/scrapers';
import { configMapKind, connectionKind, secretKind } from '../connections/kinds';
import { deleteCanary } from '../health/canaries';
import { canaryKind } from '../health/canary-kind';
import { permissionGroupKind } from '../identity/permission-group-kind';
import { permissionKind } from '../identity/permission-kind';
import { teamKind } from '../identity/team-kind';
import { incidentRuleKind } from '../incidents/rules/kind';
import { notificationKind } from '../notifications/rules';
import { notificationSilenceKind } from '../notifications/silences';
import { playbookKind } from '../playbooks/playbooks';
import { topologyKind } from '../topology/kind';
import { deleteTopology } from '../topology/topologies';
import { onViewSaved } from '../views/engine';
import { viewKind } from '../views/views';

/** One stored row as the Kubernetes-style API reads it: the `rows` SQL of its kind answers these columns. */
export interface KubeRow {
  id: string;
  name: string;
  namespace: string;
  labels: Record<string, string> | null;
  /** The spec (or, for Secret and ConfigMap, the fields beside metadata), secrets already redacted. */
  spec: Record<string, unknown> | null;
  source: string;
  created_at: Date;
  /** updated_at in microseconds: the resourceVersion. */
  rv: string;
  /** What the kind's table columns and object builder read besides the spec. */
  extra: Record<string, unknown> | null;
}

/** A table column of `kubectl get` beyond Name and Age. */
export interface KubeColumn {
  name: string;
  description: string;
  /** 1: only with `-o wide`. */
  priority?: number;
  cell(row: KubeRow): string;
}

/** One stored kind as the Kubernetes-style API serves it (docs/KUBECTL.md). */
export interface KubeKind {
  kind: string;
  /** '' for the core group (Secret, ConfigMap: apiVersion v1, served under /api/v1). */
  group: string;
  version: string;
  /** The resource name in URLs (`canaries`). */
  plural: string;
  singular: string;
  shortNames: string[];
  /** false: cluster-scoped (Team: teams have no namespace). */
  namespaced: boolean;
  /**
   * A SELECT of the kind's live rows (not deleted) with the KubeRow columns; the API filters it by
   * namespace and name and orders it.
   */
  rows: string;
  /** The RBAC resource whose read (and, without writeRbac, create/update/delete) a request needs (spec §6). */
  rbac: Resource;
  /** The RBAC resource of writes when it differs from reads (teams: read `database`, written as `identities`). */
  writeRbac?: Resource;
  /** The declarative kind: the same schema, validation and save as `watchkeeper apply`. */
  resourceKind: ResourceKind;
  /** The object's fields beside metadata are the row's `spec` spread at the top (Secret: type, data), not `spec:`. */
  topLevel?: boolean;
  /** Builds the spec from the row where the SQL alone does not (Connection: its type block; Permission). */
  specOf?(row: KubeRow): Record<string, unknown>;
  /** Annotations every object of the kind carries (Secret: its values are write-only). */
  annotations?: Record<string, string>;
  /** Table columns between Name and Age. */
  columns?: KubeColumn[];
  /**
   * Fills a written document from the stored row before it is checked (Secret: a key answered empty keeps
   * its stored value, as the values are never answered).
   */
  prepare?(db: Pick<pg.Pool, 'query'>, id: string, document: Record<string, unknown>): Promise<void>;
  /** Redacts what the last-applied annotation of a document would keep in clear (Secret: its values). */
  redactApplied?(document: Record<string, unknown>): void;
  /** Deletes (soft) a stored row with what depends on it, as the console's delete does. */
  remove(pool: pg.Pool, id: string): Promise<void>;
}

/** The resource a request's action needs on the kind. */
export function rbacOf(kind: KubeKind, action: Action): Resource {
  return action === 'read' ? kind.rbac : (kind.writeRbac ?? kind.rbac);
}

/** `canaries.flanksource.com/v1`, or `v1` for the core group. */
export function apiVersionOf(kind: KubeKind): string {
  return kind.group ? `${kind.group}/${kind.version}` : kind.version;
}

/** How Kubernetes names a resource in messages: `canaries.canaries.flanksource.com`, or `secrets` in the core group. */
export function qualifiedName(kind: KubeKind): string {
  return kind.group ? `${kind.plural}.${kind.group}` : kind.plural;
}

const softDelete = (table: string) => async (pool: pg.Pool, id: string) => {
  await pool.query(`UPDATE ${table} SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL`, [id]);
};

const RV = (alias = '') => `(extract(epoch FROM ${alias}updated_at) * 1000000)::bigint::text AS rv`;

/** The rows of a table of the shared shape: name, namespace, labels, spec, source (DESIGN §4). */
const specRows = (table: string) => `SELECT id, name, namespace, labels, redact_secrets(spec) AS spec, source, created_at, ${RV()}, NULL::jsonb AS extra FROM ${table} WHERE deleted_at IS NULL`;

const CANARIES = 'canaries.flanksource.com';
const CONFIGS = 'configs.flanksource.com';
const MISSION_CONTROL = 'mission-control.flanksource.com';

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
const when = (value: unknown) => (typeof value === 'string' && value ? value.replace(/\.\d+/, '').replace('+00:00', 'Z') : '<none>');

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
  const def = connectionType(text(flat.type));
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

/** A permission row's columns (and its person's email, its team's name) as the Permission spec that makes it. */
function permissionSpec(row: KubeRow): Record<string, unknown> {
  const p = row.extra ?? {};
  const subjectType = text(p.subject_type);
  const subjectValue = subjectType === 'person' ? text(p.person_email) || text(p.subject) : subjectType === 'team' ? text(p.team_name) || text(p.subject) : text(p.subject);
  const object: Record<string, unknown> = {};
  if (isRecord(p.object_selector)) Object.assign(object, p.object_selector);
  const byId: Array<[string, string]> = [['config_id', 'configs'], ['component_id', 'components'], ['playbook_id', 'playbooks'], ['connection_id', 'connections']];
  for (const [column, key] of byId) if (typeof p[column] === 'string') object[key] = [{ id: p[column] }];
  // A kind's global object is written back as Mission Control's usual form, its lone wildcard selector.
  const wildcard: Record<string, string> = { catalog: 'configs', topology: 'components', playbooks: 'playbooks', connection: 'connections', views: 'views' };
  if (typeof p.object === 'string' && p.object) {
    const key = wildcard[p.object];
    if (key && object[key] === undefined) object[key] = [{ name: '*' }];
    else object.global = p.object;
  }
  const spec: Record<string, unknown> = {
    ...(typeof p.description === 'string' && p.description ? { description: p.description } : {}),
    actions: text(p.action).split(',').map((action) => action.trim()).filter(Boolean),
    subject: { [subjectType]: subjectValue },
    object,
    deny: p.deny === true,
  };
  if (isRecord(p.tags) && Object.keys(p.tags).length > 0) spec.tags = p.tags;
  if (Array.isArray(p.agents) && p.agents.length > 0) spec.agents = p.agents;
  return spec;
}

/** The base64 of each stored value of a Secret, decrypted: only to fill a written document, never answered. */
async function storedSecretData(db: Pick<pg.Pool, 'query'>, id: string): Promise<Record<string, string>> {
  const { rows } = await db.query<{ data: Record<string, string> }>("SELECT data FROM secrets WHERE id = $1 AND kind = 'Secret'", [id]);
  const keyring = processKeyring();
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(rows[0]?.data ?? {})) out[key] = Buffer.from(keyring.decrypt(value), 'utf8').toString('base64');
  return out;
}

export const KUBE_KINDS: KubeKind[] = [
  {
    kind: 'Canary', group: CANARIES, version: 'v1', plural: 'canaries', singular: 'canary', shortNames: [], namespaced: true, rows: specRows('canaries'), rbac: 'canaries',
    resourceKind: canaryKind as ResourceKind,
    remove: async (pool, id) => void (await deleteCanary(pool, id)),
  },
  {
    kind: 'Topology', group: CANARIES, version: 'v1', plural: 'topologies', singular: 'topology', shortNames: ['topo'], namespaced: true, rows: specRows('topologies'), rbac: 'topologies',
    resourceKind: topologyKind as ResourceKind,
    remove: async (pool, id) => void (await deleteTopology(pool, id)),
  },
  {
    kind: 'ScrapeConfig', group: CONFIGS, version: 'v1', plural: 'scrapeconfigs', singular: 'scrapeconfig', shortNames: ['scrapers'], namespaced: true, rows: specRows('config_scrapers'), rbac: 'config_scrapers',
    resourceKind: scrapeConfigKind as ResourceKind,
    remove: async (pool, id) => void (await deleteScraper(pool, id)),
  },
  {
    kind: 'Playbook', group: MISSION_CONTROL, version: 'v1', plural: 'playbooks', singular: 'playbook', shortNames: ['pb'], namespaced: true, rows: specRows('playbooks'), rbac: 'playbooks',
    resourceKind: playbookKind as ResourceKind,
    remove: softDelete('playbooks'),
  },
  {
    kind: 'Notification', group: MISSION_CONTROL, version: 'v1', plural: 'notifications', singular: 'notification', shortNames: ['notif'], namespaced: true, rows: specRows('notifications'), rbac: 'notifications',
    resourceKind: notificationKind as ResourceKind,
    remove: softDelete('notifications'),
  },
  {
    kind: 'View', group: MISSION_CONTROL, version: 'v1', plural: 'views', singular: 'view', shortNames: [], namespaced: true, rows: specRows('views'), rbac: 'views',
    resourceKind: viewKind as ResourceKind,
    remove: (pool, id) =>
      inTransaction(pool, async (client) => {
        await client.query('UPDATE views SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL', [id]);
        await onViewSaved(client, id); // the engine drops the view's table
      }),
  },
  {
    kind: 'Application', group: MISSION_CONTROL, version: 'v1', plural: 'applications', singular: 'application', shortNames: ['app'], namespaced: true, rows: specRows('applications'), rbac: 'views',
    resourceKind: applicationKind as ResourceKind,
    remove: softDelete('applications'),
  },
  {
    kind: 'IncidentRule', group: MISSION_CONTROL, version: 'v1', plural: 'incidentrules', singular: 'incidentrule', shortNames: ['ir'], namespaced: true, rows: specRows('incident_rules'), rbac: 'database',
    resourceKind: incidentRuleKind as ResourceKind,
    remove: softDelete('incident_rules'),
  },
  {
    kind: 'NotificationSilence', group: MISSION_CONTROL, version: 'v1', plural: 'notificationsilences', singular: 'notificationsilence', shortNames: ['silence'], namespaced: true,
    // Console silences without a name are not resources kubectl can address: they are left out.
    rows: `SELECT id, name, namespace, '{}'::jsonb AS labels,
             coalesce(spec, jsonb_strip_nulls(jsonb_build_object('description', description, 'from', "from", 'until', until, 'recursive', recursive, 'config_id', config_id,
               'check_id', check_id, 'canary_id', canary_id, 'component_id', component_id, 'filter', filter, 'selectors', selectors))) AS spec,
             source, created_at, ${RV()},
             jsonb_build_object('from', "from", 'until', until, 'active', "from" <= now() AND (until IS NULL OR until > now())) AS extra
           FROM notification_silences WHERE deleted_at IS NULL AND name IS NOT NULL`,
    rbac: 'notifications',
    resourceKind: notificationSilenceKind as ResourceKind,
    columns: [
      { name: 'From', description: 'when the silence starts', cell: (row) => when(row.extra?.from) },
      { name: 'Until', description: 'when it ends (<none>: never)', cell: (row) => when(row.extra?.until) },
      { name: 'Active', description: 'silencing now', cell: (row) => String(row.extra?.active === true) },
    ],
    remove: softDelete('notification_silences'),
  },
  {
    kind: 'Connection', group: MISSION_CONTROL, version: 'v1', plural: 'connections', singular: 'connection', shortNames: ['conn'], namespaced: true,
    // connections_shown: secrets masked as the REST API shows them.
    rows: `SELECT id, name, namespace, labels,
             jsonb_strip_nulls(jsonb_build_object('type', type, 'url', url, 'username', username, 'password', password, 'certificate', certificate,
               'insecure_tls', insecure_tls, 'properties', properties)) AS spec,
             source, created_at, ${RV()}, jsonb_build_object('type', type) AS extra
           FROM connections_shown WHERE deleted_at IS NULL`,
    rbac: 'connections',
    resourceKind: connectionKind as ResourceKind,
    specOf: connectionSpec,
    redactApplied: redactConnection,
    columns: [{ name: 'Type', description: 'the connection type', cell: (row) => text(row.extra?.type) }],
    remove: softDelete('connections'),
  },
  {
    kind: 'Team', group: MISSION_CONTROL, version: 'v1', plural: 'teams', singular: 'team', shortNames: [], namespaced: false,
    rows: `SELECT t.id, t.name, 'default' AS namespace, '{}'::jsonb AS labels,
             t.spec || jsonb_build_object('icon', t.icon, 'members', m.members) AS spec,
             t.source, t.created_at, ${RV('t.')}, jsonb_build_object('members', jsonb_array_length(m.members)) AS extra
           FROM teams t
           CROSS JOIN LATERAL (SELECT coalesce(jsonb_agg(coalesce(p.email, p.id::text) ORDER BY coalesce(p.email, p.id::text)), '[]'::jsonb) AS members
                                 FROM team_members tm JOIN people p ON p.id = tm.person_id AND p.deleted_at IS NULL WHERE tm.team_id = t.id) m
           WHERE t.deleted_at IS NULL`,
    rbac: 'database',
    writeRbac: 'identities',
    resourceKind: teamKind as ResourceKind,
    columns: [{ name: 'Members', description: 'people in the team', cell: (row) => text(row.extra?.members) }],
    remove: softDelete('teams'),
  },
  {
    kind: 'Permission', group: MISSION_CONTROL, version: 'v1', plural: 'permissions', singular: 'permission', shortNames: ['perm'], namespaced: true,
    // Console permissions without a name are not resources kubectl can address: they are left out.
    rows: `SELECT pm.id, pm.name, coalesce(pm.namespace, 'default') AS namespace, '{}'::jsonb AS labels, NULL::jsonb AS spec, pm.source, pm.created_at, ${RV('pm.')},
             jsonb_build_object('description', pm.description, 'action', pm.action, 'deny', pm.deny, 'subject_type', pm.subject_type, 'subject', pm.subject,
               'person_email', p.email, 'team_name', t.name, 'object', pm.object, 'object_selector', pm.object_selector, 'config_id', pm.config_id,
               'component_id', pm.component_id, 'playbook_id', pm.playbook_id, 'connection_id', pm.connection_id, 'tags', pm.tags, 'agents', pm.agents) AS extra
           FROM permissions pm LEFT JOIN people p ON p.id = pm.person_id LEFT JOIN teams t ON t.id = pm.team_id
           WHERE pm.deleted_at IS NULL AND pm.name IS NOT NULL`,
    rbac: 'rbac',
    resourceKind: permissionKind as ResourceKind,
    specOf: permissionSpec,
    columns: [
      { name: 'Subject', description: 'who: person, team or group', cell: (row) => `${text(row.extra?.subject_type)}:${text(row.extra?.person_email) || text(row.extra?.team_name) || text(row.extra?.subject)}` },
      { name: 'Object', description: 'what it is about', cell: (row) => text(row.extra?.object) || (isRecord(row.extra?.object_selector) ? Object.keys(row.extra.object_selector).join(',') : '') || ['config_id', 'component_id', 'playbook_id', 'connection_id'].map((key) => text(row.extra?.[key])).find(Boolean) || '<none>' },
      { name: 'Action', description: 'the actions', cell: (row) => text(row.extra?.action) },
      { name: 'Deny', description: 'true: denies', cell: (row) => String(row.extra?.deny === true) },
    ],
    remove: softDelete('permissions'),
  },
  {
    kind: 'PermissionGroup', group: MISSION_CONTROL, version: 'v1', plural: 'permissiongroups', singular: 'permissiongroup', shortNames: ['pg'], namespaced: true,
    rows: `SELECT id, name, namespace, labels,
             jsonb_strip_nulls(jsonb_build_object('people', CASE WHEN cardinality(people) > 0 THEN to_jsonb(people) END, 'teams', CASE WHEN cardinality(teams) > 0 THEN to_jsonb(teams) END)) || selectors AS spec,
             source, created_at, ${RV()}, jsonb_build_object('people', cardinality(people), 'teams', cardinality(teams)) AS extra
           FROM permission_groups WHERE deleted_at IS NULL`,
    rbac: 'rbac',
    resourceKind: permissionGroupKind as ResourceKind,
    columns: [
      { name: 'People', description: 'people named', cell: (row) => text(row.extra?.people) },
      { name: 'Teams', description: 'teams named', cell: (row) => text(row.extra?.teams) },
    ],
    remove: softDelete('permission_groups'),
  },
  {
    kind: 'Secret', group: '', version: 'v1', plural: 'secrets', singular: 'secret', shortNames: [], namespaced: true,
    // Values are write-only: every key answers an empty value.
    rows: `SELECT id, name, namespace, labels,
             jsonb_strip_nulls(jsonb_build_object('type', type, 'data', (SELECT coalesce(jsonb_object_agg(key, ''), '{}'::jsonb) FROM jsonb_object_keys(data) AS key))) AS spec,
             source, created_at, ${RV()}, jsonb_build_object('type', coalesce(type, 'Opaque'), 'keys', (SELECT count(*) FROM jsonb_object_keys(data))) AS extra
           FROM secrets WHERE kind = 'Secret' AND deleted_at IS NULL`,
    rbac: 'connections',
    resourceKind: secretKind as ResourceKind,
    topLevel: true,
    annotations: { 'watchkeeper.dev/values': 'write-only: data keys are listed with empty values; a key sent empty keeps its stored value' },
    columns: [
      { name: 'Type', description: 'the secret type', cell: (row) => text(row.extra?.type) },
      { name: 'Data', description: 'number of keys', cell: (row) => text(row.extra?.keys) },
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
    remove: softDelete('secrets'),
  },
  {
    kind: 'ConfigMap', group: '', version: 'v1', plural: 'configmaps', singular: 'configmap', shortNames: ['cm'], namespaced: true,
    rows: `SELECT id, name, namespace, labels, jsonb_build_object('data', data) AS spec, source, created_at, ${RV()},
             jsonb_build_object('keys', (SELECT count(*) FROM jsonb_object_keys(data))) AS extra
           FROM secrets WHERE kind = 'ConfigMap' AND deleted_at IS NULL`,
    rbac: 'connections',
    resourceKind: configMapKind as ResourceKind,
    topLevel: true,
    columns: [{ name: 'Data', description: 'number of keys', cell: (row) => text(row.extra?.keys) }],
    remove: softDelete('secrets'),
  },
];

for (const kind of KUBE_KINDS) {
  // The served apiVersion must be one the kind accepts from `apply`: a mismatch is a programming error.
  if (!kind.resourceKind.apiVersions.includes(apiVersionOf(kind))) throw new Error(`${kind.kind}: ${apiVersionOf(kind)} is not among its apiVersions`);
}

/** The API groups under /apis (the core group '' is /api/v1). */
export const GROUPS = [...new Set(KUBE_KINDS.map((kind) => kind.group))].filter(Boolean);

/** The kind a URL's resource names: plural, singular or a short name, in that group ('' for /api/v1). */
export function kindOf(group: string, resource: string): KubeKind | undefined {
  const name = resource.toLowerCase();
  return KUBE_KINDS.find((kind) => kind.group === group && (kind.plural === name || kind.singular === name || kind.shortNames.includes(name)));
}
