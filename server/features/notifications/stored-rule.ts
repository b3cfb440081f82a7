import { waitingText } from '../../../common/waiting';
import { errorMessage, type Queryable } from '../../platform/jobs/db';
import type { CustomService, WaitingReference } from './rules';

/** A rule as the engine reads it (migration 0018 columns; durations in milliseconds). */
export interface StoredRule {
  id: string;
  name: string;
  namespace: string;
  events: string[];
  filter: string | null;
  title: string | null;
  template: string | null;
  person_id: string | null;
  team_id: string | null;
  custom_services: CustomService[] | null;
  playbook: string | null;
  fallback: { person_id: string | null; team_id: string | null; custom_services: CustomService[] | null; playbook: string | null; delayMillis: number } | null;
  repeatMillis: number;
  groupBy: string[];
  groupByMillis: number;
  waitForMillis: number;
  waitForEvalMillis: number;
  inhibitions: Array<{ direction: 'outgoing' | 'incoming' | 'all'; depth?: number; from: string; to: string[]; soft?: boolean }>;
  /** The people, teams and connections the rule names that do not exist yet (migration 0041). */
  waiting: WaitingReference[];
}

export interface RuleRow {
  id: string;
  name: string;
  namespace: string;
  events: string[];
  filter: string | null;
  title: string | null;
  template: string | null;
  person_id: string | null;
  team_id: string | null;
  custom_services: CustomService[] | null;
  spec: Record<string, unknown>;
  fallback_person_id: string | null;
  fallback_team_id: string | null;
  fallback_custom_services: CustomService[] | null;
  fallback_delay: string | null;
  repeat_interval: string | null;
  group_by: string[] | null;
  group_by_interval: string | null;
  wait_for: string | null;
  wait_for_eval_period: string | null;
  inhibitions: StoredRule['inhibitions'] | null;
  waiting_for: WaitingReference[] | null;
}

const millisOf = (nanos: string | number | null | undefined) => (nanos === null || nanos === undefined ? 0 : Number(nanos) / 1e6);
const secondsText = (text: string | null) => {
  const match = /^(\d+)s$/.exec(text ?? '');
  return match ? Number(match[1]) * 1000 : 0;
};

export function toRule(row: RuleRow): StoredRule {
  const to = (row.spec.to ?? {}) as Record<string, unknown>;
  const fallbackSpec = (row.spec.fallback ?? undefined) as Record<string, unknown> | undefined;
  const fallbackWaits = (row.waiting_for ?? []).some((item) => item.path.startsWith('spec.fallback.'));
  const hasFallback = Boolean(row.fallback_person_id || row.fallback_team_id || (row.fallback_custom_services?.length ?? 0) > 0 || fallbackSpec?.playbook || fallbackWaits);
  return {
    id: row.id,
    name: row.name,
    namespace: row.namespace,
    events: row.events,
    filter: row.filter,
    title: row.title,
    template: row.template,
    person_id: row.person_id,
    team_id: row.team_id,
    custom_services: row.custom_services,
    playbook: typeof to.playbook === 'string' ? to.playbook : null,
    fallback: hasFallback
      ? { person_id: row.fallback_person_id, team_id: row.fallback_team_id, custom_services: row.fallback_custom_services, playbook: typeof fallbackSpec?.playbook === 'string' ? fallbackSpec.playbook : null, delayMillis: millisOf(row.fallback_delay) }
      : null,
    repeatMillis: secondsText(row.repeat_interval),
    groupBy: row.group_by ?? [],
    groupByMillis: millisOf(row.group_by_interval),
    waitForMillis: millisOf(row.wait_for),
    waitForEvalMillis: millisOf(row.wait_for_eval_period),
    inhibitions: row.inhibitions ?? [],
    waiting: Array.isArray(row.waiting_for) ? row.waiting_for : [],
  };
}

/** Why a send through a connection the rule waited for failed: it still does not exist. */
export function waitedFor(error: unknown): string {
  const message = errorMessage(error);
  if (!/ not found/.test(message)) return message;
  return `${message}: the rule was saved before this connection existed and waits for it; nothing was sent (once the connection is created, the next send uses it)`;
}

/** What a rule waits for under `spec.<part>` (to or fallback), for the reason nothing was sent. */
export function waitingReason(rule: StoredRule, part: 'to' | 'fallback'): string | undefined {
  const waits = rule.waiting.filter((item) => item.path.startsWith(`spec.${part}.`));
  if (waits.length === 0) return undefined;
  return `waiting for ${waitingText(waits)}, which does not exist yet: nothing was sent there`;
}

export const RULE_COLUMNS = `id, name, namespace, events, filter, title, template, person_id, team_id, custom_services, spec, fallback_person_id, fallback_team_id,
  fallback_custom_services, fallback_delay, repeat_interval, group_by, group_by_interval, wait_for, wait_for_eval_period, inhibitions, waiting_for`;

/** A rule by id, disabled and deleted ones too (a message waiting to be sent reads its rule again). */
export async function loadRule(db: Queryable, id: string): Promise<(StoredRule & { disabled: boolean; deleted: boolean }) | undefined> {
  const { rows } = await db.query<RuleRow & { disabled: boolean; deleted_at: Date | null }>(`SELECT ${RULE_COLUMNS}, disabled, deleted_at FROM notifications WHERE id = $1`, [id]);
  const row = rows[0];
  return row ? { ...toRule(row), disabled: row.disabled, deleted: row.deleted_at !== null } : undefined;
}

export function formatMillis(millis: number): string {
  if (millis % 3_600_000 === 0) return `${millis / 3_600_000}h`;
  if (millis % 60_000 === 0) return `${millis / 60_000}m`;
  if (millis % 1000 === 0) return `${millis / 1000}s`;
  return `${millis}ms`;
}
