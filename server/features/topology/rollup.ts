import { COMPONENT_HEALTHS, type ComponentHealth, type HealthCounts } from '../../../common/topology';

/** What a component's health is made of: its own (set, or from an expression, a config or a check) and its parts'. */
export interface RollupInput {
  id: string;
  type: string | null;
  own: ComponentHealth | null;
  /** Why its own health is what it is (a status expression's answer, the config's status). */
  ownReason: string | null;
  children: string[];
  /** The last result of each attached check: healthy or unhealthy. */
  checks: Array<{ name: string; status: string | null }>;
  /** The health of each attached config. */
  configs: Array<{ name: string | null; health: string | null }>;
}

export interface RollupResult {
  health: ComponentHealth;
  reason: string | null;
  children: HealthCounts;
  /** The checks of this component and of everything below it. */
  checks: HealthCounts;
  configs: HealthCounts;
}

const RANK: Record<ComponentHealth, number> = { unhealthy: 3, warning: 2, healthy: 1, unknown: 0 };

export const emptyCounts = (): HealthCounts => ({ healthy: 0, unhealthy: 0, warning: 0, unknown: 0 });

export function asHealth(value: string | null | undefined): ComponentHealth {
  if (value === 'healthy' || value === 'unhealthy' || value === 'warning') return value;
  return 'unknown';
}

/** The worse of two healths: unhealthy over warning over healthy; unknown only when nothing is known. */
export function worse(a: ComponentHealth, b: ComponentHealth): ComponentHealth {
  return RANK[b] > RANK[a] ? b : a;
}

/** "pods" for Kubernetes::Pod children, "children" when they are of several kinds. */
function plural(types: Array<string | null>): string {
  const distinct = new Set(types.map((type) => type ?? ''));
  if (distinct.size !== 1) return 'children';
  const type = [...distinct][0] ?? '';
  const word = (type.split('::').pop() ?? '').trim().toLowerCase();
  if (!word) return 'children';
  return word.endsWith('s') ? word : `${word}s`;
}

const VERB: Record<ComponentHealth, string> = { unhealthy: 'unhealthy', warning: 'warning', healthy: 'healthy', unknown: 'unknown' };

/**
 * Rolls health up a component graph: each component is the worst of its own health, its children's, its
 * checks' and its configs', and says why ("unhealthy: 2 of 3 pods unhealthy; 1 of 2 checks failing").
 * A component reached twice is computed once; a cycle counts as unknown rather than looping.
 */
export function rollupAll(nodes: ReadonlyMap<string, RollupInput>): Map<string, RollupResult> {
  const done = new Map<string, RollupResult>();
  const visiting = new Set<string>();
  const visit = (id: string): RollupResult | undefined => {
    const cached = done.get(id);
    if (cached) return cached;
    const node = nodes.get(id);
    if (!node || visiting.has(id)) return undefined;
    visiting.add(id);
    const children = emptyCounts();
    const checks = emptyCounts();
    const configs = emptyCounts();
    const childTypes: Array<string | null> = [];
    const childResults: RollupResult[] = [];
    for (const childId of node.children) {
      const child = visit(childId);
      if (!child) continue;
      children[child.health] += 1;
      childTypes.push(nodes.get(childId)?.type ?? null);
      childResults.push(child);
      checks.healthy += child.checks.healthy;
      checks.unhealthy += child.checks.unhealthy;
      checks.warning += child.checks.warning;
      checks.unknown += child.checks.unknown;
    }
    const ownChecks = emptyCounts();
    for (const check of node.checks) ownChecks[asHealth(check.status)] += 1;
    for (const key of COMPONENT_HEALTHS) checks[key] += ownChecks[key];
    for (const config of node.configs) configs[asHealth(config.health)] += 1;

    let health: ComponentHealth = node.own ?? 'unknown';
    const childHealth: ComponentHealth = children.unhealthy > 0 ? 'unhealthy' : children.warning > 0 ? 'warning' : children.healthy > 0 ? 'healthy' : 'unknown';
    const checkHealth: ComponentHealth = ownChecks.unhealthy > 0 ? 'unhealthy' : ownChecks.healthy > 0 ? 'healthy' : 'unknown';
    const configHealth: ComponentHealth = configs.unhealthy > 0 ? 'unhealthy' : configs.warning > 0 ? 'warning' : configs.healthy > 0 ? 'healthy' : 'unknown';
    health = worse(worse(worse(health, childHealth), checkHealth), configHealth);

    const reasons: string[] = [];
    if (health !== 'healthy' && health !== 'unknown') {
      if (node.own === health && node.ownReason) reasons.push(node.ownReason);
      const childCount = children.healthy + children.unhealthy + children.warning + children.unknown;
      if (children[health] > 0) reasons.push(`${children[health]} of ${childCount} ${plural(childTypes)} ${VERB[health]}`);
      if (health === 'unhealthy' && ownChecks.unhealthy > 0) {
        const failing = node.checks.filter((check) => check.status === 'unhealthy');
        reasons.push(failing.length === 1 && node.checks.length === 1 ? `check ${failing[0]?.name ?? ''} failing` : `${failing.length} of ${node.checks.length} checks failing`);
      }
      if (configs[health] > 0) {
        const named = node.configs.filter((config) => asHealth(config.health) === health);
        reasons.push(named.length === 1 && named[0]?.name ? `config ${named[0].name} ${VERB[health]}` : `${named.length} of ${node.configs.length} configs ${VERB[health]}`);
      }
    } else if (node.ownReason && node.own === health) {
      reasons.push(node.ownReason);
    }
    const result: RollupResult = { health, reason: reasons.length > 0 ? `${health}: ${reasons.join('; ')}` : null, children, checks, configs };
    visiting.delete(id);
    done.set(id, result);
    return result;
  };
  for (const id of nodes.keys()) visit(id);
  return done;
}
