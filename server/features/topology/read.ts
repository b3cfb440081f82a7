import type {
  ComponentCheck,
  ComponentConfig,
  ComponentHealth,
  ComponentProperty,
  ComponentRef,
  TopologyComponent,
  TopologyResponse,
} from '../../../common/topology';
import { COMPONENT_HEALTHS } from '../../../common/topology';
import type { Queryable } from '../../platform/jobs/db';
import { asHealth, rollupAll, type RollupInput, type RollupResult } from './rollup';
import { parseLabelSelector } from './selectors';

export interface TopologyQuery {
  /** A component: answers it (with its children to `depth`) and its parents; without it the roots. */
  id?: string | undefined;
  /** Levels of children included below the answered components (0: none). */
  depth: number;
  health?: string[] | undefined;
  type?: string[] | undefined;
  owner?: string | undefined;
  /** `key=value,key!=value,key` against the components' labels. */
  labels?: string | undefined;
  /** Hidden components (and their subtrees) are left out unless asked for. */
  hidden: boolean;
  sortBy?: 'health' | 'name' | undefined;
  /** Checks and configs listed per component (the summary counts them all). */
  maxLinks?: number;
}

/** What the roll-up needs of every component. */
interface GraphRow {
  id: string;
  parent_id: string | null;
  type: string | null;
  own_health: string | null;
  status: string | null;
  hidden: boolean;
  config_id: string | null;
  own_from_config: boolean;
}

/** A components row as read: the answer's own columns, with its stored (not rolled-up) health and dates. */
type ComponentRow = Pick<
  TopologyComponent,
  'id' | 'topology_id' | 'parent_id' | 'name' | 'namespace' | 'text' | 'type' | 'icon' | 'owner' | 'tooltip' | 'description' | 'labels' | 'properties' | 'status' | 'status_reason' | 'hidden' | 'config_id' | 'agent_id' | 'agent_name'
> & { own_health: string | null; created_at: Date; updated_at: Date };

export class ComponentNotFound extends Error {}

const HEALTH_ORDER: Record<ComponentHealth, number> = { unhealthy: 0, warning: 1, unknown: 2, healthy: 3 };

/**
 * The component graph read once per request: every live component with its live check results, config
 * health and open insights, rolled up (rollup.ts) so a check that recovered since the last run shows at
 * once. The answer is the roots (or one component) with children to the asked depth.
 */
export async function readTopology(db: Queryable, query: TopologyQuery): Promise<TopologyResponse> {
  // The whole graph, slim (what the roll-up needs); the full rows, checks and configs only of what is shown.
  const [components, checks, configs, related] = await Promise.all([
    // A component that is a config (looked up from the catalog) has the config's live health and status.
    db.query<GraphRow>(
      `SELECT c.id, c.parent_id, c.type, CASE WHEN c.own_health IS NULL THEN ci.health ELSE c.own_health END AS own_health,
         coalesce(c.status, ci.status) AS status, c.hidden, c.config_id, (c.own_health IS NULL AND ci.id IS NOT NULL) AS own_from_config
       FROM components c LEFT JOIN config_items ci ON ci.id = c.config_id AND ci.deleted_at IS NULL
       WHERE c.deleted_at IS NULL ORDER BY c.sort_order, c.name`,
    ),
    db.query<{ component_id: string; name: string; status: string }>(
      `SELECT r.component_id, c.name, coalesce(c.status, 'unknown') AS status
       FROM check_component_relationships r JOIN checks c ON c.id = r.check_id
       WHERE r.deleted_at IS NULL AND c.deleted_at IS NULL`,
    ),
    db.query<{ component_id: string; id: string; name: string | null; health: string | null }>(
      `SELECT r.component_id, ci.id, ci.name, ci.health
       FROM config_component_relationships r JOIN config_items ci ON ci.id = r.config_id
       WHERE r.deleted_at IS NULL AND ci.deleted_at IS NULL`,
    ),
    db.query<{ component_id: string; relationship_id: string }>('SELECT component_id, relationship_id FROM component_relationships WHERE deleted_at IS NULL'),
  ]);

  const byId = new Map(components.rows.map((row) => [row.id, row]));
  const children = new Map<string, Set<string>>();
  const addChild = (parent: string, child: string) => {
    const set = children.get(parent);
    if (set) set.add(child);
    else children.set(parent, new Set([child]));
  };
  for (const row of components.rows) if (row.parent_id && byId.has(row.parent_id)) addChild(row.parent_id, row.id);
  for (const link of related.rows) if (byId.has(link.component_id) && byId.has(link.relationship_id)) addChild(link.relationship_id, link.component_id);
  const checksOf = groupBy(checks.rows);
  const configsOf = groupBy(configs.rows);
  // Hidden components drop out of the graph (and the roll-up) unless asked for.
  const visible = (id: string) => query.hidden || id === query.id || byId.get(id)?.hidden !== true;
  const inputs = new Map<string, RollupInput>();
  for (const row of components.rows) {
    if (!visible(row.id)) continue;
    const own = row.own_health ? asHealth(row.own_health) : null;
    inputs.set(row.id, {
      id: row.id,
      type: row.type,
      own,
      ownReason: own && own !== 'healthy' && own !== 'unknown' ? row.status : null,
      children: [...(children.get(row.id) ?? [])].filter(visible),
      checks: checksOf.get(row.id) ?? [],
      configs: (configsOf.get(row.id) ?? []).filter((config) => !row.own_from_config || config.id !== row.config_id),
    });
  }
  const rolled = rollupAll(inputs);

  // Which components are shown: the scope and its children to the depth (each once per path, no cycles).
  let scope: GraphRow[];
  const ancestors: string[] = [];
  if (query.id) {
    const target = byId.get(query.id);
    if (!target) throw new ComponentNotFound(`component ${query.id} not found`);
    scope = [target];
    let parentId = target.parent_id;
    const seen = new Set([target.id]);
    while (parentId && !seen.has(parentId) && byId.has(parentId)) {
      seen.add(parentId);
      ancestors.unshift(parentId);
      parentId = byId.get(parentId)?.parent_id ?? null;
    }
  } else {
    scope = components.rows.filter((row) => row.parent_id === null && visible(row.id));
  }
  const shown = new Set<string>(ancestors);
  const collect = (id: string, depth: number, trail: Set<string>) => {
    shown.add(id);
    if (depth <= 0) return;
    const next = new Set(trail).add(id);
    for (const kid of inputs.get(id)?.children ?? []) if (!next.has(kid)) collect(kid, depth - 1, next);
  };
  for (const row of scope) collect(row.id, query.depth, new Set());
  const details = await componentDetails(db, [...shown], query.maxLinks ?? 50);

  const shape = (id: string, depth: number, trail: Set<string>): TopologyComponent | undefined => {
    const row = details.rows.get(id);
    const result = rolled.get(id);
    if (!row || !result) return undefined;
    const kids = inputs.get(id)?.children ?? [];
    const component: TopologyComponent = {
      id: row.id,
      topology_id: row.topology_id,
      parent_id: row.parent_id,
      name: row.name,
      namespace: row.namespace,
      text: row.text,
      type: row.type,
      icon: row.icon,
      owner: row.owner,
      tooltip: row.tooltip,
      description: row.description,
      labels: row.labels,
      properties: row.properties,
      health: result.health,
      status: row.status,
      status_reason: result.reason ?? row.status_reason,
      hidden: row.hidden,
      config_id: row.config_id,
      agent_id: row.agent_id,
      agent_name: row.agent_name,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      summary: { children: result.children, checks: result.checks, configs: result.configs, insights: details.insights.get(id) ?? {} },
      checks: details.checks.get(id) ?? [],
      configs: details.configs.get(id) ?? [],
      children_count: kids.length,
      is_leaf: kids.length === 0,
    };
    if (depth > 0) {
      const next = new Set(trail).add(id);
      component.components = sortComponents(
        kids.filter((kid) => !next.has(kid)).flatMap((kid) => {
          const child = shape(kid, depth - 1, next);
          return child ? [child] : [];
        }),
        query.sortBy,
      );
    }
    return component;
  };
  const parents: ComponentRef[] = ancestors.flatMap((id) => {
    const row = details.rows.get(id);
    return row ? [{ id: row.id, name: row.name, text: row.text, icon: row.icon, type: row.type || null }] : [];
  });
  const scoped = scope.flatMap((row) => shape(row.id, query.depth, new Set()) ?? []);
  // For one component the filters choose among its children; for the roots, among the roots.
  const candidates = query.id ? (scoped[0]?.components ?? []) : scoped;
  const facets = {
    healthStatuses: COMPONENT_HEALTHS.filter((health) => candidates.some((item) => item.health === health)),
    types: [...new Set(candidates.map((item) => item.type).filter((type): type is string => Boolean(type)))].sort(),
    teams: [...new Set(candidates.map((item) => item.owner).filter((owner): owner is string => Boolean(owner)))].sort(),
    tags: labelValues(candidates),
  };
  const filtered = sortComponents(candidates.filter((item) => matches(item, query)), query.sortBy);
  if (query.id && scoped[0]) {
    if (scoped[0].components) scoped[0].components = filtered;
    return { components: scoped, parents, ...facets };
  }
  return { components: filtered, parents, ...facets };
}

/** The full rows of the shown components, their checks and configs (at most `maxLinks` each) and open insights. */
async function componentDetails(db: Queryable, ids: string[], maxLinks: number) {
  const [rows, checks, configs, insights] = await Promise.all([
    db.query<ComponentRow>(
      `SELECT c.id, c.topology_id, c.parent_id, c.name, coalesce(t.namespace, '') AS namespace, c.text, coalesce(c.type, '') AS type, c.icon, c.owner, c.tooltip,
         coalesce(c.description, '') AS description, c.labels, c.properties, c.own_health, coalesce(c.status, ci.status, '') AS status, c.status_reason, c.hidden,
         c.config_id, c.agent_id, a.name AS agent_name, c.created_at, c.updated_at
       FROM components c LEFT JOIN config_items ci ON ci.id = c.config_id LEFT JOIN agents a ON a.id = c.agent_id LEFT JOIN topologies t ON t.id = c.topology_id
       WHERE c.id = ANY($1::uuid[])`,
      [ids],
    ),
    db.query<ComponentCheck & { component_id: string }>(
      `SELECT component_id, id, name, type, icon, status FROM (
         SELECT r.component_id, c.id, c.name, c.type, c.icon, coalesce(c.status, 'unknown') AS status,
           row_number() OVER (PARTITION BY r.component_id ORDER BY c.name) AS n
         FROM check_component_relationships r JOIN checks c ON c.id = r.check_id
         WHERE r.component_id = ANY($1::uuid[]) AND r.deleted_at IS NULL AND c.deleted_at IS NULL) x
       WHERE n <= $2 ORDER BY name`,
      [ids, maxLinks],
    ),
    db.query<ComponentConfig & { component_id: string }>(
      `SELECT component_id, id, name, type, health, status FROM (
         SELECT r.component_id, ci.id, ci.name, ci.type, ci.health, ci.status,
           row_number() OVER (PARTITION BY r.component_id ORDER BY ci.name) AS n
         FROM config_component_relationships r JOIN config_items ci ON ci.id = r.config_id
         WHERE r.component_id = ANY($1::uuid[]) AND r.deleted_at IS NULL AND ci.deleted_at IS NULL) x
       WHERE n <= $2 ORDER BY name`,
      [ids, maxLinks],
    ),
    db.query<{ component_id: string; analysis_type: string; severity: string; count: number }>(
      `SELECT r.component_id, a.analysis_type, a.severity, count(*)::int AS count
       FROM config_component_relationships r JOIN config_analysis a ON a.config_id = r.config_id AND a.status = 'open'
       WHERE r.component_id = ANY($1::uuid[]) AND r.deleted_at IS NULL GROUP BY r.component_id, a.analysis_type, a.severity`,
      [ids],
    ),
  ]);
  const strip = <T extends { component_id: string }>(list: T[]) => {
    const grouped = groupBy(list);
    return new Map([...grouped].map(([key, items]) => [key, items.map(({ component_id: _c, ...rest }) => rest)]));
  };
  // canary-checker's shape: analysis type → severity → count.
  const insightsOf = new Map<string, Record<string, Record<string, number>>>();
  for (const row of insights.rows) {
    const byType = insightsOf.get(row.component_id) ?? {};
    const counts = (byType[row.analysis_type] ??= {});
    counts[row.severity] = (counts[row.severity] ?? 0) + row.count;
    insightsOf.set(row.component_id, byType);
  }
  return { rows: new Map(rows.rows.map((row) => [row.id, row])), checks: strip(checks.rows), configs: strip(configs.rows), insights: insightsOf };
}

function groupBy<T extends { component_id: string }>(rows: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const list = out.get(row.component_id);
    if (list) list.push(row);
    else out.set(row.component_id, [row]);
  }
  return out;
}

function labelValues(items: TopologyComponent[]): Record<string, string[]> {
  const out: Record<string, Set<string>> = {};
  for (const item of items) for (const [key, value] of Object.entries(item.labels)) (out[key] ??= new Set()).add(value);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)).map(([key, values]) => [key, [...values].sort()]));
}

function matches(item: TopologyComponent, query: TopologyQuery): boolean {
  if (query.health?.length && !query.health.includes(item.health)) return false;
  if (query.type?.length && !query.type.includes(item.type ?? '')) return false;
  if (query.owner && item.owner !== query.owner) return false;
  if (query.labels) {
    const selector = parseLabelSelector(query.labels);
    for (const [key, value] of Object.entries(selector.equal)) if (item.labels[key] !== value) return false;
    for (const [key, value] of Object.entries(selector.notEqual)) if (item.labels[key] === value) return false;
    for (const key of selector.exists) if (!(key in item.labels)) return false;
  }
  return true;
}

/** Unhealthy first (then warning, unknown, healthy) when sorting by health; by name otherwise. */
export function sortComponents(items: TopologyComponent[], sortBy: TopologyQuery['sortBy']): TopologyComponent[] {
  const byName = (a: TopologyComponent, b: TopologyComponent) => (a.text ?? a.name).localeCompare(b.text ?? b.name, undefined, { numeric: true });
  return [...items].sort(sortBy === 'name' ? byName : (a, b) => HEALTH_ORDER[a.health] - HEALTH_ORDER[b.health] || byName(a, b));
}
