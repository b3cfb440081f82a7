import { actionsOfPermission, resourcesOfObject, rolesAllow, ROLES, tokenAllows, type Action, type Resource } from '../../../common/rbac';
import { objectSelectorApplies, selectsKind } from './object-selector';
import type { AccessTarget, Actor, Decision, PermissionRule } from './types';

const TARGET_COLUMN = {
  config: 'config_id',
  component: 'component_id',
  canary: 'canary_id',
  playbook: 'playbook_id',
  connection: 'connection_id',
} as const satisfies Partial<Record<AccessTarget['kind'], keyof PermissionRule>>;

/** The permission row column naming one resource of a kind (views have none: they are selected by `views`). */
function targetColumn(kind: AccessTarget['kind']): keyof PermissionRule | undefined {
  return kind === 'view' ? undefined : TARGET_COLUMN[kind];
}

/** The resource kinds a global object stands for when a row carries a tag or agent selector. */
const SELECTOR_KINDS: Partial<Record<Resource, AccessTarget['kind']>> = {
  canaries: 'canary',
  config_scrapers: 'config',
  topologies: 'component',
  playbooks: 'playbook',
  connections: 'connection',
};

function namesResource(rule: PermissionRule): boolean {
  return Object.values(TARGET_COLUMN).some((column) => rule[column] !== null);
}

function hasSelector(rule: PermissionRule): boolean {
  return (rule.tags !== null && Object.keys(rule.tags).length > 0) || (rule.agents !== null && rule.agents.length > 0);
}

function selectorMatches(rule: PermissionRule, target: AccessTarget): boolean {
  const tags = rule.tags ?? {};
  for (const [key, value] of Object.entries(tags)) {
    if (target.tags?.[key] !== value) return false;
  }
  if (rule.agents && rule.agents.length > 0 && (target.agent === undefined || !rule.agents.includes(target.agent))) return false;
  return true;
}

/**
 * Does a permission row speak about this request? A row that names an object without a selector covers
 * the object's resources everywhere. A row that names one resource (config_id, …) or carries a selector
 * (tags, agents) only covers requests about that resource, so it never widens or narrows a whole list.
 */
// Action strings and objects repeat across rows: parse each distinct one once.
const actionSets = new Map<string, ReadonlySet<Action>>();
const objectSets = new Map<string, ReadonlySet<Resource>>();

function actionsOf(value: string): ReadonlySet<Action> {
  let set = actionSets.get(value);
  if (!set) {
    set = new Set(actionsOfPermission(value));
    if (actionSets.size < 10_000) actionSets.set(value, set);
  }
  return set;
}

function resourcesOf(value: string): ReadonlySet<Resource> {
  let set = objectSets.get(value);
  if (!set) {
    set = new Set(resourcesOfObject(value));
    if (objectSets.size < 10_000) objectSets.set(value, set);
  }
  return set;
}

export function ruleApplies(rule: PermissionRule, resource: Resource, action: Action, target: AccessTarget | undefined): boolean {
  if (!actionsOf(rule.action).has(action)) return false;
  if (namesResource(rule)) {
    if (!target) return false;
    const column = targetColumn(target.kind);
    const value = column ? rule[column] : null;
    return value !== null && value === target.id;
  }
  if (rule.object_selector || rule.scopes?.length) {
    // The row's own selectors or any target of its scopes (Mission Control unions a permission's scopes).
    const selected =
      (rule.object_selector ? objectSelectorApplies(rule.object_selector, rule.deny, resource, target) : false) ||
      (rule.scopes ?? []).some((alternative) => objectSelectorApplies(alternative, rule.deny, resource, target));
    if (!selected) return false;
    return !hasSelector(rule) || (target !== undefined && selectorMatches(rule, target));
  }
  if (rule.object === null || !resourcesOf(rule.object).has(resource)) return false;
  if (hasSelector(rule)) {
    if (!target || SELECTOR_KINDS[resource] !== target.kind) return false;
    return selectorMatches(rule, target);
  }
  return true;
}

/**
 * Spec §6 and the identity issue: a token first limits what its owner may do; then a matching deny
 * wins, then a matching allow, then the roles.
 */
export function decide(actor: Actor, resource: Resource, action: Action, target?: AccessTarget): Decision {
  if (actor.token && !tokenAllows(actor.token.scopes, resource, action)) {
    return { allowed: false, reason: { kind: 'token', token: actor.token.id } };
  }
  const applicable = actor.permissions.filter((rule) => ruleApplies(rule, resource, action, target));
  const deny = applicable.find((rule) => rule.deny);
  if (deny) return { allowed: false, reason: { kind: 'deny', permission: deny.id } };
  const allow = applicable.find((rule) => !rule.deny);
  if (allow) return { allowed: true, reason: { kind: 'permission', permission: allow.id } };
  const role = ROLES.find((item) => actor.roles.includes(item) && rolesAllow([item], resource, action));
  if (role) return { allowed: true, reason: { kind: 'role', role } };
  return { allowed: false, reason: { kind: 'none' } };
}

export function allows(actor: Actor | undefined, resource: Resource, action: Action, target?: AccessTarget): boolean {
  return actor !== undefined && decide(actor, resource, action, target).allowed;
}

/**
 * Whether some resource of a kind may be allowed: the resource as a whole, or an allow row whose object
 * selector names that kind (a list then keeps what `decide` allows item by item). A token that does not
 * allow it or a deny on the whole resource refuses.
 */
export function mayAllowSome(actor: Actor, resource: Resource, action: Action, kind: AccessTarget['kind']): boolean {
  const whole = decide(actor, resource, action);
  if (whole.allowed) return true;
  if (whole.reason.kind !== 'none') return false;
  return actor.permissions.some((rule) => !rule.deny && selectsKind(rule, kind) && actionsOf(rule.action).has(action));
}
