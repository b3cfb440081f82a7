import { Bell, Boxes, Cloud, DatabaseZap, GitBranch, HeartPulse, Network, Plug, ScrollText, Server, Activity, type LucideIcon } from 'lucide-react';
import type { Resource } from '@common/rbac';
import { isOneOf } from '@common/guards';

/** Where the integrations pages live (spec §2). */
export const INTEGRATIONS_PATH = '/settings/integrations';
export const integrationPath = (type: string, id: string) => `${INTEGRATIONS_PATH}/${encodeURIComponent(type)}/${encodeURIComponent(id)}`;
/** Spec §6 feature flag of the page ('integrations.disable' = 'true' hides it… as settings.integrations). */
export const INTEGRATIONS_FEATURE = 'settings.integrations';

/** The values of integrations_with_status.integration_type (docs/INTEGRATIONS.md). */
export const INTEGRATION_TYPES = ['scrapers', 'topologies', 'canaries', 'connections', 'notifications', 'logging_backends'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

export interface IntegrationTypeInfo {
  label: string;
  singular: string;
  icon: LucideIcon;
  /** Spec §6 object the resource's own pages and API need, besides integrations. */
  resource: Resource;
}

export const INTEGRATION_TYPE_INFO: Readonly<Record<IntegrationType, IntegrationTypeInfo>> = {
  scrapers: { label: 'Catalog Scrapers', singular: 'Catalog Scraper', icon: DatabaseZap, resource: 'config_scrapers' },
  topologies: { label: 'Topologies', singular: 'Topology', icon: Network, resource: 'topologies' },
  canaries: { label: 'Health Checks', singular: 'Health Check', icon: HeartPulse, resource: 'canaries' },
  connections: { label: 'Connections', singular: 'Connection', icon: Plug, resource: 'connections' },
  notifications: { label: 'Notifications', singular: 'Notification', icon: Bell, resource: 'notifications' },
  logging_backends: { label: 'Log Backends', singular: 'Log Backend', icon: ScrollText, resource: 'logging_backends' },
};

export function isIntegrationType(value: string | undefined): value is IntegrationType {
  return value !== undefined && isOneOf(INTEGRATION_TYPES, value);
}

/** One entry of the Add Integration modal (spec §2). */
export interface AddItem {
  id: string;
  label: string;
  description: string;
  category: string;
  icon: LucideIcon;
  /** 'gitops': the GitOps wizard for `chart`; 'direct': the create form of `type`. */
  kind: 'gitops' | 'direct';
  chart?: string;
  type?: IntegrationType;
  /** Feature area that must be on for the item to show (Log Backends: logs). */
  feature?: string;
}

export const GITOPS_GROUP = 'Add via GitOps';
export const DIRECT_GROUP = 'Add Directly';

/** Spec §2: 'Add via GitOps': AWS, Azure, Prometheus, Flux, Kubernetes, Mission Control. */
export const GITOPS_ITEMS: readonly AddItem[] = [
  { id: 'aws', label: 'AWS', description: 'Scrape the resources of AWS accounts, with CloudTrail changes and costs', category: 'Cloud', icon: Cloud, kind: 'gitops', chart: 'mission-control-aws' },
  { id: 'azure', label: 'Azure', description: 'Scrape the resources of an Azure subscription and its activity logs', category: 'Cloud', icon: Cloud, kind: 'gitops', chart: 'mission-control-azure' },
  { id: 'prometheus', label: 'Prometheus', description: 'A topology of a Prometheus server, its targets and alerts', category: 'Monitoring', icon: Activity, kind: 'gitops', chart: 'mission-control-prometheus' },
  { id: 'flux', label: 'Flux', description: 'Flux kustomizations and Helm releases, with GitOps playbooks', category: 'GitOps', icon: GitBranch, kind: 'gitops', chart: 'mission-control-flux' },
  { id: 'kubernetes', label: 'Kubernetes', description: 'Scrape a cluster, its topology and Kubernetes playbooks', category: 'Kubernetes', icon: Boxes, kind: 'gitops', chart: 'mission-control-kubernetes' },
  { id: 'mission-control', label: 'Mission Control', description: 'An agent close to a cluster that pushes its results to this console', category: 'Agents', icon: Server, kind: 'gitops', chart: 'mission-control-agent' },
];

/** Spec §2: 'Add Directly': Custom Topology, Catalog Scraper, Log Backends (hidden when logs is disabled). */
export const DIRECT_ITEMS: readonly AddItem[] = [
  { id: 'custom-topology', label: 'Custom Topology', description: 'A topology written as YAML: components, lookups, properties', category: 'Topology', icon: Network, kind: 'direct', type: 'topologies' },
  { id: 'catalog-scraper', label: 'Catalog Scraper', description: 'A scraper that fills the catalog from files, SQL, HTTP and more', category: 'Catalog', icon: DatabaseZap, kind: 'direct', type: 'scrapers' },
  { id: 'log-backends', label: 'Log Backends', description: 'Where log lines are read from, and which components they belong to', category: 'Logs', icon: ScrollText, kind: 'direct', type: 'logging_backends', feature: 'logs' },
];

/** Items whose label, description or category contain every word of the search. */
export function matchItems(items: readonly AddItem[], search: string): AddItem[] {
  const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return items.filter((item) => {
    const text = `${item.label} ${item.description} ${item.category}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
