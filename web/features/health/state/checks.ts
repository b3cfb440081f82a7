import { HEALTH_COLUMN_MAX_AGE_MS, HEALTH_GROUP_BY_OPTIONS, HEALTH_TAB_BY_OPTIONS, LOCAL_AGENT_ID } from '@common/constants';
import { combinedTone, displayName, groupKeyFn, NO_GROUP, NO_VALUE, tabValueFn, TONE_RANK, type HealthTone } from '@common/health-grouping';
import type { CheckSummary } from '../api/schema';

// Spec §3 display name, §9 grouping and tabs: shared with the server's paged list (POST /api/health/checks).
export { displayName, groupKeyFn, NO_GROUP, NO_VALUE, tabValueFn, TONE_RANK, type HealthTone };

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
  return combinedTone(healthy, unhealthy);
}

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
export function isBuiltInGroup(groupBy: string): boolean {
  return BUILT_IN_GROUPS.includes(groupBy);
}

/** The value of a check for a tab key (spec §9 Tab By): namespace, agent, or a label (undefined without it). */
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
