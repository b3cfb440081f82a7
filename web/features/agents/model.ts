import { formatRelative } from '@common/format/relative';
import type { BadgeTone } from '@web/ui/primitives/badge';
import { LOCAL_AGENT_ID } from './schema';

/** Spec §3: the nil uuid is 'local'; otherwise the agent's name when known, else its id. */
export function agentLabel(id: string | null | undefined, names: ReadonlyMap<string, string> = new Map()): string {
  if (!id || id === LOCAL_AGENT_ID) return 'local';
  return names.get(id) ?? id;
}

export const isLocalAgent = (id: string | null | undefined): boolean => !id || id === LOCAL_AGENT_ID;

/** The health badge: 'Online' within 3 heartbeats (as agents_summary decides), else 'Offline'. */
export function healthBadge(health: string | null | undefined): { label: string; tone: BadgeTone } {
  return health === 'online' ? { label: 'Online', tone: 'success' } : { label: 'Offline', tone: 'danger' };
}

/** '5m ago'; 'never' for an agent that has not pushed yet. */
export function lastSeenText(value: string | null | undefined, now: Date = new Date()): string {
  const age = formatRelative(value ?? null, now);
  return age === '' ? 'never' : `${age} ago`;
}

/** Server rule (POST /api/agent/generate): a DNS-style name of at most 63 characters. */
export const AGENT_NAME_PATTERN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
export const AGENT_NAME_MAX = 63;

/** The name's problem, or undefined when the server would take it. */
export function agentNameError(name: string): string | undefined {
  const value = name.trim();
  if (value === '') return 'This field is required';
  if (value.length > AGENT_NAME_MAX) return `At most ${AGENT_NAME_MAX} characters`;
  if (!AGENT_NAME_PATTERN.test(value)) return 'Lower-case letters, digits, dots and dashes, starting and ending with a letter or digit';
  return undefined;
}

export interface PropertyEntry {
  key: string;
  value: string;
}

/**
 * The key/value rows of the Add agent dialog as the `properties` object: blank rows are left out; a
 * value without a key and a key given twice are errors, by row index.
 */
export function propertiesFrom(entries: readonly PropertyEntry[]): { properties: Record<string, string>; errors: Map<number, string> } {
  const properties: Record<string, string> = {};
  const errors = new Map<number, string>();
  entries.forEach((entry, index) => {
    const key = entry.key.trim();
    if (key === '' && entry.value.trim() === '') return;
    if (key === '') errors.set(index, 'A property needs a key');
    else if (Object.hasOwn(properties, key)) errors.set(index, `The key ${key} is given twice`);
    else properties[key] = entry.value;
  });
  return { properties, errors };
}

/** The properties of an agent as display rows (objects and arrays as JSON), sorted by key. */
export function propertyRows(properties: Record<string, unknown> | null | undefined): [string, string][] {
  return Object.entries(properties ?? {})
    .map(([key, value]): [string, string] => [key, typeof value === 'string' ? value : JSON.stringify(value)])
    .sort(([a], [b]) => a.localeCompare(b));
}

/** How a cleaned-up table reads in the delete message: [one, many]. */
const KIND_WORDS: Readonly<Record<string, [string, string]>> = {
  canaries: ['canary', 'canaries'],
  checks: ['check', 'checks'],
  config_scrapers: ['scraper', 'scrapers'],
  config_items: ['config', 'configs'],
  topologies: ['topology', 'topologies'],
  components: ['component', 'components'],
};

/**
 * 'edge-1 deleted successfully' and, after a cleanup, what went with it ('3 checks, 1 topology'), from
 * the `cleaned` counts of DELETE /api/agent/{id} (table → rows).
 */
export function deletedText(name: string, cleaned: Readonly<Record<string, number>> = {}): string {
  const parts = Object.entries(cleaned)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => {
      const [one, many] = KIND_WORDS[kind] ?? [kind.replaceAll('_', ' '), kind.replaceAll('_', ' ')];
      return `${n} ${n === 1 ? one : many}`;
    });
  return parts.length > 0 ? `${name} deleted successfully (also deleted: ${parts.join(', ')})` : `${name} deleted successfully`;
}
