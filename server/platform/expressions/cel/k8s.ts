import { isRecord } from '../../errors';
import { parseJSON, parseYAML } from './json';
import { entriesOf, fail, isMap, toStr, typeName, type Registrar } from './support';

type Obj = Record<string, unknown>;

export interface HealthStatus {
  status: string;
  message: string;
  health: 'healthy' | 'unhealthy' | 'warning' | 'unknown';
  ready: boolean;
  /** Deprecated upstream; health == healthy. */
  ok: boolean;
}

function obj(value: unknown): Obj {
  return isRecord(value) ? value : {};
}

function list(value: unknown): Obj[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function int(value: unknown): number | undefined {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return value;
  return undefined;
}

function condition(status: Obj, type: string): Obj | undefined {
  return list(status.conditions).find((c) => c.type === type);
}

/** An object as gomplate's GetUnstructured reads it: a map (or its `Object`), or YAML/JSON text. */
function unstructured(value: unknown): Obj | undefined {
  if (value instanceof Map) return Object.fromEntries(entriesOf(value, 'k8s'));
  if (isRecord(value)) return isRecord(value.Object) ? value.Object : value;
  if (typeof value === 'string' || value instanceof Uint8Array) {
    const text = typeof value === 'string' ? value : Buffer.from(value).toString('utf8');
    try {
      const parsed = text.trim().startsWith('{') ? parseJSON(text, 'k8s') : parseYAML(text, 'k8s');
      return isRecord(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const result = (health: HealthStatus['health'], status: string, ready: boolean, message = ''): HealthStatus => ({ health, status, ready, message, ok: health === 'healthy' });

const BAD_WAITING = /CrashLoopBackOff|ImagePullBackOff|ErrImagePull|CreateContainerConfigError|CreateContainerError|InvalidImageName|RunContainerError|OOMKilled|Error/;

function podHealth(o: Obj): HealthStatus {
  const metadata = obj(o.metadata);
  const status = obj(o.status);
  const phase = toStr(status.phase);
  const containers = [...list(status.initContainerStatuses), ...list(status.containerStatuses)];
  if (metadata.deletionTimestamp) return result('warning', 'Terminating', false);
  for (const container of containers) {
    const waiting = obj(obj(container.state).waiting);
    const reason = toStr(waiting.reason);
    if (reason && BAD_WAITING.test(reason)) return result('unhealthy', reason, false, toStr(waiting.message));
    const terminated = obj(obj(container.state).terminated);
    if (phase !== 'Succeeded' && terminated.reason && int(terminated.exitCode) !== 0 && list(status.initContainerStatuses).includes(container)) {
      return result('unhealthy', toStr(terminated.reason), false, toStr(terminated.message));
    }
  }
  const ready = condition(status, 'Ready')?.status === 'True';
  switch (phase) {
    case 'Succeeded':
      return result('healthy', 'Completed', true, toStr(status.message));
    case 'Failed':
      return result('unhealthy', toStr(status.reason) || 'Failed', false, toStr(status.message));
    case 'Pending': {
      const waiting = containers.map((c) => toStr(obj(obj(c.state).waiting).reason)).find((reason) => reason !== '');
      return result('unknown', waiting || 'Pending', false, toStr(status.message));
    }
    case 'Running': {
      if (ready) return result('healthy', 'Running', true);
      const restarting = containers.find((c) => (int(c.restartCount) ?? 0) > 0 && c.ready !== true);
      if (restarting) return result('unhealthy', 'Running', false, `${toStr(restarting.name)} is not ready`);
      return result('unknown', 'Running', false, toStr(condition(status, 'Ready')?.message));
    }
    default:
      return result('unknown', phase || 'Unknown', false, toStr(status.message));
  }
}

function workloadHealth(kind: string, o: Obj): HealthStatus {
  const metadata = obj(o.metadata);
  const spec = obj(o.spec);
  const status = obj(o.status);
  const desired = kind === 'DaemonSet' ? int(status.desiredNumberScheduled) ?? 0 : int(spec.replicas) ?? 1;
  const ready = kind === 'DaemonSet' ? int(status.numberReady) ?? 0 : int(status.readyReplicas) ?? 0;
  const updated = kind === 'DaemonSet' ? int(status.updatedNumberScheduled) ?? 0 : int(status.updatedReplicas) ?? ready;
  const progressing = condition(status, 'Progressing');
  if (progressing?.status === 'False' && progressing.reason === 'ProgressDeadlineExceeded') {
    return result('unhealthy', 'Failed', false, toStr(progressing.message));
  }
  const failure = condition(status, 'ReplicaFailure');
  if (failure?.status === 'True') return result('unhealthy', 'Failed', false, toStr(failure.message));
  if (desired === 0 && ready === 0) return result('healthy', 'Scaled to Zero', true);
  const observed = int(status.observedGeneration);
  const generation = int(metadata.generation);
  if (observed !== undefined && generation !== undefined && observed < generation) return result('unknown', 'Updating', false);
  if (ready >= desired && updated >= desired) return result('healthy', 'Running', true, `${ready}/${desired} ready`);
  if (ready === 0) return result('unhealthy', 'Starting', false, `0/${desired} ready`);
  return result('warning', 'Updating', false, `${ready}/${desired} ready`);
}

/** Health of a Kubernetes object, after flanksource/is-healthy for the common kinds. */
export function k8sHealth(value: unknown): HealthStatus {
  const o = unstructured(value);
  if (!o) return result('unhealthy', 'Error', false, 'Invalid spec');
  const kind = toStr(o.kind);
  const status = obj(o.status);
  switch (kind) {
    case 'Pod':
      return podHealth(o);
    case 'Deployment':
    case 'StatefulSet':
    case 'ReplicaSet':
    case 'DaemonSet':
    case 'ReplicationController':
      return workloadHealth(kind, o);
    case 'Job': {
      const failed = condition(status, 'Failed');
      if (failed?.status === 'True') return result('unhealthy', 'Failed', false, toStr(failed.message));
      const complete = condition(status, 'Complete');
      if (complete?.status === 'True') return result('healthy', 'Completed', true, toStr(complete.message));
      return result('unknown', 'Running', false);
    }
    case 'Service': {
      if (obj(o.spec).type === 'LoadBalancer' && list(obj(status.loadBalancer).ingress).length === 0) return result('unknown', 'Creating', false);
      return result('healthy', '', true);
    }
    case 'Ingress':
      return list(obj(status.loadBalancer).ingress).length > 0 ? result('healthy', '', true) : result('unknown', 'Creating', false);
    case 'PersistentVolumeClaim': {
      const phase = toStr(status.phase);
      if (phase === 'Bound') return result('healthy', 'Bound', true);
      if (phase === 'Lost') return result('unhealthy', 'Lost', false);
      return result('unknown', phase || 'Pending', false);
    }
    case 'Namespace':
      return toStr(status.phase) === 'Terminating' ? result('warning', 'Terminating', false) : result('healthy', toStr(status.phase) || 'Active', true);
    case 'Node': {
      const ready = condition(status, 'Ready');
      if (ready?.status === 'True') return result('healthy', 'Ready', true);
      return result('unhealthy', 'NotReady', false, toStr(ready?.message));
    }
    default: {
      const ready = condition(status, 'Ready');
      if (ready?.status === 'True') return result('healthy', toStr(ready.reason) || 'Ready', true, toStr(ready.message));
      if (ready?.status === 'False') return result('unhealthy', toStr(ready.reason) || 'NotReady', false, toStr(ready.message));
      // gomplate: no health known for the kind → unknown but ready.
      return { health: 'unknown', status: '', message: '', ready: true, ok: false };
    }
  }
}

/** A CPU quantity (`100m`, `0.5`, `15000000n`) as millicores. */
export function cpuMillicores(text: string): bigint {
  const match = /^(\d+(?:\.\d+)?)(n|u|m|)$/.exec(text.trim());
  if (!match) return fail(`k8s.cpuAsMillicores: "${text}" is not a CPU quantity`);
  const value = Number(match[1]);
  const scale = { n: 1e-6, u: 1e-3, m: 1, '': 1000 }[match[2] as 'n' | 'u' | 'm' | ''];
  return BigInt(Math.floor(value * scale + 1e-9));
}

/** A memory quantity (`512Mi`, `1Gi`, `1G`, `1.5gi`) as bytes. */
export function memoryBytes(text: string): bigint {
  const match = /^(\d+(?:\.\d+)?)([kKmMgGtTpPeE]i?|)$/.exec(text.trim());
  if (!match) return fail(`k8s.memoryAsBytes: "${text}" is not a memory quantity`);
  const unit = (match[2] ?? '').toLowerCase();
  const powers: Record<string, number> = { '': 1, k: 1e3, m: 1e6, g: 1e9, t: 1e12, p: 1e15, e: 1e18, ki: 2 ** 10, mi: 2 ** 20, gi: 2 ** 30, ti: 2 ** 40, pi: 2 ** 50, ei: 2 ** 60 };
  return BigInt(Math.floor(Number(match[1]) * (powers[unit] ?? 1)));
}

/** A glob with `*` anywhere. */
function glob(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const source = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${source}$`).test(value);
}

/**
 * Mission Control's matchLabel(labels, key, patterns): patterns are comma-separated globs, `!` negates.
 * A missing key matches only negations.
 */
export function matchLabel(labels: unknown, key: string, patterns: string): boolean {
  const map = isMap(labels) ? new Map(entriesOf(labels, 'matchLabel').map(([k, v]) => [toStr(k), toStr(v)])) : new Map<string, string>();
  const all = patterns.split(',').map((p) => p.trim()).filter((p) => p !== '');
  const negative = all.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  const positive = all.filter((p) => !p.startsWith('!'));
  const value = map.get(key);
  if (value === undefined) return positive.length === 0;
  if (negative.some((p) => glob(p, value))) return false;
  return positive.length === 0 || positive.some((p) => glob(p, value));
}

function field(resource: Obj, key: string): string | undefined {
  const metadata = obj(resource.metadata);
  const lower = key.toLowerCase();
  const prefixed = /^(tags|labels)\.(.+)$/.exec(key);
  if (prefixed) {
    const name = prefixed[2] ?? '';
    for (const source of [resource.tags, resource.labels, metadata.labels]) {
      if (isMap(source)) {
        const hit = entriesOf(source, 'matchQuery').find(([k]) => toStr(k) === name);
        if (hit) return toStr(hit[1]);
      }
    }
    return undefined;
  }
  const aliases: Record<string, unknown[]> = {
    name: [resource.name, metadata.name],
    namespace: [resource.namespace, metadata.namespace],
    type: [resource.type, resource.config_type, resource.kind],
    kind: [resource.kind, resource.type],
    id: [resource.id, metadata.uid],
  };
  for (const candidate of aliases[lower] ?? [resource[key], metadata[key]]) {
    if (candidate !== undefined && candidate !== null) return toStr(candidate);
  }
  return undefined;
}

/**
 * matchQuery(resource, query): whitespace-separated `key=value` / `key!=value` terms (values are
 * comma-separated globs), all of which must hold; a bare word matches the name. Keys: name, namespace,
 * type, kind, id, status, health, tags.X / labels.X, or any top-level field.
 */
export function matchQuery(resource: unknown, query: string): boolean {
  const o = unstructured(resource) ?? {};
  for (const term of query.trim().split(/\s+/).filter((t) => t !== '')) {
    const match = /^([^=!<>]+?)(!=|=)(.*)$/.exec(term);
    if (!match) {
      if (!glob(term, field(o, 'name') ?? '')) return false;
      continue;
    }
    const value = field(o, match[1] ?? '');
    const patterns = (match[3] ?? '').split(',');
    const hit = value !== undefined && patterns.some((p) => glob(p, value));
    if (match[2] === '=' ? !hit : hit) return false;
  }
  return true;
}

export function registerK8s(r: Registrar): void {
  const health = (value: unknown) => ({ ...k8sHealth(value) });
  for (const name of ['k8s.getHealth', 'GetHealth']) r.fn(name, 1, health, 'map');
  for (const name of ['k8s.getStatus', 'GetStatus']) {
    r.fn(name, 1, (value: unknown) => {
      const h = k8sHealth(value);
      return `${h.status}: ${h.message}`;
    }, 'string');
  }
  for (const name of ['k8s.isHealthy', 'IsHealthy', 'k8s.is_healthy']) r.fn(name, 1, (value: unknown) => k8sHealth(value).ok, 'bool');
  for (const name of ['k8s.isReady', 'IsReady']) r.fn(name, 1, (value: unknown) => k8sHealth(value).ready, 'bool');
  r.fn('k8s.cpuAsMillicores', 1, (text: unknown) => cpuMillicores(toStr(text)), 'int');
  r.fn('k8s.memoryAsBytes', 1, (text: unknown) => memoryBytes(toStr(text)), 'int');
  r.fn('matchLabel', 3, (labels: unknown, key: unknown, patterns: unknown) => matchLabel(labels, toStr(key), toStr(patterns)), 'bool');
  r.fn('matchQuery', 2, (resource: unknown, query: unknown) => {
    if (typeof query !== 'string') return fail(`matchQuery: the query must be a string, got ${typeName(query)}`);
    return matchQuery(resource, query);
  }, 'bool');
}
