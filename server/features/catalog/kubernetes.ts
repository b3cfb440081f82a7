import { isRecord } from '../../platform/errors';
import { kubernetesAnalysis } from './kubernetes-analysis';
import type { AnalysisInput, Health, ItemRef, ScrapedItem } from './types';

export interface KubernetesDefaults {
  type: string;
  externalIds: string[];
  name: string;
  namespace: string | null;
  labels: Record<string, string>;
  tags: Record<string, string>;
  configClass: string;
  status: string | null;
  health: Health | null;
  ready: boolean | null;
  createdAt: Date | null;
  deletedAt: Date | null;
  parents: ItemRef[];
  relationships: ScrapedItem['relationships'];
  /** The built-in Kubernetes insights (kubernetes-analysis.ts). */
  analysis: AnalysisInput[];
  exclude: string[];
  mask: Array<{ selector?: string; jsonpath: string; value: string }>;
}

const record = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The id a Kubernetes object is known by besides its uid: Kind/namespace/name (cluster-scoped: Kind//name). */
export function kubernetesKey(kind: string, namespace: string | null | undefined, name: string): string {
  return `${kind}/${namespace ?? ''}/${name}`;
}

function strings(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(record(value))) if (typeof item === 'string') out[key] = item;
  return out;
}

function condition(status: Record<string, unknown>, type: string): string | undefined {
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  const found = conditions.find((entry) => isRecord(entry) && entry.type === type);
  if (!isRecord(found)) return undefined;
  // Hand-written manifests often leave True/False unquoted, which YAML reads as booleans.
  if (typeof found.status === 'boolean') return found.status ? 'True' : 'False';
  return str(found.status);
}

/** Health and status from the object's status, where the kind has one that says. */
function healthOf(kind: string, spec: Record<string, unknown>, status: Record<string, unknown>): { health: Health | null; status: string | null; ready: boolean | null } {
  if (Object.keys(status).length === 0) return { health: null, status: null, ready: null };
  switch (kind) {
    case 'Pod': {
      const phase = str(status.phase) ?? 'Unknown';
      const statuses = Array.isArray(status.containerStatuses) ? status.containerStatuses.filter(isRecord) : [];
      const waiting = statuses.map((c) => str(record(record(c.state).waiting).reason)).find((reason) => reason !== undefined);
      const ready = condition(status, 'Ready') === 'True';
      if (waiting) return { health: /CrashLoop|Err|BackOff/.test(waiting) ? 'unhealthy' : 'warning', status: waiting, ready };
      if (phase === 'Failed') return { health: 'unhealthy', status: 'Failed', ready: false };
      if (phase === 'Pending') return { health: 'warning', status: 'Pending', ready: false };
      if (phase === 'Succeeded') return { health: 'healthy', status: 'Completed', ready };
      if (phase === 'Running') return { health: ready ? 'healthy' : 'warning', status: 'Running', ready };
      return { health: 'unknown', status: phase, ready };
    }
    case 'Deployment':
    case 'StatefulSet':
    case 'ReplicaSet': {
      const desired = num(spec.replicas) ?? num(status.replicas) ?? 1;
      const ready = num(status.readyReplicas) ?? 0;
      if (desired === 0) return { health: 'healthy', status: 'Scaled to Zero', ready: true };
      if (ready >= desired) return { health: 'healthy', status: 'Running', ready: true };
      if (ready === 0) return { health: 'unhealthy', status: `0/${desired} ready`, ready: false };
      return { health: 'warning', status: `${ready}/${desired} ready`, ready: false };
    }
    case 'DaemonSet': {
      const desired = num(status.desiredNumberScheduled) ?? 0;
      const ready = num(status.numberReady) ?? 0;
      if (ready >= desired) return { health: 'healthy', status: 'Running', ready: true };
      return { health: ready === 0 ? 'unhealthy' : 'warning', status: `${ready}/${desired} ready`, ready: false };
    }
    case 'Job': {
      if ((num(status.failed) ?? 0) > 0 && condition(status, 'Failed') === 'True') return { health: 'unhealthy', status: 'Failed', ready: false };
      if ((num(status.succeeded) ?? 0) > 0) return { health: 'healthy', status: 'Completed', ready: true };
      return { health: 'unknown', status: 'Running', ready: false };
    }
    case 'Node': {
      const ready = condition(status, 'Ready');
      if (ready === 'True') return { health: 'healthy', status: 'Ready', ready: true };
      return { health: 'unhealthy', status: ready === undefined ? 'Unknown' : 'NotReady', ready: false };
    }
    case 'Namespace': {
      const phase = str(status.phase);
      return { health: phase === 'Active' ? 'healthy' : 'warning', status: phase ?? null, ready: phase === 'Active' };
    }
    case 'PersistentVolumeClaim': {
      const phase = str(status.phase);
      return { health: phase === 'Bound' ? 'healthy' : phase === 'Lost' ? 'unhealthy' : 'warning', status: phase ?? null, ready: phase === 'Bound' };
    }
    default:
      return { health: null, status: null, ready: null };
  }
}

/**
 * What a Kubernetes object (apiVersion, kind, metadata.name) says about itself: type Kubernetes::<Kind>,
 * ids (metadata.uid and Kind/namespace/name), namespace, labels, owners as parents (then its namespace),
 * health from status, managedFields and the last-applied annotation left out, Secret data masked.
 * Undefined for anything else.
 */
export function kubernetesDefaults(config: unknown): KubernetesDefaults | undefined {
  if (!isRecord(config) || typeof config.apiVersion !== 'string' || typeof config.kind !== 'string' || !isRecord(config.metadata)) return undefined;
  const metadata = config.metadata;
  const name = str(metadata.name);
  if (!name) return undefined;
  const kind = config.kind;
  const namespace = str(metadata.namespace) ?? null;
  const uid = str(metadata.uid);
  const key = kubernetesKey(kind, namespace, name);
  const parents: ItemRef[] = [];
  const owners = Array.isArray(metadata.ownerReferences) ? metadata.ownerReferences.filter(isRecord) : [];
  // The controller first: it is the parent; other owners follow as further candidates.
  owners.sort((a, b) => Number(b.controller === true) - Number(a.controller === true));
  for (const owner of owners) {
    const ownerKind = str(owner.kind);
    const ownerName = str(owner.name);
    if (!ownerKind || !ownerName) continue;
    parents.push({ type: `Kubernetes::${ownerKind}`, externalId: str(owner.uid) ?? kubernetesKey(ownerKind, namespace, ownerName), anyType: true });
  }
  if (namespace && kind !== 'Namespace') parents.push({ type: 'Kubernetes::Namespace', externalId: kubernetesKey('Namespace', null, namespace), anyType: true });
  const relationships: ScrapedItem['relationships'] = [];
  // A Pod relates to the Node it runs on; a Service… is matched by rules, not guessed here.
  const spec = record(config.spec);
  const nodeName = kind === 'Pod' ? str(spec.nodeName) : undefined;
  if (nodeName) relationships.push({ type: 'Kubernetes::Node', externalId: kubernetesKey('Node', null, nodeName), anyType: true, relation: 'runs on', direction: 'incoming', selector: 'node' });
  const state = healthOf(kind, spec, record(config.status));
  const created = str(metadata.creationTimestamp);
  const deleted = str(metadata.deletionTimestamp);
  const labels = strings(metadata.labels);
  const tags: Record<string, string> = {};
  if (namespace) tags.namespace = namespace;
  const cluster = labels['cluster'] ?? strings(metadata.annotations)['watchkeeper/cluster'];
  if (cluster) tags.cluster = cluster;
  return {
    type: `Kubernetes::${kind}`,
    externalIds: uid ? [uid, key] : [key],
    name,
    namespace,
    labels,
    tags,
    configClass: kind,
    status: state.status,
    health: state.health,
    ready: state.ready,
    createdAt: created ? new Date(created) : null,
    deletedAt: deleted ? new Date(deleted) : null,
    parents,
    relationships,
    analysis: kubernetesAnalysis(kind, config),
    exclude: ['$.metadata.managedFields', "$.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']", '$.metadata.resourceVersion', '$.metadata.generation'],
    mask: kind === 'Secret' ? [{ jsonpath: '$.data.*', value: '******' }, { jsonpath: '$.stringData.*', value: '******' }] : [],
  };
}
