import type { FastifyRequest } from 'fastify';
import { parse as parseYaml } from 'yaml';
import type { Action } from '../../../common/rbac';
import { decide, mayAllowSome } from '../../platform/auth/decide';
import type { AccessTarget, Actor } from '../../platform/auth/types';
import type { AgentTable } from '../../platform/deletable';
import { isRecord } from '../../platform/errors';
import { apiVersionOf, qualifiedName, rbacOf, type KubeKind, type KubeRow } from './kinds';
import { KubeError } from './status';

/** What the Kubernetes-style API's routes (api.ts) share: its constants, objects as kubectl reads them, permissions, request options. */

/** What kubectl-made resources are stored as (DESIGN §4 source): changed again by kubectl, not taken over from the console. */
export const SOURCE = 'KubernetesCRD';
export const KUBE_PREFIX = '/api/kubernetes';
/** How often a watch lists again to find changes. */
export const WATCH_POLL_MS = 1000;

/** A kind's AccessTarget kind, for permission rows that select single resources (spec §6). */
export const TARGETS: Record<string, AccessTarget['kind'] | undefined> = { Canary: 'canary', Playbook: 'playbook', View: 'view' };

/** The kinds an agent may push up (migration 0028), with their table and the console's noun for them. */
export const AGENT_KINDS: Record<string, { table: AgentTable; noun: string } | undefined> = {
  Canary: { table: 'canaries', noun: 'canary' },
  ScrapeConfig: { table: 'config_scrapers', noun: 'scraper' },
  Topology: { table: 'topologies', noun: 'topology' },
};

/** A row with the annotations stored for it (migration 0029). */
export type Row = KubeRow & { annotations: Record<string, string> | null };

/** Annotations of ours, answered on every object and never stored from a request. */
export const OWN_ANNOTATIONS = 'watchkeeper.dev/';
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

export function objectOf(kind: KubeKind, row: Row): Record<string, unknown> {
  const spec = kind.specOf ? kind.specOf(row) : (row.spec ?? {});
  return {
    apiVersion: apiVersionOf(kind),
    kind: kind.kind,
    metadata: {
      name: row.name,
      ...(kind.namespaced ? { namespace: row.namespace } : {}),
      uid: row.id,
      resourceVersion: row.rv,
      creationTimestamp: row.created_at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      labels: row.labels ?? {},
      annotations: { ...(row.annotations ?? {}), ...(kind.annotations ?? {}), 'watchkeeper.dev/source': row.source },
    },
    ...(kind.topLevel ? spec : { spec }),
  };
}

export function targetOf(kind: KubeKind, row: Row): AccessTarget | undefined {
  const target = TARGETS[kind.kind];
  return target ? { kind: target, id: row.id, name: row.name, namespace: row.namespace, labels: row.labels ?? {} } : undefined;
}

/** Whether the actor may do the action on some object of the kind (by role, or by permissions on single objects). */
export function mayAct(actor: Actor, kind: KubeKind, action: Action): boolean {
  const resource = rbacOf(kind, action);
  const target = TARGETS[kind.kind];
  return decide(actor, resource, action).allowed || (target !== undefined && mayAllowSome(actor, resource, action, target));
}

export function forbidden(actor: Actor, kind: KubeKind, verb: string, name?: string, namespace?: string): KubeError {
  const who = actor.email ?? actor.name;
  const what = `${qualifiedName(kind)}${name ? ` "${name}"` : ''}`;
  return new KubeError('Forbidden', `${what} is forbidden: User "${who}" cannot ${verb} resource "${kind.plural}" in API group "${kind.group}"${namespace ? ` in the namespace "${namespace}"` : ''}`, {
    ...(name ? { name } : {}),
    group: kind.group,
    kind: kind.plural,
  });
}

export function notFound(kind: KubeKind, name: string): KubeError {
  return new KubeError('NotFound', `${qualifiedName(kind)} "${name}" not found`, { name, group: kind.group, kind: kind.plural });
}

/** "12s", "5m", "3h", "2d": the age kubectl prints. */
export function age(since: Date, now = Date.now()): string {
  const seconds = Math.max(0, Math.floor((now - since.getTime()) / 1000));
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 172800) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86400)}d`;
}

/** `?dryRun=All`: check everything, write nothing (any other value is refused, as Kubernetes does). */
export function dryRunOf(req: FastifyRequest): boolean {
  const value = (req.query as Record<string, unknown>).dryRun;
  if (value === undefined) return false;
  if (value !== 'All') throw new KubeError('BadRequest', `dryRun: "${String(value)}" is not accepted; use All`);
  return true;
}

/** kubectl delete sends its options (DeleteOptions, `dryRun: [All]`) in the body. */
export function deleteOptionsDryRun(req: FastifyRequest): boolean {
  const text = typeof req.body === 'string' ? req.body : '';
  if (text.trim() === '') return false;
  let options: unknown;
  try {
    options = JSON.parse(text);
  } catch {
    throw new KubeError('BadRequest', 'the body of a delete must be DeleteOptions JSON');
  }
  const dryRun = isRecord(options) ? options.dryRun : undefined;
  if (dryRun === undefined || (Array.isArray(dryRun) && dryRun.length === 0)) return false;
  if (Array.isArray(dryRun) && dryRun.every((value) => value === 'All')) return true;
  throw new KubeError('BadRequest', 'dryRun: only [All] is accepted');
}

/** A strategic merge patch without its directives (`$setElementOrder/…`, `$retainKeys`, `$patch`): applied as a merge patch. */
export function withoutDirectives(patch: unknown): unknown {
  if (Array.isArray(patch)) return patch.map(withoutDirectives);
  if (!isRecord(patch)) return patch;
  return Object.fromEntries(Object.entries(patch).filter(([key]) => !key.startsWith('$')).map(([key, value]) => [key, withoutDirectives(value)]));
}

export const wantsTable = (req: FastifyRequest) => /as=Table/.test(String(req.headers.accept ?? ''));

export function requireActor(req: FastifyRequest): Actor {
  if (!req.actor) throw new KubeError('Unauthorized', 'Unauthorized: send the token of your kubeconfig (Authorization: Bearer <token>); GET /api/kubeconfig makes one');
  return req.actor;
}

/** The request body as a document: JSON or YAML, whatever content type kubectl sends. */
export function bodyOf(req: FastifyRequest): unknown {
  const text = typeof req.body === 'string' ? req.body : Buffer.isBuffer(req.body) ? req.body.toString('utf8') : undefined;
  if (text === undefined || text.trim() === '') throw new KubeError('BadRequest', 'the request has no body');
  try {
    return parseYaml(text);
  } catch (error) {
    throw new KubeError('BadRequest', `the body is not JSON or YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
}
