import { GLOBAL_OBJECTS, type Resource } from '../../../common/rbac';
import { isRecord } from '../errors';
import { labelsMatch, parseLabelSelector, type Requirement } from '../label-selector';
import type { AccessTarget } from './target';

type TargetKind = AccessTarget['kind'];

/** Mission Control's object selector keys, the target kind each selects and the RBAC resources it covers. */
export const SELECTOR_KEYS = {
  configs: { kind: 'config', resources: GLOBAL_OBJECTS.catalog },
  components: { kind: 'component', resources: GLOBAL_OBJECTS.topology },
  playbooks: { kind: 'playbook', resources: GLOBAL_OBJECTS.playbooks },
  connections: { kind: 'connection', resources: GLOBAL_OBJECTS.connection },
  canaries: { kind: 'canary', resources: GLOBAL_OBJECTS.canaries },
  // duty's ViewRef ({id, namespace, name}) read as a resource selector, as Mission Control reads it.
  views: { kind: 'view', resources: ['views'] },
} as const satisfies Record<string, { kind: TargetKind; resources: readonly Resource[] }>;
type SelectorKey = keyof typeof SELECTOR_KEYS;

function isSelectorKey(key: string): key is SelectorKey {
  return Object.hasOwn(SELECTOR_KEYS, key);
}

/** One resource selector (duty's ResourceSelector) as the evaluator reads it. */
export interface ResourceMatcher {
  id?: string;
  name?: string;
  namespace?: string;
  types?: { include: string[]; exclude: string[] };
  labels?: Record<string, string>;
  requirements: Requirement[];
  tagRequirements: Requirement[];
  agent?: string;
  /** Fields that cannot be decided from a request (health, statuses, search, …): such a selector never allows. */
  unevaluable: string[];
}

export interface ObjectSelector {
  byKind: Partial<Record<TargetKind, ResourceMatcher[]>>;
  /** Kinds written in the selector, the evaluated ones and the others (scopes, plugins). */
  kinds: string[];
}

/** Selector fields that do not narrow what a selector matches. */
const NEUTRAL = new Set(['cache', 'limit', 'includeDeleted']);
const EVALUATED = new Set(['id', 'name', 'namespace', 'types', 'type', 'labels', 'labelSelector', 'tagSelector', 'agent']);

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** One selector as written (duty's ResourceSelector) read into a matcher. */
export function matcherOf(raw: Record<string, unknown>): ResourceMatcher {
  // `type` is not duty's (its field is `types`); Permission documents write it for connections, read as one type.
  const types = [...(Array.isArray(raw.types) ? raw.types : typeof raw.types === 'string' ? raw.types.split(',') : []), ...(typeof raw.type === 'string' ? [raw.type] : [])]
    .map(String)
    .map((item) => item.trim())
    .filter(Boolean);
  const include = types.filter((item) => !item.startsWith('!'));
  const labels = isRecord(raw.labels) ? Object.fromEntries(Object.entries(raw.labels).map(([key, value]) => [key, String(value)])) : undefined;
  const id = text(raw.id);
  const name = text(raw.name);
  const namespace = text(raw.namespace);
  const agent = text(raw.agent);
  const selector = typeof raw.labelSelector === 'string' ? parseLabelSelector(raw.labelSelector) : [];
  const tags = typeof raw.tagSelector === 'string' ? parseLabelSelector(raw.tagSelector) : [];
  const unevaluable = Object.keys(raw).filter((key) => !EVALUATED.has(key) && !NEUTRAL.has(key) && raw[key] !== undefined && raw[key] !== '');
  // A selector text that does not parse cannot be decided either.
  if (!selector) unevaluable.push('labelSelector');
  if (!tags) unevaluable.push('tagSelector');
  return {
    ...(id ? { id } : {}),
    ...(name ? { name } : {}),
    ...(namespace ? { namespace } : {}),
    ...(types.length > 0 ? { types: { include: include.includes('*') ? [] : include, exclude: types.filter((item) => item.startsWith('!')).map((item) => item.slice(1)) } } : {}),
    ...(labels && Object.keys(labels).length > 0 ? { labels } : {}),
    requirements: selector ?? [],
    tagRequirements: tags ?? [],
    ...(agent ? { agent } : {}),
    unevaluable,
  };
}

/** The object_selector column of a permission row, read defensively (it is database JSON). */
export function parseObjectSelector(raw: unknown): ObjectSelector | null {
  if (!isRecord(raw)) return null;
  const byKind: ObjectSelector['byKind'] = {};
  const kinds: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (!Array.isArray(value) || value.length === 0) continue;
    kinds.push(key);
    if (!isSelectorKey(key)) continue;
    byKind[SELECTOR_KEYS[key].kind] = value.filter(isRecord).map(matcherOf);
  }
  return kinds.length > 0 ? { byKind, kinds } : null;
}

/** Kind Scope's target keys and the selector key each stands for; `global` stands for all of them. */
const SCOPE_TARGETS = { config: 'configs', component: 'components', playbook: 'playbooks', canary: 'canaries', view: 'views' } as const satisfies Record<string, SelectorKey>;
type ScopeTargetKey = keyof typeof SCOPE_TARGETS;

/**
 * A Scope's targets (Mission Control's ScopeTarget list: each one of config, component, playbook, canary,
 * view or global, a selector by agent, namespace, name and tagSelector) as alternatives: one single-kind
 * selector per target, a global target one per kind. Any alternative may select a resource: targets are
 * ORed, as Mission Control expands a permission's scopes.
 */
export function scopeAlternatives(targets: unknown): ObjectSelector[] {
  if (!Array.isArray(targets)) return [];
  const out: ObjectSelector[] = [];
  for (const target of targets) {
    if (!isRecord(target)) continue;
    for (const [key, selector] of Object.entries(target)) {
      if (!isRecord(selector)) continue;
      const keys: SelectorKey[] = key === 'global' ? Object.values(SCOPE_TARGETS) : Object.hasOwn(SCOPE_TARGETS, key) ? [SCOPE_TARGETS[key as ScopeTargetKey]] : [];
      for (const selectorKey of keys) out.push({ byKind: { [SELECTOR_KEYS[selectorKey].kind]: [matcherOf(selector)] }, kinds: [selectorKey] });
    }
  }
  return out;
}

/** Whether a row's selectors, its own or its scopes', name resources of this kind (a list then filters item by item). */
export function selectsKind(rule: { object_selector?: ObjectSelector | null; scopes?: ObjectSelector[] | null }, kind: TargetKind): boolean {
  return rule.object_selector?.byKind[kind] !== undefined || (rule.scopes ?? []).some((alternative) => alternative.byKind[kind] !== undefined);
}

/** `*` anywhere is a wildcard, as Mission Control matches names. */
function globMatches(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const expression = new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return expression.test(value);
}

type Verdict = 'match' | 'no' | 'unknown';

/** Does a selector select the target? 'unknown' when it names something the request does not say. */
export function matchTarget(matcher: ResourceMatcher, target: AccessTarget): Verdict {
  if (matcher.id !== undefined && matcher.id !== target.id) return 'no';
  let unknown = matcher.unevaluable.length > 0;
  const check = (wanted: boolean, known: boolean): Verdict | undefined => {
    if (!known) unknown = true;
    else if (!wanted) return 'no';
    return undefined;
  };
  const verdicts = [
    matcher.name === undefined ? undefined : check(target.name !== undefined && globMatches(matcher.name, target.name), target.name !== undefined),
    matcher.namespace === undefined ? undefined : check(target.namespace === matcher.namespace, target.namespace !== undefined),
    matcher.types === undefined
      ? undefined
      : check(
          target.type !== undefined && (matcher.types.include.length === 0 || matcher.types.include.includes(target.type)) && !matcher.types.exclude.includes(target.type),
          target.type !== undefined,
        ),
    matcher.labels === undefined ? undefined : check(target.labels !== undefined && Object.entries(matcher.labels).every(([key, value]) => target.labels?.[key] === value), target.labels !== undefined),
    matcher.requirements.length === 0 ? undefined : check(target.labels !== undefined && labelsMatch(matcher.requirements, target.labels), target.labels !== undefined),
    matcher.tagRequirements.length === 0 ? undefined : check(target.tags !== undefined && labelsMatch(matcher.tagRequirements, target.tags), target.tags !== undefined),
    matcher.agent === undefined ? undefined : check(target.agent === matcher.agent, target.agent !== undefined),
  ];
  if (verdicts.includes('no')) return 'no';
  return unknown ? 'unknown' : 'match';
}

/**
 * Does a row with object selectors speak about this request? Only requests about one resource of a
 * selected kind, of an RBAC resource that kind covers. An allow needs a selector that surely matches; a
 * deny also applies when a selector might match (Mission Control denies what it cannot evaluate). A
 * selector over several kinds at once (run these playbooks on those configs) cannot be decided for one
 * resource: it never allows, and denies for each kind.
 */
export function objectSelectorApplies(selector: ObjectSelector, deny: boolean, resource: Resource, target: AccessTarget | undefined): boolean {
  if (!target) return false;
  const evaluated = Object.keys(selector.byKind).length;
  if (evaluated === 0 || (evaluated > 1 && !deny)) return false;
  const matchers = selector.byKind[target.kind];
  if (!matchers) return false;
  const key = Object.entries(SELECTOR_KEYS).find(([, value]) => value.kind === target.kind);
  if (!key || !key[1].resources.some((item) => item === resource)) return false;
  const verdicts = matchers.map((matcher) => matchTarget(matcher, target));
  return verdicts.includes('match') || (deny && verdicts.includes('unknown'));
}
