import type pg from 'pg';
import type { Resource } from '../../common/rbac';
import type { ResourceKind } from './resources';

/**
 * A stored kind as the Kubernetes-style API serves it (docs/KUBECTL.md). Each feature gives its own in
 * `Feature.kubeKinds`; the app hands the list to the kube feature when it composes (server/app.ts).
 */

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

/** The API groups of the stored kinds. */
export const KUBE_GROUP = {
  canaries: 'canaries.flanksource.com',
  configs: 'configs.flanksource.com',
  missionControl: 'mission-control.flanksource.com',
} as const;

/** Deletes a row softly (deleted_at), for kinds with nothing depending on them. */
export const kubeSoftDelete = (table: string) => async (pool: pg.Pool, id: string) => {
  await pool.query(`UPDATE ${table} SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL`, [id]);
};

/** The resourceVersion column: updated_at in microseconds. */
export const kubeRv = (alias = '') => `(extract(epoch FROM ${alias}updated_at) * 1000000)::bigint::text AS rv`;

/** The rows of a table of the shared shape: name, namespace, labels, spec, source (DESIGN §4). */
export const kubeSpecRows = (table: string) => `SELECT id, name, namespace, labels, redact_secrets(spec) AS spec, source, created_at, ${kubeRv()}, NULL::jsonb AS extra FROM ${table} WHERE deleted_at IS NULL`;

/** A cell's text: '' for null. */
export const kubeText = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** A timestamp cell: seconds precision, Z; `<none>` when empty. */
export const kubeWhen = (value: unknown) => (typeof value === 'string' && value ? value.replace(/\.\d+/, '').replace('+00:00', 'Z') : '<none>');
