/**
 * Which resource an event (common/events.ts) is about: shared by notifications (rules, silences,
 * templates) and playbook triggers, so neither reaches into the other.
 */

/** The kinds of resource events are about. */
export type EventResourceKind = 'check' | 'config' | 'component' | 'incident' | 'playbook';

/** The kind of resource an event name is about (`check.failed` → check). */
export function kindOfEvent(event: string): EventResourceKind | undefined {
  const prefix = event.split('.')[0];
  return prefix === 'check' || prefix === 'config' || prefix === 'component' || prefix === 'incident' || prefix === 'playbook' ? prefix : undefined;
}

/** The resource id an event's properties name (`id`, or the older `check_id` / `incident_id` keys). */
export function resourceIdOf(kind: EventResourceKind, properties: Record<string, unknown>): string | undefined {
  const keys =
    kind === 'check' ? ['id', 'check_id'] : kind === 'incident' ? ['id', 'incident_id'] : kind === 'config' ? ['id', 'config_id'] : kind === 'playbook' ? ['run_id', 'id'] : ['id', 'component_id'];
  for (const key of keys) {
    const value = properties[key];
    if (typeof value === 'string' && /^[0-9a-f-]{36}$/i.test(value)) return value;
  }
  return undefined;
}
