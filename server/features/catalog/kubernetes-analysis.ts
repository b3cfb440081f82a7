import { isRecord } from '../../platform/errors';
import type { AnalysisInput } from './types';

/**
 * Insights every scraper of Kubernetes objects finds without configuration: containers stuck waiting,
 * privileged containers, images without a pinned tag, workloads without resource limits, single-replica
 * deployments. Each is one analyzer per item (config_analysis is unique by item and analyzer): an insight
 * no longer found on the next scrape is resolved by the store.
 */

const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob']);
const WAITING_PROBLEMS = new Set(['CrashLoopBackOff', 'ImagePullBackOff', 'ErrImagePull', 'CreateContainerConfigError', 'InvalidImageName', 'RunContainerError']);

const list = (value: unknown): Array<Record<string, unknown>> => (Array.isArray(value) ? value.filter(isRecord) : []);
const record = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});

/** The pod spec of a Pod or of a workload's template (CronJob: its job template's). */
function podSpec(kind: string, spec: Record<string, unknown>): Record<string, unknown> | undefined {
  if (kind === 'Pod') return spec;
  if (!WORKLOAD_KINDS.has(kind)) return undefined;
  if (kind === 'CronJob') return record(record(record(record(spec.jobTemplate).spec).template).spec);
  return record(record(spec.template).spec);
}

/** ReplicaSets and Pods owned by a controller repeat its template: the owner carries the template insights. */
function ownedByController(metadata: Record<string, unknown>): boolean {
  return list(metadata.ownerReferences).some((owner) => owner.controller === true);
}

function names(containers: Array<Record<string, unknown>>): string {
  return containers.map((container) => String(container.name ?? '?')).join(', ');
}

export function kubernetesAnalysis(kind: string, config: Record<string, unknown>): AnalysisInput[] {
  const found: AnalysisInput[] = [];
  const spec = record(config.spec);
  const status = record(config.status);
  const metadata = record(config.metadata);

  if (kind === 'Pod') {
    const waiting = list(status.containerStatuses)
      .concat(list(status.initContainerStatuses))
      .map((container) => ({ name: String(container.name ?? '?'), reason: String(record(record(container.state).waiting).reason ?? ''), restarts: Number(container.restartCount ?? 0) }))
      .filter((container) => WAITING_PROBLEMS.has(container.reason));
    if (waiting.length > 0) {
      found.push({
        analyzer: 'container-waiting',
        analysisType: 'availability',
        severity: 'high',
        summary: waiting.map((container) => `${container.name}: ${container.reason}`).join(', '),
        message: waiting.map((container) => `Container ${container.name} is waiting: ${container.reason}${container.restarts > 0 ? ` after ${container.restarts} restarts` : ''}.`).join(' '),
        analysis: { containers: waiting },
      });
    }
  }

  const pod = podSpec(kind, spec);
  if (pod && !ownedByController(metadata)) {
    const containers = list(pod.containers).concat(list(pod.initContainers));
    const privileged = containers.filter((container) => record(container.securityContext).privileged === true);
    if (privileged.length > 0) {
      found.push({
        analyzer: 'privileged-container',
        analysisType: 'security',
        severity: 'high',
        summary: `privileged: ${names(privileged)}`,
        message: `Containers ${names(privileged)} run privileged: they have every capability of the node.`,
      });
    }
    const unpinned = containers.filter((container) => {
      const image = String(container.image ?? '');
      if (image === '' || image.includes('@sha256:')) return false;
      const tag = /:([^/:]+)$/.exec(image)?.[1];
      return tag === undefined || tag === 'latest';
    });
    if (unpinned.length > 0) {
      found.push({
        analyzer: 'image-not-pinned',
        analysisType: 'reliability',
        severity: 'medium',
        summary: unpinned.map((container) => String(container.image)).join(', '),
        message: `Images ${unpinned.map((container) => String(container.image)).join(', ')} have no tag or the latest tag: a restart may run different code.`,
      });
    }
    const unlimited = list(pod.containers).filter((container) => {
      const limits = record(record(container.resources).limits);
      return limits.memory === undefined;
    });
    if (unlimited.length > 0) {
      found.push({
        analyzer: 'no-memory-limit',
        analysisType: 'reliability',
        severity: 'low',
        summary: `no memory limit: ${names(unlimited)}`,
        message: `Containers ${names(unlimited)} have no memory limit: one leak can starve the whole node.`,
      });
    }
  }

  if (kind === 'Deployment' && Number(spec.replicas ?? 1) === 1) {
    found.push({
      analyzer: 'single-replica',
      analysisType: 'availability',
      severity: 'low',
      summary: 'one replica',
      message: 'The deployment runs one replica: every rollout or node drain is an outage.',
    });
  }
  return found;
}
