import type pg from 'pg';
import { isRecord } from '../../platform/errors';
import { kubeGroups, kubeKinds, type KubeKind } from './kinds';
import { KubeError } from './status';
import { age, KUBE_PREFIX, type Row } from './api-support';

/** What kubectl reads besides objects: discovery, OpenAPI, namespaces, and Tables for `kubectl get`. */

// ---- discovery ----
export const resourceList = (group: string, version: string) => ({
  kind: 'APIResourceList',
  apiVersion: 'v1',
  groupVersion: group ? `${group}/${version}` : version,
  resources: [
    ...(group === '' ? [{ name: 'namespaces', singularName: 'namespace', namespaced: false, kind: 'Namespace', verbs: ['get', 'list'], shortNames: ['ns'] }] : []),
    ...kubeKinds().filter((kind) => kind.group === group && kind.version === version).map((kind) => ({
      name: kind.plural,
      singularName: kind.singular,
      namespaced: kind.namespaced,
      kind: kind.kind,
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update'],
      ...(kind.shortNames.length > 0 ? { shortNames: kind.shortNames } : {}),
    })),
  ],
});
export const groupOf = (group: string) => ({
  kind: 'APIGroup',
  apiVersion: 'v1',
  name: group,
  versions: [{ groupVersion: `${group}/v1`, version: 'v1' }],
  preferredVersion: { groupVersion: `${group}/v1`, version: 'v1' },
});

// ---- OpenAPI v3: enough for kubectl to know the server validates (fieldValidation), so `apply` needs no --validate=false ----
export const openApi = (rest: string[]) => {
  if (rest[0] !== 'v3') throw new KubeError('NotFound', 'only /openapi/v3 is served (kubectl 1.27 and later use it)', {});
  if (rest.length === 1) {
    return {
      paths: Object.fromEntries([
        ['api/v1', { serverRelativeURL: `${KUBE_PREFIX}/openapi/v3/api/v1` }],
        ...kubeGroups().map((group) => [`apis/${group}/v1`, { serverRelativeURL: `${KUBE_PREFIX}/openapi/v3/apis/${group}/v1` }]),
      ]),
    };
  }
  const core = rest[1] === 'api' && rest[2] === 'v1' && rest.length === 3;
  const group = core ? '' : (rest[2] ?? '');
  if (!core && (rest[1] !== 'apis' || rest[3] !== 'v1' || rest.length !== 4 || !kubeGroups().includes(group))) throw new KubeError('NotFound', 'the server could not find the requested resource', {});
  const parameters = [{ name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } }];
  const paths: Record<string, unknown> = {};
  for (const kind of kubeKinds().filter((item) => item.group === group)) {
    const gvk = { 'x-kubernetes-group-version-kind': { group, version: 'v1', kind: kind.kind } };
    const responses = { '200': { description: 'OK' } };
    const prefix = core ? '/api/v1' : `/apis/${group}/v1`;
    const collection = kind.namespaced ? `${prefix}/namespaces/{namespace}/${kind.plural}` : `${prefix}/${kind.plural}`;
    paths[collection] = { post: { ...gvk, 'x-kubernetes-action': 'post', parameters, responses } };
    paths[`${collection}/{name}`] = {
      put: { ...gvk, 'x-kubernetes-action': 'put', parameters, responses },
      patch: { ...gvk, 'x-kubernetes-action': 'patch', parameters, responses },
    };
  }
  return { openapi: '3.0.0', info: { title: 'Watchkeeper', version: 'v1' }, paths, components: { schemas: {} } };
};

// ---- namespaces ----
export const namespaces = async (pool: Pick<pg.Pool, 'query'>) => {
  const union = kubeKinds().filter((kind) => kind.namespaced)
    .map((kind) => `SELECT namespace, min(created_at) AS created_at FROM (${kind.rows}) AS r GROUP BY namespace`)
    .join(' UNION ALL ');
  const { rows } = await pool.query<{ namespace: string; created_at: Date }>(`SELECT namespace, min(created_at) AS created_at FROM (${union}) AS all_namespaces GROUP BY namespace ORDER BY namespace`);
  return rows.map((row) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: row.namespace, creationTimestamp: row.created_at.toISOString().replace(/\.\d{3}Z$/, 'Z') },
    spec: {},
    status: { phase: 'Active' },
  }));
};

// ---- tables (kubectl get, -o wide) ----
export const table = async (pool: Pick<pg.Pool, 'query'>, kind: KubeKind | undefined, items: Array<Record<string, unknown>>, rows: Row[], includeObject: boolean, resourceVersion: string) => {
  const canary = kind?.kind === 'Canary';
  const checks = new Map<string, { total: number; healthy: number; last: Date | null }>();
  if (canary && rows.length > 0) {
    const { rows: found } = await pool.query<{ canary_id: string; total: number; healthy: number; last: Date | null }>(
      `SELECT canary_id, count(*)::int AS total, count(*) FILTER (WHERE status = 'healthy')::int AS healthy, max(last_runtime) AS last
         FROM checks WHERE deleted_at IS NULL AND canary_id = ANY($1::uuid[]) GROUP BY canary_id`,
      [rows.map((row) => row.id)],
    );
    for (const row of found) checks.set(row.canary_id, row);
  }
  const columnDefinitions = [
    { name: 'Name', type: 'string', format: 'name', description: 'metadata.name', priority: 0 },
    ...(canary
      ? [
          { name: 'Status', type: 'string', format: '', description: 'Healthy when every check passed its last run', priority: 0 },
          { name: 'Checks', type: 'string', format: '', description: 'healthy / all checks', priority: 0 },
          { name: 'Last Run', type: 'string', format: '', description: 'since the last check ran', priority: 0 },
        ]
      : []),
    ...(kind?.columns ?? []).map((column) => ({ name: column.name, type: 'string', format: '', description: column.description, priority: column.priority ?? 0 })),
    { name: 'Age', type: 'string', format: '', description: 'since it was created', priority: 0 },
    { name: 'Labels', type: 'string', format: '', description: 'metadata.labels', priority: 1 },
  ];
  const tableRows = items.map((item, index) => {
    const metadata = (isRecord(item.metadata) ? item.metadata : {}) as { name?: string; creationTimestamp?: string; labels?: Record<string, string> };
    const row = rows[index];
    const created = metadata.creationTimestamp ? new Date(metadata.creationTimestamp) : new Date();
    const labels = Object.entries(metadata.labels ?? {}).map(([key, value]) => `${key}=${value}`).join(',') || '<none>';
    const cells: unknown[] = [metadata.name];
    if (canary) {
      const found = row ? checks.get(row.id) : undefined;
      const status = !found || found.total === 0 || !found.last ? 'Pending' : found.healthy === found.total ? 'Healthy' : 'Unhealthy';
      cells.push(status, `${found?.healthy ?? 0}/${found?.total ?? 0}`, found?.last ? age(found.last) : '<never>');
    }
    for (const column of kind?.columns ?? []) cells.push(row ? column.cell(row) : '');
    cells.push(age(created), labels);
    return {
      cells,
      object: includeObject ? item : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: item.metadata },
    };
  });
  return { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion }, columnDefinitions, rows: tableRows };
};
