import { capabilityUses, runRefusal } from '../../platform/auth/capabilities';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { currentOrganization, inOrganizationOf } from '../../platform/db/tenant';
import { errorMessage, inTransaction } from '../../platform/jobs/db';
import type { QueuedEvent } from '../../platform/jobs/event-queue';
import type { Logger } from '../../platform/logger';
import { secretStore } from '../../platform/secrets';
import { evaluateCel } from '../../platform/expressions';
import { createRun } from '../playbooks';
import { loadEventResource, stillFailing, type EventResource } from './resource';
import { recipientsOf } from './recipients';
import { loadActiveSilences, SilenceIndex } from './silences';
import { groupMessage, markdownToHtml, renderMessage } from './templates';
import { formatMillis, loadRule, RULE_COLUMNS, toRule, waitingReason, type RuleRow, type StoredRule } from './stored-rule';
import { claimDue, claimGroup, dueGroupHashes, finishRow, RESENT, type HistoryRow } from './send-claims';
import { findInhibitor, groupHashOf } from './related';
import { sendTo } from './outbound';

// The engine decides and delivers; the rule as stored (stored-rule.ts), the claims on send rows
// (send-claims.ts), related resources and groups (related.ts) and the channels (outbound.ts) are their own.
export { formatMillis, toRule, type StoredRule } from './stored-rule';
export { groupHashOf } from './related';

/** Sends are tried this many times (with backoff) before the row is an error and the fallback takes over. */
export const MAX_ATTEMPTS = 4;
const RETRY_BASE_MILLIS = 1_000;
/** A groupBy rule's first event waits this long (or waitFor) for others to join its message. */
export const GROUP_WAIT_MILLIS = 10_000;
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
      await this.recordRuleError(rule, waitingReason(rule, 'to') ?? 'the rule has no recipient left (the person, team or connection it names was deleted, or the team has no members)');
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
    return findInhibitor(this.pool, rule, resource);
  }

  // ── Sending ───────────────────────────────────────────────────────────────────────────────────────

  /** Delivers what is due now (one batch); the number of rows finished. */
  async sendDue(limit = 20, signal: AbortSignal = new AbortController().signal): Promise<number> {
    let done = 0;
    const rows = await claimDue(this.pool, this.instanceId, limit);
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
    const hashes = await dueGroupHashes(this.pool);
    let done = 0;
    for (const hash of hashes) {
      if (signal.aborted) break;
      const members = await claimGroup(this.pool, this.instanceId, hash);
      if (members.length === 0) continue;
      const [primary, ...rest] = members;
      if (!primary) continue;
      await inOrganizationOf(primary.organization_id, () => this.deliver(primary, rest)).catch((error) => this.log.warn({ err: errorMessage(error), history: primary.id }, 'could not deliver a grouped notification'));
      done += members.length;
    }
    return done;
  }

  private async finish(id: string, values: Record<string, unknown>): Promise<void> {
    await finishRow(this.pool, this.instanceId, id, values);
  }

  /** Sends one row (with the rows grouped into its message) and records the outcome on each. */
  private async deliver(row: HistoryRow, grouped: HistoryRow[]): Promise<void> {
    const started = Date.now();
    const rule = await loadRule(this.pool, row.notification_id);
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
    const outcome = recipient ? await sendTo(this.pool, this.options, recipient, { title: message.title, text: message.body, html: markdownToHtml(message.body), sendId: row.id }, rule.namespace) : { ok: false, message: 'the row names no recipient', permanent: true };
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
    const waiting = recipients.length === 0 ? waitingReason(rule, 'fallback') : undefined;
    if (waiting) await this.recordRuleError(rule, `fallback ${waiting}`);
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
