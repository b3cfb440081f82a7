/**
 * How the Health page groups, tabs and filters checks (spec §9) and sums up their health, the same on the
 * server (POST /api/health/checks pages, groups and pivots them) and in the browser (its tables and tests).
 */

/** What these functions read of a check; the server's and the web's summaries both have it. */
export interface GroupableCheck {
  name: string;
  description?: string | null | undefined;
  endpoint?: string | null | undefined;
  canary_name: string;
  type: string;
  namespace?: string | undefined;
  agent_id?: string | undefined;
  labels: Readonly<Record<string, string>>;
}

/** Spec §4: checks are healthy or unhealthy, groups may be mixed; a check that never ran is unknown. */
export type HealthTone = 'healthy' | 'unhealthy' | 'mixed' | 'unknown';

/** Sort order of the Health column: problems first. */
export const TONE_RANK: Readonly<Record<HealthTone, number>> = { unhealthy: 0, mixed: 1, healthy: 2, unknown: 3 };

/** A group's tone from whether any of its checks was healthy and any unhealthy: mixed when both, unknown when neither ran. */
export function combinedTone(healthy: boolean, unhealthy: boolean): HealthTone {
  return healthy && unhealthy ? 'mixed' : healthy ? 'healthy' : unhealthy ? 'unhealthy' : 'unknown';
}

/** The Group By value that does not group. */
export const NO_GROUP = 'no-group';

/** What a group of checks without a value is called (a label they lack, no description). */
export const NO_VALUE = '(none)';

/** A label filter: 1 includes (values of one key are alternatives), -1 excludes. */
export interface LabelFilterEntry {
  key: string;
  value: string;
  state: 1 | -1;
}

/** A check's name as shown: its name, else its description, else its endpoint. */
export function displayName(check: Pick<GroupableCheck, 'name' | 'description' | 'endpoint'>): string {
  return check.name.trim() || check.description?.trim() || check.endpoint?.trim() || '';
}

/**
 * The group a check falls in: its canary, the part of its name before '/', its description, its type,
 * or the value of a label; null when the list is not grouped.
 */
export function groupKeyFn(groupBy: string): ((check: GroupableCheck) => string) | null {
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

/** The tab a check is in: its namespace, its agent, or the value of a label (undefined: none). */
export function tabValueFn(tabBy: string): (check: GroupableCheck) => string | undefined {
  if (tabBy === 'namespace') return (check) => check.namespace;
  if (tabBy === 'agent_id') return (check) => check.agent_id;
  return (check) => (Object.hasOwn(check.labels, tabBy) ? check.labels[tabBy] : undefined);
}

/**
 * The check's labels pass when, for every key with included values, the check has one of them, and it
 * has none of the excluded ones. Values of one key are alternatives; keys all apply.
 */
export function labelFilterPredicate(entries: readonly LabelFilterEntry[]): (labels: Readonly<Record<string, string>>) => boolean {
  if (entries.length === 0) return () => true;
  const included = new Map<string, Set<string>>();
  const excluded: LabelFilterEntry[] = [];
  for (const entry of entries) {
    if (entry.state === -1) excluded.push(entry);
    else included.set(entry.key, (included.get(entry.key) ?? new Set()).add(entry.value));
  }
  return (labels) => {
    for (const [key, values] of included) {
      const value = Object.hasOwn(labels, key) ? labels[key] : undefined;
      if (value === undefined || !values.has(value)) return false;
    }
    return !excluded.some((entry) => Object.hasOwn(labels, entry.key) && labels[entry.key] === entry.value);
  };
}
