/**
 * The topology API's answer shapes (docs/TOPOLOGY.md), shared by the server and the web app.
 * GET /api/canary/api/topology answers TopologyResponse.
 */

export const COMPONENT_HEALTHS = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;
export type ComponentHealth = (typeof COMPONENT_HEALTHS)[number];

export interface HealthCounts {
  healthy: number;
  unhealthy: number;
  warning: number;
  unknown: number;
}

/** A property shown on a card: a text, a number with its unit, or a link; coloured by its thresholds. */
export interface ComponentProperty {
  name: string;
  label?: string;
  /** Shown as is (type text or url). */
  text?: string;
  /** A number (type number), shown with `unit` (bytes, millicores, %, ms, …). */
  value?: number;
  unit?: string;
  type?: 'text' | 'number' | 'url' | 'badge';
  /** green, orange, red, gray or a CSS colour: set, or from the warning/critical thresholds. */
  color?: string;
  /** Headline properties are shown large on the card. */
  headline?: boolean;
  tooltip?: string;
  icon?: string;
  min?: number;
  max?: number;
}

export interface ComponentCheck {
  id: string;
  name: string;
  type: string | null;
  icon: string | null;
  /** healthy or unhealthy (the check's last result, live). */
  status: string;
}

export interface ComponentConfig {
  id: string;
  name: string | null;
  type: string;
  health: string | null;
  status: string | null;
}

export interface ComponentSummary {
  /** Direct children by health. */
  children: HealthCounts;
  /** Checks attached to this component (and its descendants) by their last result. */
  checks: HealthCounts;
  /** Configs attached to this component by health. */
  configs: HealthCounts;
  /**
   * Open insights of the attached configs by analysis type, then severity (critical, high, medium, low,
   * info): canary-checker's map, e.g. {security: {critical: 1}}.
   */
  insights: Record<string, Record<string, number>>;
}

/** Open insights by severity, over every analysis type. */
export function insightsBySeverity(insights: ComponentSummary['insights']): Record<string, number> {
  const total: Record<string, number> = {};
  for (const bySeverity of Object.values(insights)) for (const [severity, count] of Object.entries(bySeverity)) total[severity] = (total[severity] ?? 0) + count;
  return total;
}

export interface TopologyComponent {
  id: string;
  topology_id: string | null;
  parent_id: string | null;
  name: string;
  /** The namespace of its topology ('' for a component pushed without one). */
  namespace: string;
  /** A display text, when it differs from the name. */
  text: string | null;
  /** '' when it has none (canary-checker sends the text). */
  type: string;
  icon: string | null;
  owner: string | null;
  tooltip: string | null;
  /** '' when it has none. */
  description: string;
  labels: Record<string, string>;
  properties: ComponentProperty[];
  /** Rolled up live: the worst of its own, its children's and its checks' health. */
  health: ComponentHealth;
  /** Its own status text (Running, Degraded, …), or its config's; '' when none. */
  status: string;
  /** Why the health is what it is, e.g. 'unhealthy: 2 of 3 pods unhealthy'. */
  status_reason: string | null;
  hidden: boolean;
  config_id: string | null;
  /** The agent that pushed it (spec §3: the nil uuid is this instance itself). */
  agent_id: string;
  /** That agent's name ('local' for this instance). */
  agent_name: string | null;
  created_at: string;
  updated_at: string;
  summary: ComponentSummary;
  checks: ComponentCheck[];
  configs: ComponentConfig[];
  /** Number of direct children (hidden ones included only when asked for). */
  children_count: number;
  /** True without children (canary-checker's is_leaf). */
  is_leaf: boolean;
  /** The children, while within the requested depth. */
  components?: TopologyComponent[];
}

export interface ComponentRef {
  id: string;
  name: string;
  text: string | null;
  icon: string | null;
  type: string | null;
}

export interface TopologyResponse {
  components: TopologyComponent[];
  /** For ?id=: the ancestors of that component, root first (breadcrumbs). */
  parents: ComponentRef[];
  /** Filter choices across the answer's scope (before filtering). */
  healthStatuses: ComponentHealth[];
  types: string[];
  /** Owners (teams) of the components. */
  teams: string[];
  /** Label keys and their values. */
  tags: Record<string, string[]>;
}

/** POST /api/canary/run/topology/{id} */
export interface TopologyRunResult {
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  errors: string[];
  components: Array<{ id: string; name: string; type: string | null; health: ComponentHealth; parent_id: string | null }>;
  status: string;
  job_history_id: string;
}
