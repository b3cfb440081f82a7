import type pg from 'pg';
import type { Resource } from '../../../common/rbac';
import { inTransaction } from '../../platform/jobs/db';
import type { ResourceKind } from '../../platform/resources';
import { applicationKind } from '../applications/applications';
import { scrapeConfigKind } from '../catalog/scraper-kind';
import { deleteScraper } from '../catalog/scrapers';
import { deleteCanary } from '../health/canaries';
import { canaryKind } from '../health/canary-kind';
import { incidentRuleKind } from '../incidents/rules/kind';
import { notificationKind } from '../notifications/rules';
import { playbookKind } from '../playbooks/playbooks';
import { topologyKind } from '../topology/kind';
import { deleteTopology } from '../topology/topologies';
import { onViewSaved } from '../views/engine';
import { viewKind } from '../views/views';

/** One stored kind as the Kubernetes-style API serves it (docs/KUBECTL.md). */
export interface KubeKind {
  kind: string;
  group: string;
  version: string;
  /** The resource name in URLs (`canaries`). */
  plural: string;
  singular: string;
  shortNames: string[];
  /** Its table: name, namespace, labels, spec, source, created_at, updated_at, deleted_at. */
  table: string;
  /** The RBAC resource whose read/create/update/delete a request needs (spec §6). */
  rbac: Resource;
  /** The declarative kind: the same schema, validation and save as `watchkeeper apply`. */
  resourceKind: ResourceKind;
  /** Deletes (soft) a stored row with what depends on it, as the console's delete does. */
  remove(pool: pg.Pool, id: string): Promise<void>;
}

const softDelete = (table: string) => async (pool: pg.Pool, id: string) => {
  await pool.query(`UPDATE ${table} SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL`, [id]);
};

const CANARIES = 'canaries.flanksource.com';
const CONFIGS = 'configs.flanksource.com';
const MISSION_CONTROL = 'mission-control.flanksource.com';

export const KUBE_KINDS: KubeKind[] = [
  {
    kind: 'Canary', group: CANARIES, version: 'v1', plural: 'canaries', singular: 'canary', shortNames: [], table: 'canaries', rbac: 'canaries',
    resourceKind: canaryKind as ResourceKind,
    remove: async (pool, id) => void (await deleteCanary(pool, id)),
  },
  {
    kind: 'Topology', group: CANARIES, version: 'v1', plural: 'topologies', singular: 'topology', shortNames: ['topo'], table: 'topologies', rbac: 'topologies',
    resourceKind: topologyKind as ResourceKind,
    remove: async (pool, id) => void (await deleteTopology(pool, id)),
  },
  {
    kind: 'ScrapeConfig', group: CONFIGS, version: 'v1', plural: 'scrapeconfigs', singular: 'scrapeconfig', shortNames: ['scrapers'], table: 'config_scrapers', rbac: 'config_scrapers',
    resourceKind: scrapeConfigKind as ResourceKind,
    remove: async (pool, id) => void (await deleteScraper(pool, id)),
  },
  {
    kind: 'Playbook', group: MISSION_CONTROL, version: 'v1', plural: 'playbooks', singular: 'playbook', shortNames: ['pb'], table: 'playbooks', rbac: 'playbooks',
    resourceKind: playbookKind as ResourceKind,
    remove: softDelete('playbooks'),
  },
  {
    kind: 'Notification', group: MISSION_CONTROL, version: 'v1', plural: 'notifications', singular: 'notification', shortNames: ['notif'], table: 'notifications', rbac: 'notifications',
    resourceKind: notificationKind as ResourceKind,
    remove: softDelete('notifications'),
  },
  {
    kind: 'View', group: MISSION_CONTROL, version: 'v1', plural: 'views', singular: 'view', shortNames: [], table: 'views', rbac: 'views',
    resourceKind: viewKind as ResourceKind,
    remove: (pool, id) =>
      inTransaction(pool, async (client) => {
        await client.query('UPDATE views SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL', [id]);
        await onViewSaved(client, id); // the engine drops the view's table
      }),
  },
  {
    kind: 'Application', group: MISSION_CONTROL, version: 'v1', plural: 'applications', singular: 'application', shortNames: ['app'], table: 'applications', rbac: 'views',
    resourceKind: applicationKind as ResourceKind,
    remove: softDelete('applications'),
  },
  {
    kind: 'IncidentRule', group: MISSION_CONTROL, version: 'v1', plural: 'incidentrules', singular: 'incidentrule', shortNames: ['ir'], table: 'incident_rules', rbac: 'database',
    resourceKind: incidentRuleKind as ResourceKind,
    remove: softDelete('incident_rules'),
  },
];

for (const kind of KUBE_KINDS) {
  // The served apiVersion must be one the kind accepts from `apply`: a mismatch is a programming error.
  if (!kind.resourceKind.apiVersions.includes(`${kind.group}/${kind.version}`)) throw new Error(`${kind.kind}: ${kind.group}/${kind.version} is not among its apiVersions`);
}

export const GROUPS = [...new Set(KUBE_KINDS.map((kind) => kind.group))];

/** The kind a URL's resource names: plural, singular or a short name, in that group. */
export function kindOf(group: string, resource: string): KubeKind | undefined {
  const name = resource.toLowerCase();
  return KUBE_KINDS.find((kind) => kind.group === group && (kind.plural === name || kind.singular === name || kind.shortNames.includes(name)));
}
