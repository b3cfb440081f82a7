/**
 * The events Watchkeeper publishes to the event queue (DESIGN §6), shared by the server (notifications
 * validate `spec.events` with isKnownEvent) and the console (which offers these names). Each is inserted
 * in the same transaction as the change it announces, only on a real change, with properties
 * `{ id, name, type, namespace, previous, … }` (incidents: `{ id, incident_id, title, severity, status, previous }`).
 */

import { isOneOf } from './guards';

export const INCIDENT_STATUS_EVENTS = [
  'incident.status.new',
  'incident.status.open',
  'incident.status.investigating',
  'incident.status.mitigated',
  'incident.status.resolved',
  'incident.status.closed',
] as const;

export const EVENT_NAMES = [
  'check.passed',
  'check.failed',
  'config.created',
  'config.updated',
  'config.deleted',
  'config.changed',
  'config.healthy',
  'config.unhealthy',
  'config.warning',
  'config.unknown',
  'component.healthy',
  'component.unhealthy',
  'component.warning',
  'component.unknown',
  'incident.created',
  ...INCIDENT_STATUS_EVENTS,
  'incident.responder.added',
  'incident.responder.removed',
  'incident.comment.added',
  'incident.dod.evidence.added',
  'incident.dod.evidence.removed',
  'incident.dod.passed',
  'incident.dod.regressed',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** One line per event, for the UI. */
export const EVENT_DESCRIPTIONS: Readonly<Record<EventName, string>> = {
  'check.passed': 'A check passes after failing',
  'check.failed': 'A check fails (its first result, or after passing)',
  'config.created': 'A scraper found a new config item',
  'config.updated': "A config item's config changed",
  'config.deleted': 'A config item was deleted (by its source, as stale, or with its scraper)',
  'config.changed': 'A config change was recorded (a diff or a change the source reported)',
  'config.healthy': 'A config item became healthy',
  'config.unhealthy': 'A config item became unhealthy',
  'config.warning': 'A config item went into warning',
  'config.unknown': "A config item's health became unknown",
  'component.healthy': 'A component became healthy',
  'component.unhealthy': 'A component became unhealthy',
  'component.warning': 'A component went into warning',
  'component.unknown': "A component's health became unknown",
  'incident.created': 'An incident was opened (by a person, Attach as Evidence or an incident rule)',
  'incident.status.new': 'An incident went back to new',
  'incident.status.open': 'An incident was (re)opened',
  'incident.status.investigating': 'An incident is being investigated',
  'incident.status.mitigated': 'An incident was mitigated',
  'incident.status.resolved': 'An incident was resolved',
  'incident.status.closed': 'An incident was closed',
  'incident.responder.added': 'A person or team was added as a responder',
  'incident.responder.removed': 'A responder was removed',
  'incident.comment.added': 'Someone commented on an incident',
  'incident.dod.evidence.added': 'Evidence was made part of the definition of done',
  'incident.dod.evidence.removed': 'Evidence was taken out of the definition of done (or deleted)',
  'incident.dod.passed': 'A definition-of-done evidence was marked done',
  'incident.dod.regressed': 'A definition-of-done evidence was marked not done again',
};

/** Playbook events, as Mission Control names them: published by the playbook runner (spec approval is not). */
export const PLAYBOOK_EVENT_NAMES = [
  'playbook.run.completed',
  'playbook.run.failed',
  'playbook.approval.inprogress',
  'playbook.spec.approval.requested',
] as const;
export type PlaybookEventName = (typeof PLAYBOOK_EVENT_NAMES)[number];

export const PLAYBOOK_EVENT_DESCRIPTIONS: Readonly<Record<PlaybookEventName, string>> = {
  'playbook.run.completed': 'A playbook run completed',
  'playbook.run.failed': 'A playbook run failed, timed out or was cancelled',
  'playbook.approval.inprogress': 'A playbook run waits for approval',
  'playbook.spec.approval.requested': 'A playbook spec change asks for approval (not published here)',
};

/** Families a Notification may name with a trailing `.*` (Mission Control writes `incident.status.*`). */
function families(): Set<string> {
  const out = new Set<string>();
  for (const name of [...EVENT_NAMES, ...PLAYBOOK_EVENT_NAMES]) {
    const parts = name.split('.');
    for (let i = 1; i < parts.length; i += 1) out.add(parts.slice(0, i).join('.'));
  }
  return out;
}
const FAMILIES = families();
const KNOWN = new Set<string>([...EVENT_NAMES, ...PLAYBOOK_EVENT_NAMES]);

/**
 * True for an event we publish (or a playbook event we will), or a family of them written with `.*`:
 * `check.failed`, `config.unhealthy`, `incident.status.*`, `incident.dod.*`, `config.*`.
 */
export function isKnownEvent(name: string): boolean {
  if (KNOWN.has(name)) return true;
  return name.endsWith('.*') && FAMILIES.has(name.slice(0, -2));
}

/** The event names a name or `family.*` stands for. */
export function expandEvent(name: string): string[] {
  const all: string[] = [...EVENT_NAMES, ...PLAYBOOK_EVENT_NAMES];
  if (!name.endsWith('.*')) return all.includes(name) ? [name] : [];
  const prefix = name.slice(0, -1);
  return all.filter((event) => event.startsWith(prefix));
}

const HEALTHS = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;

/**
 * The config.<health> / component.<health> event of a health value. Mission Control has no `degraded`
 * health on config items here (the column allows healthy, unhealthy, warning, unknown), so none is mapped.
 */
export function healthEvent(kind: 'config' | 'component', health: string | null | undefined): `config.${(typeof HEALTHS)[number]}` | `component.${(typeof HEALTHS)[number]}` | undefined {
  if (!health || !isOneOf(HEALTHS, health)) return undefined;
  return `${kind}.${health}`;
}
