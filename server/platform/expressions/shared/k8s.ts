import { isRecord } from '../../errors';
import { plainValues, type ValueOps } from './values';

/**
 * Kubernetes health (flanksource/is-healthy's reading of the common kinds) and label matching, shared by
 * CEL (`k8s.getHealth`, `IsHealthy`, `matchLabel`…) and the Go templates (`getHealth`, `k8s.IsHealthy`,
 * `matchLabel`…). Each engine passes how it reads YAML/JSON text and how it writes a scalar as text.
 */

export type Obj = Record<string, unknown>;

export interface HealthStatus {
  status: string;
  message: string;
  health: 'healthy' | 'unhealthy' | 'warning' | 'unknown';
  ready: boolean;
  /** Deprecated upstream; health == healthy. */
  ok: boolean;
}

export function obj(value: unknown): Obj {
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

/**
 * An object as gomplate's GetUnstructured reads it: a map (or its `Object`), or YAML/JSON text read by
 * the engine's `parse` (a text that does not parse is no object).
 */
export function unstructured(value: unknown, parse: (text: string) => unknown): Obj | undefined {
  if (value instanceof Map) return Object.fromEntries(value.entries());
  if (isRecord(value)) return isRecord(value.Object) ? value.Object : value;
  if (typeof value === 'string' || value instanceof Uint8Array) {
    const text = typeof value === 'string' ? value : Buffer.from(value).toString('utf8');
    try {
      const parsed = parse(text);
      return isRecord(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const result = (health: HealthStatus['health'], status: string, ready: boolean, message = ''): HealthStatus => ({ health, status, ready, message, ok: health === 'healthy' });

const BAD_WAITING = /CrashLoopBackOff|ImagePullBackOff|ErrImagePull|CreateContainerConfigError|CreateContainerError|InvalidImageName|RunContainerError|OOMKilled|Error/;

function podHealth(o: Obj, toStr: (value: unknown) => string): HealthStatus {
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

function workloadHealth(kind: string, o: Obj, toStr: (value: unknown) => string): HealthStatus {
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

/**
 * Health of a Kubernetes object, after flanksource/is-healthy for the common kinds: `value` is a map (or
 * its `Object`) or YAML/JSON text, read with the engine's `parse`; fields become text as `ops.text` writes them.
 */
export function k8sHealth(value: unknown, parse: (text: string) => unknown, ops: ValueOps = plainValues): HealthStatus {
  const o = unstructured(value, parse);
  if (!o) return result('unhealthy', 'Error', false, 'Invalid spec');
  const toStr = ops.text;
  const kind = toStr(o.kind);
  const status = obj(o.status);
  switch (kind) {
    case 'Pod':
      return podHealth(o, toStr);
    case 'Deployment':
    case 'StatefulSet':
    case 'ReplicaSet':
    case 'DaemonSet':
    case 'ReplicationController':
      return workloadHealth(kind, o, toStr);
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

/** gomplate's GetStatus: `status: message`. */
export function healthLine(health: HealthStatus): string {
  return `${health.status}: ${health.message}`;
}

/** A glob with `*` anywhere. */
export function glob(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const source = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${source}$`).test(value);
}

/**
 * Mission Control's matchLabel(labels, key, patterns): each pattern a glob, `!` negates; the value
 * matches when no negation matches it and, if there are positive patterns, one of them does. A missing
 * key matches only negations. `labels` is the engine's map with keys and values already as text.
 */
export function matchLabel(map: ReadonlyMap<string, string>, key: string, patterns: readonly string[]): boolean {
  const all = patterns.map((p) => p.trim()).filter((p) => p !== '');
  const negative = all.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  const positive = all.filter((p) => !p.startsWith('!'));
  const value = map.get(key);
  if (value === undefined) return positive.length === 0;
  if (negative.some((p) => glob(p, value))) return false;
  return positive.length === 0 || positive.some((p) => glob(p, value));
}
