import { HEALTH_COLUMN_MAX_AGE_MS, HEALTH_GROUP_BY_OPTIONS, HEALTH_TAB_BY_OPTIONS, LOCAL_AGENT_ID } from '@common/constants';
import type { CheckSummary } from '../api/schema';

/** Spec §3: the display name falls back from name to description to endpoint. */
export function displayName(check: Pick<CheckSummary, 'name' | 'description' | 'endpoint'>): string {
  return check.name.trim() || check.description?.trim() || check.endpoint?.trim() || '';
}

/** Spec §4: checks are healthy or unhealthy, groups may be mixed; a check that never ran is unknown. */
export type HealthTone = 'healthy' | 'unhealthy' | 'mixed' | 'unknown';

export function checkTone(check: Pick<CheckSummary, 'status'>): HealthTone {
  return check.status ?? 'unknown';
}

/** A group is healthy or unhealthy when all its checks that ran agree, mixed (orange) otherwise. */
export function groupTone(checks: readonly Pick<CheckSummary, 'status'>[]): HealthTone {
  let healthy = false;
  let unhealthy = false;
  for (const check of checks) {
    if (check.status === 'healthy') healthy = true;
    else if (check.status === 'unhealthy') unhealthy = true;
    if (healthy && unhealthy) return 'mixed';
  }
  return healthy ? 'healthy' : unhealthy ? 'unhealthy' : 'unknown';
}

/** Sort order of the Health column: problems first. */
export const TONE_RANK: Record<HealthTone, number> = { unhealthy: 0, mixed: 1, healthy: 2, unknown: 3 };

/** The check's uptime as a ratio over the range, or undefined without results. */
export function uptimeRatio(check: Pick<CheckSummary, 'uptime'>): number | undefined {
  const total = check.uptime.passed + check.uptime.failed;
  return total > 0 ? check.uptime.passed / total : undefined;
}

/** Spec §9: a group row counts the checks that passed every time in the range. */
export function groupUptime(checks: readonly Pick<CheckSummary, 'uptime'>[]): { passing: number; total: number } {
  let passing = 0;
  for (const check of checks) if (check.uptime.failed === 0 && check.uptime.passed > 0) passing += 1;
  return { passing, total: checks.length };
}

/**
 * Spec §4: the Health column shows the time since the last run only when it is between 1 hour and 7
 * days old: a fresh run says nothing new, an older one is no longer relevant.
 */
export function showsLastRunAge(lastRuntime: string | null, now: number = Date.now()): boolean {
  if (!lastRuntime) return false;
  const age = now - new Date(lastRuntime).getTime();
  return age >= 3_600_000 && age <= HEALTH_COLUMN_MAX_AGE_MS;
}

const BUILT_IN_GROUPS: readonly string[] = HEALTH_GROUP_BY_OPTIONS;
export const NO_GROUP = 'no-group';

/** What a group of checks without a value is called. */
export const NO_VALUE = '(none)';

/**
 * The group a check falls in (spec §9): its canary, the part of its name before '/', its description,
 * its type, or the value of a label; null when the list is not grouped.
 */
export function groupKeyFn(groupBy: string): ((check: CheckSummary) => string) | null {
  switch (groupBy) {
    case NO_GROUP:
      return null;
    case 'canary_name':
      return (check) => check.canary_name;
    case 'name':
      return (check) => {
        const name = displayName(check);
        const slash = name.indexOf('/');
        return slash > 0 ? name.slice(0, slash) : name;
      };
    case 'description':
      return (check) => check.description?.trim() || NO_VALUE;
    case 'type':
      return (check) => check.type;
    default:
      return (check) => (Object.hasOwn(check.labels, groupBy) ? (check.labels[groupBy] ?? NO_VALUE) : NO_VALUE);
  }
}

export function isBuiltInGroup(groupBy: string): boolean {
  return BUILT_IN_GROUPS.includes(groupBy);
}

/** The value of a check for a tab key (spec §9 Tab By): namespace, agent, or a label (undefined without it). */
export function tabValueFn(tabBy: string): (check: CheckSummary) => string | undefined {
  if (tabBy === 'namespace') return (check) => check.namespace;
  if (tabBy === 'agent_id') return (check) => check.agent_id;
  return (check) => (Object.hasOwn(check.labels, tabBy) ? check.labels[tabBy] : undefined);
}

/** The 'All' tab's value (a name no label value is likely to have). */
export const ALL_TAB = { value: '__all__', label: 'All' } as const;
export interface Tab {
  value: string;
  label: string;
}

/** The nil agent is this server's own (spec §3). */
export { LOCAL_AGENT_ID };

/** Tabs for these checks: 'All' first (spec §9), then each value in order; agents by name when known. */
export function tabsFor(tabBy: string, checks: readonly CheckSummary[], agentNames: ReadonlyMap<string, string> = new Map()): Tab[] {
  const valueOf = tabValueFn(tabBy);
  const values = new Set<string>();
  for (const check of checks) {
    const value = valueOf(check);
    if (value !== undefined && value !== '') values.add(value);
  }
  const label = (value: string) => (tabBy === 'agent_id' ? (agentNames.get(value) ?? (value === LOCAL_AGENT_ID ? 'local' : value)) : value);
  const tabs = [...values].map((value) => ({ value, label: label(value) })).sort((a, b) => a.label.localeCompare(b.label, 'en', { numeric: true }));
  return [ALL_TAB, ...tabs];
}

/** The options of the two selectors: the built-in fields, then every label key of the checks. */
export function groupByOptions(labelKeys: readonly string[]): string[] {
  return [...HEALTH_GROUP_BY_OPTIONS, ...labelKeys.filter((key) => !BUILT_IN_GROUPS.includes(key))];
}

export function tabByOptions(labelKeys: readonly string[]): string[] {
  const builtIn: readonly string[] = HEALTH_TAB_BY_OPTIONS;
  return [...HEALTH_TAB_BY_OPTIONS, ...labelKeys.filter((key) => !builtIn.includes(key))];
}

/** Spec §4 status dot colours: red, gray, orange or green. */
export type DotColour = 'red' | 'gray' | 'orange' | 'green';
export function statusDotColour(status: string | null | undefined): DotColour {
  switch ((status ?? 'unknown').toLowerCase()) {
    case 'degraded':
    case 'missing':
    case 'unhealthy':
      return 'red';
    case 'unknown':
    case 'suspended':
      return 'gray';
    case 'warning':
    case 'warn':
    case 'mixed':
      return 'orange';
    default:
      return 'green';
  }
}
