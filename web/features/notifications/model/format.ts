import { waitingText, type WaitingReference } from '@common/waiting';
import { FUTURE_INDEFINITELY } from '@common/constants';
import type { BadgeTone } from '@web/ui/primitives/badge';

/** Mission Control's send-history statuses (migration 0018), in the order the status filter offers them. */
export const SEND_STATUSES = [
  'sent',
  'error',
  'pending',
  'silenced',
  'repeat-interval',
  'inhibited',
  'skipped',
  'evaluating-waitfor',
  'attempting_fallback',
  'grouped',
] as const;

const SEND_STATUS_TONES: Readonly<Record<string, BadgeTone>> = {
  sent: 'success',
  error: 'danger',
  pending: 'info',
  'evaluating-waitfor': 'info',
  attempting_fallback: 'warning',
  pending_playbook_run: 'info',
  pending_playbook_completion: 'info',
  silenced: 'neutral',
  'repeat-interval': 'neutral',
  inhibited: 'neutral',
  skipped: 'neutral',
  grouped: 'neutral',
};

/** A send status as people read it: 'repeat-interval' → 'Repeat interval', 'attempting_fallback' → 'Attempting fallback'. */
export function sendStatusLabel(status: string): string {
  if (status === 'evaluating-waitfor') return 'Waiting';
  const words = status.replace(/[-_]+/g, ' ').trim();
  return words === '' ? 'Unknown' : words[0]?.toUpperCase() + words.slice(1);
}

export function sendStatusTone(status: string): BadgeTone {
  return SEND_STATUS_TONES[status] ?? 'neutral';
}

export type RuleStatus = 'ok' | 'failing' | 'error' | 'disabled' | 'waiting';

export const RULE_STATUS: Readonly<Record<RuleStatus, { label: string; tone: BadgeTone }>> = {
  ok: { label: 'OK', tone: 'success' },
  failing: { label: 'Failing', tone: 'warning' },
  error: { label: 'Error', tone: 'danger' },
  disabled: { label: 'Disabled', tone: 'neutral' },
  // Names a person, team or connection that does not exist yet (docs/RESOURCES.md).
  waiting: { label: 'Waiting', tone: 'warning' },
};

export function ruleStatusOf(value: string | null | undefined): RuleStatus {
  return value === 'failing' || value === 'error' || value === 'disabled' || value === 'waiting' ? value : 'ok';
}

/** One entry of a rule's custom_services (server/features/notifications/rules.ts resolveRecipient). */
export interface CustomService {
  kind?: string;
  email?: string;
  connection?: string;
  connection_type?: string;
  url?: string;
  webhook?: { url?: string; connection?: string };
}

export interface RecipientSource {
  person?: { name?: string | null; email?: string | null } | null;
  team?: { name?: string | null } | null;
  custom_services?: readonly CustomService[] | null;
}

/** A URL without its credentials and query (a service URL such as slack://token@channel carries a secret). */
function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//');
  }
}

function serviceText(service: CustomService): string | undefined {
  if (service.email) return service.email;
  if (service.connection) return service.connection;
  if (service.url) return safeUrl(service.url);
  if (service.webhook?.connection) return service.webhook.connection;
  if (service.webhook?.url) return `Webhook ${safeUrl(service.webhook.url)}`;
  return service.kind;
}

/** Whom a rule sends to, in words: the person, the team, or its connection / email / URL. */
export function recipientText(rule: RecipientSource): string {
  const parts: string[] = [];
  if (rule.person) parts.push(rule.person.name || rule.person.email || 'Person');
  if (rule.team?.name) parts.push(rule.team.name);
  for (const service of rule.custom_services ?? []) {
    const text = serviceText(service);
    if (text) parts.push(text);
  }
  return parts.join(', ');
}

/** What a rule waits for, in words (none: undefined). */
export function waitingDescription(waiting: readonly WaitingReference[] | undefined): string | undefined {
  if (!waiting || waiting.length === 0) return undefined;
  return `Waits for ${waitingText(waiting)}, which does not exist yet: nothing is sent there until it is created.`;
}

/** A silence's end: 'Indefinitely' for none (spec §4, §9). */
export function untilText(until: string | null | undefined, format: (date: Date) => string): string {
  if (until === null || until === undefined || until === '') return FUTURE_INDEFINITELY;
  const date = new Date(until);
  return Number.isNaN(date.getTime()) ? until : format(date);
}

export type SilenceState = 'active' | 'upcoming' | 'expired';

export function silenceState(silence: { from: string; until: string | null }, now: Date = new Date()): SilenceState {
  if (new Date(silence.from).getTime() > now.getTime()) return 'upcoming';
  if (silence.until !== null && new Date(silence.until).getTime() <= now.getTime()) return 'expired';
  return 'active';
}

export const SILENCE_STATE: Readonly<Record<SilenceState, { label: string; tone: BadgeTone }>> = {
  active: { label: 'Active', tone: 'success' },
  upcoming: { label: 'Upcoming', tone: 'info' },
  expired: { label: 'Expired', tone: 'neutral' },
};

export type ResourceKind = 'check' | 'config' | 'component' | 'canary' | 'incident';

/** Where a resource of the send history lives in the console (spec §2 pages). */
export function resourceHref(kind: string, id: string): string | undefined {
  const safe = encodeURIComponent(id);
  switch (kind) {
    case 'check':
      return `/health?checkId=${safe}`;
    case 'config':
      return `/catalog/${safe}`;
    case 'component':
      return `/topology/${safe}`;
    case 'incident':
      return `/incidents/${safe}`;
    default:
      return undefined;
  }
}
