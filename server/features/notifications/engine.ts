import { capabilityUses, runRefusal } from '../../platform/auth/capabilities';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { currentOrganization, inOrganizationOf } from '../../platform/db/tenant';
import { sendThrough, type ChannelMessage } from '../../platform/channels';
import { parseShoutrrr } from '../../platform/channels/shoutrrr';
import type { ResolvedConnection } from '../../platform/connections/types';
import { errorMessage, inTransaction, type Queryable } from '../../platform/jobs/db';
import type { QueuedEvent } from '../../platform/jobs/event-queue';
import type { Logger } from '../../platform/logger';
import { secretStore } from '../../platform/secrets';
import { resolveConnection, resolveEnvVar } from '../../platform/secrets/resolve';
import { evaluateCel } from '../../platform/expressions';
import { glob } from '../../platform/expressions/shared/k8s';
import { createRun } from '../playbooks/runs';
import { loadEventResource, stillFailing, type EventResource } from './resource';
import { recipientsOf, type Recipient } from './recipients';
import type { CustomService } from './rules';
import { loadActiveSilences, SilenceIndex } from './silences';
import { groupMessage, markdownToHtml, renderMessage } from './templates';

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
}

interface RuleRow {
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
}

const millisOf = (nanos: string | number | null | undefined) => (nanos === null || nanos === undefined ? 0 : Number(nanos) / 1e6);
const secondsText = (text: string | null) => {
  const match = /^(\d+)s$/.exec(text ?? '');
  return match ? Number(match[1]) * 1000 : 0;
};

export function toRule(row: RuleRow): StoredRule {
  const to = (row.spec.to ?? {}) as Record<string, unknown>;
  const fallbackSpec = (row.spec.fallback ?? undefined) as Record<string, unknown> | undefined;
  const hasFallback = Boolean(row.fallback_person_id || row.fallback_team_id || (row.fallback_custom_services?.length ?? 0) > 0 || fallbackSpec?.playbook);
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
  };
}

const RULE_COLUMNS = `id, name, namespace, events, filter, title, template, person_id, team_id, custom_services, spec, fallback_person_id, fallback_team_id,
  fallback_custom_services, fallback_delay, repeat_interval, group_by, group_by_interval, wait_for, wait_for_eval_period, inhibitions`;

/** Sends are tried this many times (with backoff) before the row is an error and the fallback takes over. */
export const MAX_ATTEMPTS = 4;
const RETRY_BASE_MILLIS = 1_000;
const CLAIM_MILLIS = 60_000;

/**
 * At-least-once across crashes (docs/NOTIFICATIONS.md "Delivery guarantees"): a claim is cleared when its
 * send is recorded (finish), so a row claimed again while it still names an earlier claim is one whose
 * instance died (kill -9, a lost database connection) between the claim and the record, maybe after the
 * message went out. Claiming it again counts a retry and says so; the re-send carries the same
 * X-Watchkeeper-Send-Id (the row's id), so the receiver can drop the duplicate.
 */
const RESENT = 're-sent (same X-Watchkeeper-Send-Id)';
const RECLAIM_COUNTS = `retries = h.retries + CASE WHEN h.claimed_by IS NULL THEN 0 ELSE 1 END,
  reason = CASE WHEN h.claimed_by IS NULL THEN h.reason ELSE '${RESENT} after ' || h.claimed_by || ' claimed it and did not record the outcome' END`;
/** A groupBy rule's first event waits this long (or waitFor) for others to join its message. */
export const GROUP_WAIT_MILLIS = 10_000;
/** A groupBy rule sends a group once per this long when groupByInterval is not set. */
const DEFAULT_GROUP_INTERVAL_MILLIS = 60 * 60_000;
/** Without a repeat interval, an inhibiting parent's message counts for this long. */
const INHIBIT_WINDOW_MILLIS = 60 * 60_000;
const FAILING_EVENTS = /^(check\.failed|config\.(unhealthy|warning|unknown)|component\.(unhealthy|warning|unknown))$/;

export interface EngineOptions {
  publicUrl: string;
  smtpUrl?: string | undefined;
  smtpFrom?: string | undefined;
  instanceId?: string;
  /** Tests shorten these: the first retry's wait (doubling after), and a group's wait for others. */
  retryBaseMillis?: number;
  groupWaitMillis?: number;
}

type HistoryRow = {
  id: string;
  notification_id: string;
  event_id: string | null;
  source_event: string;
  resource_id: string;
  resource_type: string;
  status: string;
  recipient: string;
  recipient_key: string;
  parent_id: string | null;
  group_by_hash: string;
  payload: { recipient?: Recipient; properties?: Record<string, unknown>; waitFor?: boolean; evaluated?: boolean };
  retries: number;
  reason: string | null;
  first_observed: Date;
  created_at: Date;
  /** Hosted mode (docs/HOSTED.md "Row-level security"): delivered in its organization's scope. */
  organization_id?: string | null;
};

/**
 * The notification engine: `handleEvent` decides, for every rule an event matches and every recipient,
 * what happens (pending, silenced, inhibited, repeat-interval, skipped, grouped) and records it in
 * notification_send_history; `sendDue` delivers what is due, once across instances, with retries,
 * waitFor re-evaluation, groups and fallbacks.
 */
export class NotificationEngine {
  /** Per organization (hosted mode, docs/HOSTED.md "Row-level security"; '' for the console's own): each sees its own rules and silences. */
  private readonly rules = new Map<string, { at: number; byEvent: Map<string, StoredRule[]> }>();
  private readonly silences = new Map<string, { at: number; index: SilenceIndex }>();
  readonly instanceId: string;

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: Logger,
    private readonly options: EngineOptions,
  ) {
    this.instanceId = options.instanceId ?? `notifications-${randomUUID()}`;
  }

  /** Drops the cached rules and silences (another instance or the API changed one). */
  invalidate(): void {
    this.rules.clear();
    this.silences.clear();
  }

  async rulesFor(event: string): Promise<StoredRule[]> {
    const key = currentOrganization() ?? '';
    let cached = this.rules.get(key);
    if (!cached || Date.now() - cached.at > 30_000) {
      // An event of no organization (the console's own work) meets the console's own rules only.
      const { rows } = await this.pool.query<RuleRow>(`SELECT ${RULE_COLUMNS} FROM notifications WHERE deleted_at IS NULL AND NOT disabled AND organization_id IS NOT DISTINCT FROM current_organization()`);
      const byEvent = new Map<string, StoredRule[]>();
      for (const row of rows) {
        const rule = toRule(row);
        for (const name of rule.events) byEvent.set(name, [...(byEvent.get(name) ?? []), rule]);
      }
      cached = { at: Date.now(), byEvent };
      this.rules.set(key, cached);
    }
    return cached.byEvent.get(event) ?? [];
  }

  async silenceIndex(): Promise<SilenceIndex> {
    const key = currentOrganization() ?? '';
    let cached = this.silences.get(key);
    if (!cached || Date.now() - cached.at > 30_000) {
      cached = { at: Date.now(), index: new SilenceIndex(await loadActiveSilences(this.pool)) };
      this.silences.set(key, cached);
    }
    return cached.index;
  }

  private async recordRuleError(rule: StoredRule, message: string): Promise<void> {
    await this.pool.query('UPDATE notifications SET error = $2, error_at = now() WHERE id = $1 AND error IS DISTINCT FROM $2', [rule.id, message.slice(0, 2_000)]);
  }

  /** The event handler of the `notifications` consumer. */
  async handleEvent(event: QueuedEvent): Promise<number> {
    const rules = await this.rulesFor(event.name);
    if (rules.length === 0) return 0;
    const resource = await loadEventResource(this.pool, { name: event.name, properties: event.properties, createdAt: event.createdAt }, this.options.publicUrl);
    if (!resource) return 0;
    const eventId = event.eventId;
    let recorded = 0;
    for (const rule of rules) {
      if (rule.filter) {
        let matched: unknown;
        try {
          matched = evaluateCel('spec.filter', rule.filter, resource.env);
        } catch (error) {
          await this.recordRuleError(rule, errorMessage(error));
          continue;
        }
        if (matched !== true) continue;
      }
      recorded += await this.record(rule, event.name, eventId, resource);
    }
    return recorded;
  }

  /** Decides and records what happens to one event of one rule, per recipient. */
  private async record(rule: StoredRule, eventName: string, eventId: string, resource: EventResource): Promise<number> {
    const recipients = await recipientsOf(this.pool, rule);
    if (recipients.length === 0) {
      await this.recordRuleError(rule, 'the rule has no recipient left (the person, team or connection it names was deleted, or the team has no members)');
      return 0;
    }
    const silence = (await this.silenceIndex()).match(resource);
    const inhibitor = silence ? undefined : await this.inhibitor(rule, resource);
    const groupHash = rule.groupBy.length > 0 ? groupHashOf(rule, eventName, resource) : '';
    const rows: Array<Record<string, unknown>> = [];
    for (const recipient of recipients) {
      const row: Record<string, unknown> = {
        notification_id: rule.id,
        event_id: eventId,
        source_event: eventName,
        resource_id: resource.id,
        resource_type: resource.kind,
        resource_name: resource.name,
        resource_kind: resource.type,
        recipient: recipient.label,
        recipient_key: recipient.key,
        person_id: recipient.person_id ?? null,
        team_id: recipient.team_id ?? null,
        connection_id: recipient.connection_id ?? null,
        group_by_hash: groupHash,
        payload: JSON.stringify({ recipient, properties: resource.env.event && typeof resource.env.event === 'object' ? (resource.env.event as { properties: unknown }).properties : {} }),
        status: 'pending',
        reason: null,
        silenced_by: null,
        inhibited_by: null,
        playbook_run_id: null,
        error: null,
        sent_at: null,
        not_before: new Date(),
      };
      if (silence) Object.assign(row, { status: 'silenced', silenced_by: silence.id, reason: `silenced by ${silence.label}`, not_before: null });
      else if (inhibitor) Object.assign(row, { status: 'inhibited', inhibited_by: inhibitor.id, reason: `inhibited by ${inhibitor.type ?? 'parent'} ${inhibitor.name}`, not_before: null });
      else if (recipient.kind === 'playbook') Object.assign(row, await this.runPlaybook(recipient.playbook ?? '', rule, eventName, eventId, resource), { not_before: null });
      else if (rule.repeatMillis > 0 && (await this.repeated(rule, resource.id, recipient.key, eventName))) {
        Object.assign(row, { status: 'repeat-interval', reason: `already sent within the repeat interval of ${formatMillis(rule.repeatMillis)}`, not_before: null });
      } else if (groupHash) {
        // Joins the group waiting to be sent, or starts one that waits for others to join.
        const waiting = await this.pool.query<{ not_before: Date }>(
          "SELECT not_before FROM notification_send_history WHERE group_by_hash = $1 AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < now()) ORDER BY not_before LIMIT 1",
          [groupHash],
        );
        row.not_before = waiting.rows[0]?.not_before ?? new Date(Date.now() + Math.max(rule.waitForMillis, this.options.groupWaitMillis ?? GROUP_WAIT_MILLIS));
      } else if (rule.waitForMillis > 0 && FAILING_EVENTS.test(eventName)) {
        Object.assign(row, { not_before: new Date(Date.now() + rule.waitForMillis), reason: `waiting ${formatMillis(rule.waitForMillis)} to see whether it is still failing`, payload: JSON.stringify({ ...JSON.parse(String(row.payload)), waitFor: true }) });
      }
      rows.push(row);
    }
    return this.insertRows(rows);
  }

  /**
   * A `to.playbook` recipient (namespace/name, or a name in the rule's namespace): the playbook is run on the
   * event's resource, the event as `.event`; the row records the run, or why it could not start.
   */
  private async runPlaybook(reference: string, rule: StoredRule, eventName: string, eventId: string, resource: EventResource): Promise<Record<string, unknown>> {
    const [namespace, name] = reference.includes('/') ? (reference.split('/', 2) as [string, string]) : [rule.namespace, reference];
    const { rows } = await this.pool.query<{ id: string }>('SELECT id FROM playbooks WHERE namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL', [namespace, name]);
    const playbookId = rows[0]?.id;
    if (!playbookId) return { status: 'error', error: `playbook ${namespace}/${name} not found`, reason: `playbook ${namespace}/${name} not found` };
    const target = resource.kind === 'config' || resource.kind === 'component' || resource.kind === 'check' ? { [`${resource.kind}_id`]: resource.id } : {};
    try {
      const run = await inTransaction(this.pool, (client) =>
        createRun(client, secretStore(this.pool), { playbookId, ...target, request: { trigger: 'notification', notification_id: rule.id, event: { id: eventId, name: eventName, properties: resource.env.event && typeof resource.env.event === 'object' ? (resource.env.event as { properties: unknown }).properties : {} } } }),
      );
      return { status: 'sent', playbook_run_id: run.id, reason: `ran playbook ${namespace}/${name} (${run.status === 'pending_approval' ? 'waiting for approval' : 'run started'})`, sent_at: new Date() };
    } catch (error) {
      return { status: 'error', error: errorMessage(error), reason: `playbook ${namespace}/${name} could not run: ${errorMessage(error)}` };
    }
  }

  private async insertRows(rows: Array<Record<string, unknown>>): Promise<number> {
    if (rows.length === 0) return 0;
    const columns = Object.keys(rows[0] ?? {});
    const values: unknown[] = [];
    const tuples = rows.map((row) => `(${columns.map((column) => {
      values.push(row[column]);
      return `$${values.length}`;
    }).join(', ')})`);
    const result = await this.pool.query(
      `INSERT INTO notification_send_history (${columns.join(', ')}) VALUES ${tuples.join(', ')}
       ON CONFLICT (event_id, notification_id, recipient_key) WHERE event_id IS NOT NULL AND parent_id IS NULL DO NOTHING`,
      values,
    );
    return result.rowCount ?? 0;
  }

  private async repeated(rule: StoredRule, resourceId: string, recipientKey: string, eventName: string): Promise<boolean> {
    const { rows } = await this.pool.query(
      `SELECT 1 FROM notification_send_history
       WHERE notification_id = $1 AND resource_id = $2 AND recipient_key = $3 AND source_event = $4
         AND status IN ('sent', 'pending', 'evaluating-waitfor') AND created_at > now() - make_interval(secs => $5::float8 / 1000) LIMIT 1`,
      [rule.id, resourceId, recipientKey, eventName, rule.repeatMillis],
    );
    return rows.length > 0;
  }

  /**
   * A related resource (by config relationships and parents, or the component tree) of an inhibition's
   * `from` type whose message for this rule was sent or is on its way recently: it inhibits this one.
   */
  async inhibitor(rule: StoredRule, resource: EventResource): Promise<{ id: string; name: string; type: string | null } | undefined> {
    if (rule.inhibitions.length === 0 || (resource.kind !== 'config' && resource.kind !== 'component')) return undefined;
    for (const inhibition of rule.inhibitions) {
      if (!inhibition.to.some((type) => glob(type, resource.type ?? ''))) continue;
      const related = await relatedResources(this.pool, resource, inhibition.direction, inhibition.depth ?? 2);
      const candidates = related.filter((item) => glob(inhibition.from, item.type ?? ''));
      if (candidates.length === 0) continue;
      const { rows } = await this.pool.query<{ resource_id: string }>(
        `SELECT resource_id FROM notification_send_history
         WHERE notification_id = $1 AND resource_id = ANY($2::uuid[]) AND status IN ('sent', 'pending', 'evaluating-waitfor')
           AND created_at > now() - make_interval(secs => $3::float8 / 1000)
         ORDER BY created_at DESC LIMIT 1`,
        [rule.id, candidates.map((item) => item.id), Math.max(rule.repeatMillis, INHIBIT_WINDOW_MILLIS)],
      );
      const found = rows[0] && candidates.find((item) => item.id === rows[0]?.resource_id);
      if (found) return found;
    }
    return undefined;
  }

  // ── Sending ───────────────────────────────────────────────────────────────────────────────────────

  /** Delivers what is due now (one batch); the number of rows finished. */
  async sendDue(limit = 20, signal: AbortSignal = new AbortController().signal): Promise<number> {
    let done = 0;
    const { rows } = await this.pool.query<HistoryRow>(
      `WITH due AS (
         SELECT id FROM notification_send_history
          WHERE status IN ('pending', 'evaluating-waitfor', 'attempting_fallback') AND not_before <= now() AND group_by_hash = ''
            AND (claimed_until IS NULL OR claimed_until < now())
          ORDER BY not_before LIMIT $1 FOR UPDATE SKIP LOCKED
       )
       UPDATE notification_send_history h SET claimed_by = $2, claimed_until = now() + make_interval(secs => $3::float8 / 1000), ${RECLAIM_COUNTS}
         FROM due WHERE h.id = due.id
       RETURNING h.*`,
      [limit, this.instanceId, CLAIM_MILLIS],
    );
    await Promise.all(rows.map(async (row) => {
      if (signal.aborted) return;
      // An organization's message is delivered in its scope: its notification, connections and people only.
      await inOrganizationOf(row.organization_id, () => this.deliver(row, [])).catch((error) => this.log.warn({ err: errorMessage(error), history: row.id }, 'could not deliver a notification'));
      done += 1;
    }));
    done += await this.sendDueGroups(signal);
    return done;
  }

  /** Groups whose wait is over: one message each, claimed under an advisory lock so one instance sends it. */
  private async sendDueGroups(signal: AbortSignal): Promise<number> {
    const { rows: hashes } = await this.pool.query<{ group_by_hash: string }>(
      `SELECT DISTINCT group_by_hash FROM notification_send_history
        WHERE status = 'pending' AND group_by_hash <> '' AND not_before <= now() AND (claimed_until IS NULL OR claimed_until < now()) LIMIT 20`,
    );
    let done = 0;
    for (const { group_by_hash: hash } of hashes) {
      if (signal.aborted) break;
      const members = await this.claimGroup(hash);
      if (members.length === 0) continue;
      const [primary, ...rest] = members;
      if (!primary) continue;
      await inOrganizationOf(primary.organization_id, () => this.deliver(primary, rest)).catch((error) => this.log.warn({ err: errorMessage(error), history: primary.id }, 'could not deliver a grouped notification'));
      done += members.length;
    }
    return done;
  }

  private async claimGroup(hash: string): Promise<HistoryRow[]> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows: lock } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok', [hash]);
      if (!lock[0]?.ok) {
        await client.query('ROLLBACK');
        return [];
      }
      // Another instance is sending this group right now: these rows join its message on a later round.
      const { rows: inFlight } = await client.query("SELECT 1 FROM notification_send_history WHERE group_by_hash = $1 AND status = 'pending' AND claimed_until > now() LIMIT 1", [hash]);
      if (inFlight.length > 0) {
        await client.query('ROLLBACK');
        return [];
      }
      // A message of this group already went out within its interval: these join it instead.
      const { rows: sent } = await client.query<{ id: string; notification_id: string; sent_at: Date }>(
        `SELECT h.id, h.notification_id, h.sent_at FROM notification_send_history h JOIN notifications n ON n.id = h.notification_id
          WHERE h.group_by_hash = $1 AND h.status = 'sent'
            AND h.created_at > now() - make_interval(secs => coalesce(n.group_by_interval, $2::bigint * 1000000)::float8 / 1e9)
          ORDER BY h.created_at DESC LIMIT 1`,
        [hash, DEFAULT_GROUP_INTERVAL_MILLIS],
      );
      const previous = sent[0];
      if (previous) {
        await client.query(
          `UPDATE notification_send_history SET status = 'grouped', parent_id = $2, reason = $3, claimed_by = NULL, claimed_until = NULL
            WHERE group_by_hash = $1 AND status = 'pending' AND not_before <= now() AND (claimed_until IS NULL OR claimed_until < now())`,
          [hash, previous.id, `grouped with the message sent at ${previous.sent_at?.toISOString() ?? 'earlier'} (groupByInterval)`],
        );
        await client.query('COMMIT');
        return [];
      }
      const { rows } = await client.query<HistoryRow>(
        `UPDATE notification_send_history h SET claimed_by = $2, claimed_until = now() + make_interval(secs => $3::float8 / 1000), ${RECLAIM_COUNTS}
          WHERE group_by_hash = $1 AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < now())
          RETURNING *`,
        [hash, this.instanceId, CLAIM_MILLIS],
      );
      await client.query('COMMIT');
      return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  private async finish(id: string, values: Record<string, unknown>): Promise<void> {
    const names = Object.keys(values);
    await this.pool.query(
      `UPDATE notification_send_history SET ${names.map((name, index) => `${name} = $${index + 3}`).join(', ')}, claimed_by = NULL, claimed_until = NULL
        WHERE id = $1 AND claimed_by = $2`,
      [id, this.instanceId, ...Object.values(values)],
    );
  }

  private async loadRule(id: string): Promise<(StoredRule & { disabled: boolean; deleted: boolean }) | undefined> {
    const { rows } = await this.pool.query<RuleRow & { disabled: boolean; deleted_at: Date | null }>(`SELECT ${RULE_COLUMNS}, disabled, deleted_at FROM notifications WHERE id = $1`, [id]);
    const row = rows[0];
    return row ? { ...toRule(row), disabled: row.disabled, deleted: row.deleted_at !== null } : undefined;
  }

  /** Sends one row (with the rows grouped into its message) and records the outcome on each. */
  private async deliver(row: HistoryRow, grouped: HistoryRow[]): Promise<void> {
    const started = Date.now();
    const rule = await this.loadRule(row.notification_id);
    const all = [row, ...grouped];
    const finishAll = async (values: Record<string, unknown>) => {
      for (const item of all) await this.finish(item.id, values);
    };
    if (!rule || rule.deleted || rule.disabled) {
      await finishAll({ status: 'skipped', reason: !rule || rule.deleted ? 'the rule was deleted before it was sent' : 'the rule was disabled before it was sent' });
      return;
    }
    const resource = await loadEventResource(this.pool, { name: row.source_event, properties: { id: row.resource_id, ...(row.payload.properties ?? {}) }, createdAt: row.first_observed }, this.options.publicUrl);
    if (!resource) {
      await finishAll({ status: 'skipped', reason: 'the resource no longer exists' });
      return;
    }
    if (row.payload.waitFor) {
      if (rule.waitForEvalMillis > 0 && !row.payload.evaluated && row.status !== 'evaluating-waitfor') {
        await this.finish(row.id, { status: 'evaluating-waitfor', not_before: new Date(Date.now() + rule.waitForEvalMillis), reason: `re-evaluating health for ${formatMillis(rule.waitForEvalMillis)} (waitForEvalPeriod)`, payload: JSON.stringify({ ...row.payload, evaluated: true }) });
        return;
      }
      if (!stillFailing(resource)) {
        await this.finish(row.id, { status: 'skipped', reason: `${resource.name} is ${resource.health ?? 'no longer failing'} again after waiting ${formatMillis(rule.waitForMillis)}` });
        return;
      }
    }
    // A silence made while the message waited still counts.
    const silence = (await this.silenceIndex()).match(resource);
    if (silence && row.status !== 'attempting_fallback') {
      await finishAll({ status: 'silenced', silenced_by: silence.id, reason: `silenced by ${silence.label}` });
      return;
    }
    let message;
    try {
      const own = renderMessage(rule, row.source_event, resource);
      if (grouped.length > 0) {
        const others = await Promise.all(grouped.map(async (item) => {
          const other = await loadEventResource(this.pool, { name: item.source_event, properties: { id: item.resource_id, ...(item.payload.properties ?? {}) } }, this.options.publicUrl);
          return other ? { name: other.name, title: renderMessage(rule, item.source_event, other).title, link: other.link } : { name: item.resource_id, title: item.resource_id, link: '' };
        }));
        message = groupMessage(own, [{ name: resource.name, title: own.title, link: resource.link }, ...others], this.options.publicUrl);
      } else message = own;
    } catch (error) {
      const text = errorMessage(error);
      await this.recordRuleError(rule, text);
      await finishAll({ status: 'error', error: text, duration_millis: Date.now() - started });
      return;
    }
    // Capabilities (docs/SECURITY.md): a rule sends through a stored connection only while its last author may use it.
    const refusal = await this.capabilityRefusal(row.notification_id);
    if (refusal) {
      await this.recordRuleError(rule, refusal);
      await finishAll({ status: 'error', error: refusal, duration_millis: Date.now() - started });
      return;
    }
    const recipient = row.payload.recipient;
    // The row's id is the send's idempotency key: the same on a retry and on the re-send after a crash.
    const outcome = recipient ? await this.sendTo(recipient, { title: message.title, text: message.body, html: markdownToHtml(message.body), sendId: row.id }, rule.namespace) : { ok: false, message: 'the row names no recipient', permanent: true };
    const duration = Date.now() - started;
    if (outcome.ok) {
      await this.finish(row.id, { status: 'sent', title: message.title, body: message.body, error: null, sent_at: new Date(), duration_millis: duration, reason: grouped.length > 0 ? `one message for ${grouped.length + 1} resources` : row.reason?.startsWith(RESENT) ? row.reason : null });
      for (const item of grouped) await this.finish(item.id, { status: 'grouped', parent_id: row.id, reason: `sent in one message with ${grouped.length} other resource(s)`, sent_at: new Date() });
      return;
    }
    const retries = row.retries + 1;
    const error = outcome.message.slice(0, 2_000);
    if (retries < MAX_ATTEMPTS && !outcome.permanent) {
      const wait = (this.options.retryBaseMillis ?? RETRY_BASE_MILLIS) * 2 ** (retries - 1);
      await finishAll({ retries, error, title: message.title, body: message.body, not_before: new Date(Date.now() + wait), reason: `attempt ${retries} of ${MAX_ATTEMPTS} failed; trying again in ${formatMillis(wait)}`, duration_millis: duration });
      return;
    }
    const fallback = rule.fallback && !row.parent_id ? rule.fallback : null;
    await finishAll({ status: 'error', retries, error, title: message.title, body: message.body, duration_millis: duration, reason: `${outcome.permanent ? 'cannot be sent' : `failed ${MAX_ATTEMPTS} times`}${fallback ? '; falling back' : ''}` });
    if (fallback) await this.startFallback(rule, row, fallback);
  }

  private async startFallback(rule: StoredRule, row: HistoryRow, fallback: NonNullable<StoredRule['fallback']>): Promise<void> {
    const recipients = await recipientsOf(this.pool, fallback);
    const notBefore = new Date(Date.now() + fallback.delayMillis);
    const rows = recipients.map((recipient) => ({
      notification_id: rule.id,
      event_id: row.event_id,
      source_event: row.source_event,
      resource_id: row.resource_id,
      resource_type: row.resource_type,
      recipient: recipient.label,
      recipient_key: recipient.key,
      person_id: recipient.person_id ?? null,
      team_id: recipient.team_id ?? null,
      connection_id: recipient.connection_id ?? null,
      parent_id: row.id,
      payload: JSON.stringify({ ...row.payload, recipient, waitFor: false }),
      status: recipient.kind === 'playbook' ? 'skipped' : 'attempting_fallback',
      reason: recipient.kind === 'playbook' ? `a playbook as fallback is not run here (playbook ${recipient.playbook}); name it in spec.to of a rule of its own` : `fallback after ${row.recipient} failed${fallback.delayMillis > 0 ? `, after ${formatMillis(fallback.delayMillis)}` : ''}`,
      not_before: notBefore,
      first_observed: row.first_observed,
    }));
    await this.insertRows(rows);
  }

  /** Why a rule may not send any more: its last author no longer holds what its spec uses (connection_use). */
  private async capabilityRefusal(notificationId: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ updated_by: string | null; spec: unknown; namespace: string }>('SELECT updated_by, spec, namespace FROM notifications WHERE id = $1', [notificationId]);
    const rule = rows[0];
    if (!rule?.updated_by) return undefined;
    return (await runRefusal(this.pool, rule.updated_by, capabilityUses(rule.spec), rule.namespace))?.message;
  }

  /** The connection a recipient's message goes through. */
  private async connectionFor(recipient: Recipient, namespace: string): Promise<ResolvedConnection | string> {
    const store = secretStore(this.pool);
    const service = recipient.service;
    if (recipient.kind === 'person' || recipient.kind === 'email') {
      const to = recipient.kind === 'email' ? recipient.email : recipient.email;
      if (!to) return `${recipient.label} has no email address`;
      return this.smtpConnection(to);
    }
    if (!service) return 'the recipient names no service';
    if (service.kind === 'connection' && service.connection) return resolveConnection(store, service.connection, namespace, 'to.connection');
    if (service.kind === 'url') {
      const parsed = parseShoutrrr(service.url ?? '');
      return parsed.ok ? parsed.connection : parsed.error;
    }
    if (service.kind === 'webhook' && service.webhook) {
      const hook = service.webhook;
      const base = service.connection ? await resolveConnection(store, service.connection, namespace, 'to.webhook.connection') : undefined;
      const value = async (envVar: unknown, where: string) => (envVar === undefined ? '' : typeof envVar === 'string' ? envVar : resolveEnvVar(store, namespace, envVar as { value?: unknown; valueFrom?: unknown }, where));
      const properties: Record<string, string> = { ...(base?.properties ?? {}), method: hook.method ?? 'POST' };
      for (const header of hook.headers ?? []) properties[`header.${header.name}`] = await value(header, `to.webhook.headers.${header.name}`);
      const bearer = await value(hook.bearer, 'to.webhook.bearer');
      if (bearer) properties['header.Authorization'] = `Bearer ${bearer}`;
      return {
        id: base?.id ?? '', name: base?.name ?? 'webhook', namespace, type: 'generic_webhook', url: hook.url ?? base?.url ?? '',
        username: (await value(hook.username, 'to.webhook.username')) || (base?.username ?? ''), password: (await value(hook.password, 'to.webhook.password')) || (base?.password ?? ''),
        certificate: '', insecureTLS: Boolean((hook.tls as { insecureSkipVerify?: boolean } | undefined)?.insecureSkipVerify) || (base?.insecureTLS ?? false), properties,
      };
    }
    return `cannot send to ${recipient.label}`;
  }

  /** Email to a person or address through the server's SMTP_URL. */
  private smtpConnection(to: string): ResolvedConnection | string {
    if (!this.options.smtpUrl) return `no SMTP server is configured (SMTP_URL), so the email to ${to} cannot go out`;
    const url = new URL(this.options.smtpUrl);
    const loopback = ['localhost', '127.0.0.1', '::1'].includes(url.hostname);
    return {
      id: '', name: 'SMTP_URL', namespace: 'default', type: 'email', url: '',
      username: decodeURIComponent(url.username), password: decodeURIComponent(url.password), certificate: '',
      insecureTLS: loopback || url.searchParams.get('insecure') === 'true',
      properties: {
        host: url.hostname,
        port: url.port || (url.protocol === 'smtps:' ? '465' : '587'),
        encryption: url.protocol === 'smtps:' ? 'ImplicitTLS' : 'Auto',
        from: this.options.smtpFrom ?? 'watchkeeper@localhost',
        to,
        ...(url.username ? {} : { auth: 'None' }),
      },
    };
  }

  /** `permanent`: nothing to retry (no SMTP server, a connection or secret that cannot be read): it fails now. */
  private async sendTo(recipient: Recipient, message: ChannelMessage, namespace: string): Promise<{ ok: boolean; message: string; permanent?: boolean }> {
    let connection: ResolvedConnection | string;
    try {
      connection = await this.connectionFor(recipient, namespace);
    } catch (error) {
      return { ok: false, message: errorMessage(error), permanent: true };
    }
    if (typeof connection === 'string') return { ok: false, message: connection, permanent: true };
    const properties = recipient.service?.properties;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('the channel did not answer within 30 s')), 30_000);
    try {
      const outcome = await sendThrough(connection, { ...message, ...(properties ? { properties } : {}) }, controller.signal);
      if (outcome.ok) return { ok: true, message: outcome.message };
      return { ok: false, message: [outcome.message, outcome.status ? `(HTTP ${outcome.status})` : '', outcome.excerpt ? `: ${outcome.excerpt}` : ''].filter(Boolean).join(' ') };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Milliseconds until the next row is due (for the sender's wait). */
  async millisUntilDue(): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ ms: number | null }>(
      `SELECT (extract(epoch FROM min(GREATEST(not_before, coalesce(claimed_until, not_before))) - now()) * 1000)::float8 AS ms
         FROM notification_send_history WHERE status IN ('pending', 'evaluating-waitfor', 'attempting_fallback')`,
    );
    const ms = rows[0]?.ms;
    return ms === null || ms === undefined ? undefined : ms;
  }
}

/** The values a groupBy key reads from a resource (Mission Control's keys). */
function groupValue(key: string, resource: EventResource): string {
  if (key.startsWith('label:')) return resource.labels[key.slice(6)] ?? '';
  if (key.startsWith('tag:')) return resource.tags[key.slice(4)] ?? '';
  if (key === 'source_event') return '';
  if (key === 'check_id') return resource.kind === 'check' ? resource.id : '';
  if (key === 'canary_id') return resource.canaryId ?? '';
  const value = (resource as unknown as Record<string, unknown>)[key] ?? resource.env[key];
  return value === null || value === undefined ? '' : String(value);
}

export function groupHashOf(rule: StoredRule, eventName: string, resource: EventResource): string {
  return `${rule.id}:${eventName}:${rule.groupBy.map((key) => `${key}=${groupValue(key, resource)}`).join('|')}`;
}

export function formatMillis(millis: number): string {
  if (millis % 3_600_000 === 0) return `${millis / 3_600_000}h`;
  if (millis % 60_000 === 0) return `${millis / 60_000}m`;
  if (millis % 1000 === 0) return `${millis / 1000}s`;
  return `${millis}ms`;
}

/**
 * Configs (by relationships and parents) or components (by the tree) within `depth` steps of a resource:
 * `outgoing` walks toward what leads to it (its parents: a Deployment reaches its Pods), `incoming` toward
 * what it leads to, `all` both ways.
 */
async function relatedResources(db: Queryable, resource: EventResource, direction: 'outgoing' | 'incoming' | 'all', depth: number): Promise<Array<{ id: string; name: string; type: string | null }>> {
  const up = direction !== 'incoming';
  const down = direction !== 'outgoing';
  const seen = new Set<string>([resource.id]);
  let frontier = [resource.id];
  for (let step = 0; step < Math.min(depth, 10) && frontier.length > 0; step += 1) {
    const parts: string[] = [];
    if (resource.kind === 'config') {
      if (up) parts.push('SELECT config_id AS id FROM config_relationships WHERE related_id = ANY($1::uuid[])', 'SELECT parent_id FROM config_items WHERE id = ANY($1::uuid[]) AND parent_id IS NOT NULL');
      if (down) parts.push('SELECT related_id FROM config_relationships WHERE config_id = ANY($1::uuid[])', 'SELECT id FROM config_items WHERE parent_id = ANY($1::uuid[])');
    } else {
      if (up) parts.push('SELECT parent_id AS id FROM components WHERE id = ANY($1::uuid[]) AND parent_id IS NOT NULL');
      if (down) parts.push('SELECT id FROM components WHERE parent_id = ANY($1::uuid[])');
    }
    const { rows } = await db.query<{ id: string }>(parts.join(' UNION '), [frontier]);
    frontier = rows.map((row) => row.id).filter((id) => !seen.has(id));
    for (const id of frontier) seen.add(id);
  }
  seen.delete(resource.id);
  if (seen.size === 0) return [];
  const table = resource.kind === 'config' ? 'config_items' : 'components';
  const { rows } = await db.query<{ id: string; name: string; type: string | null }>(`SELECT id, name, type FROM ${table} WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`, [[...seen]]);
  return rows;
}
