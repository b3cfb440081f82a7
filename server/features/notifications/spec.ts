import { z } from 'zod';
import { expandEvent, isKnownEvent } from '../../../common/events';
import { celProblems, ExpressionError } from '../../platform/expressions';
import { compileTemplate, NOTIFICATION_FUNCTIONS } from '../../platform/expressions/template';
import { parseDuration } from '../../platform/units';
import { isOneOf } from '../../../common/guards';

/**
 * The `Notification` spec (mission-control.flanksource.com/v1, docs/NOTIFICATIONS.md): what is checked
 * before a rule is saved, every problem named by its path from the document.
 */

const text = z.string().trim().min(1, 'must not be empty');

/** Go durations (`5m`, `1h30m`), as Mission Control writes them; the value in milliseconds. */
const duration = z.string({ message: 'must be a duration such as 5m or 1h30m' }).transform((value, ctx) => {
  const millis = parseDuration(value);
  if (millis === undefined || millis < 0) {
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} is not a duration such as 5m or 1h30m` });
    return z.NEVER;
  }
  return millis;
});

/** An EnvVar as Mission Control writes one: a value or a valueFrom reference (resolved when sending). */
const envVar = z.union([z.string(), z.object({ name: z.string().optional(), value: z.string().optional(), valueFrom: z.record(z.string(), z.unknown()).optional() }).strict()]);

const webhookSchema = z
  .object({
    connection: text.optional(),
    url: text.optional(),
    method: z.string().trim().toUpperCase().pipe(z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], { message: 'must be GET, POST, PUT, PATCH or DELETE' })).optional(),
    username: envVar.optional(),
    password: envVar.optional(),
    bearer: envVar.optional(),
    headers: z.array(z.object({ name: text, value: z.string().optional(), valueFrom: z.record(z.string(), z.unknown()).optional() }).strict()).optional(),
    ntlm: z.boolean().optional(),
    ntlmv2: z.boolean().optional(),
    digest: z.boolean().optional(),
    oauth: z.record(z.string(), z.unknown()).optional(),
    tls: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .refine((hook) => hook.url || hook.connection, { message: 'needs a url or a connection' });

const recipientFields = {
  person: text.optional(),
  team: text.optional(),
  email: text.optional(),
  connection: text.optional(),
  url: text.optional(),
  playbook: text.optional(),
  webhook: webhookSchema.optional(),
  properties: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
};
const RECIPIENT_KEYS = ['person', 'team', 'email', 'connection', 'url', 'playbook', 'webhook'] as const;
const oneRecipient = (value: Record<string, unknown>) => RECIPIENT_KEYS.filter((key) => value[key] !== undefined).length === 1;
const RECIPIENT_MESSAGE = `needs exactly one of ${RECIPIENT_KEYS.join(', ')}`;

const recipientSchema = z.object(recipientFields).strict().refine(oneRecipient, { message: RECIPIENT_MESSAGE });
const fallbackSchema = z.object({ ...recipientFields, delay: duration.optional() }).strict().refine(oneRecipient, { message: RECIPIENT_MESSAGE });

const DIRECTIONS = ['outgoing', 'incoming', 'all'] as const;
const inhibitionSchema = z
  .object({
    direction: z.enum(DIRECTIONS, { message: `must be one of ${DIRECTIONS.join(', ')}` }),
    soft: z.boolean().optional(),
    depth: z.number().int().min(1, 'must be 1 or more').max(10, 'must be 10 or less').optional(),
    from: text,
    to: z.array(text).min(1, 'must name at least one type'),
  })
  .strict();

export const notificationSpecSchema = z
  .object({
    events: z.array(text, { message: 'must be a list of event names' }).min(1, 'must name at least one event'),
    title: z.string().max(1_000).optional(),
    template: z.string().max(100_000).optional(),
    filter: z.string().max(10_000).optional(),
    repeatInterval: duration.optional(),
    groupBy: z.array(text).max(20).optional(),
    groupByInterval: duration.optional(),
    to: recipientSchema,
    fallback: fallbackSchema.optional(),
    waitFor: duration.optional(),
    waitForEvalPeriod: duration.optional(),
    inhibitions: z.array(inhibitionSchema).max(50).optional(),
    // Older Mission Control files: the repeat interval's group (what groupBy does now).
    repeatGroup: z.array(text).optional(),
  })
  .strict();

export type NotificationSpec = z.infer<typeof notificationSpecSchema>;
export type RecipientSpec = z.infer<typeof recipientSchema>;
export type FallbackSpec = z.infer<typeof fallbackSchema>;

/**
 * Events Mission Control names that nothing here produces (no cancelled incident status, no degraded
 * config health): a rule naming them applies, with a warning, and they never fire.
 */
const UNPUBLISHED_EVENTS = ['incident.status.cancelled', 'config.degraded', 'component.degraded'];

/**
 * Mission Control's event-queue events that are not notification events there either (api/event.go: its
 * notifications handle only the check, config, component and incident events): a rule naming one applies,
 * with a warning, and it never fires, as there.
 */
const QUEUE_EVENTS = [
  'playbook.run',
  'playbook.spec.approval.updated',
  'playbook.approval.inserted',
  'notification.send',
  'incident.responder.jira.added',
  'incident.comment.jira.added',
  'incident.responder.msplanner.added',
  'incident.comment.msplanner.added',
];

/**
 * Mission Control's other names for events published here, read as ours with a warning: the component
 * status events it had before component health (`component.status.<status>`, May 2024; error is unhealthy
 * and info unknown, as incident rules read those statuses) and `incident.dod.added`.
 */
const EVENT_ALIASES: Readonly<Record<string, string>> = {
  'component.status.healthy': 'component.healthy',
  'component.status.unhealthy': 'component.unhealthy',
  'component.status.warning': 'component.warning',
  'component.status.error': 'component.unhealthy',
  'component.status.info': 'component.unknown',
  'incident.dod.added': 'incident.dod.evidence.added',
};

/** The events an older name stands for (`component.status.*`: each of its statuses' events). */
function aliasOf(event: string): string[] {
  if (Object.hasOwn(EVENT_ALIASES, event)) return [EVENT_ALIASES[event] as string];
  if (event === 'component.status.*') return [...new Set(Object.entries(EVENT_ALIASES).filter(([name]) => name.startsWith('component.status.')).map(([, ours]) => ours))];
  return [];
}

/** Mission Control's groupBy keys: these fields of the resource, or `label:<key>` / `tag:<key>`. */
const GROUP_BY_FIELDS = ['type', 'description', 'status_reason', 'name', 'namespace', 'status', 'health', 'source_event', 'check_id', 'canary_id'];

/**
 * A title or body that does not parse (a function Mission Control does not define either, `'…'` quoting
 * text): Mission Control accepts the rule and fails when it renders a message; so does this console, with a
 * warning at apply naming the field and the problem. Each send then records the error (status error).
 */
function templateWarning(path: string, template: string): string[] {
  try {
    compileTemplate(path, template, NOTIFICATION_FUNCTIONS);
    return [];
  } catch (error) {
    if (error instanceof ExpressionError) return [`${error.message} — the rule applies, and each message it renders fails with this error (as in Mission Control)`];
    throw error;
  }
}

/**
 * Every problem of a Notification spec (refused with these paths): the shape, unknown events, a CEL filter
 * that does not parse, groupBy keys that mean nothing. Recipients are looked up when saving; a title or
 * template that does not parse is a warning (notificationWarnings).
 */
export function notificationProblems(spec: Record<string, unknown>): Array<{ path: string; message: string }> {
  const parsed = notificationSpecSchema.safeParse(spec);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) => {
      const path = ['spec', ...issue.path.map(String)].join('.');
      // An unknown key of the spec is a warning (see notificationWarnings), not a refusal.
      return { path, message: issue.message };
    }).filter((problem) => !problem.message.startsWith('Unrecognized key'));
  }
  const problems: Array<{ path: string; message: string }> = [];
  parsed.data.events.forEach((event, index) => {
    if (!isKnownEvent(event) && !UNPUBLISHED_EVENTS.includes(event) && !QUEUE_EVENTS.includes(event) && aliasOf(event).length === 0) problems.push({ path: `spec.events.${index}`, message: `unknown event ${JSON.stringify(event)}: one of check.failed, config.unhealthy, incident.created, incident.status.* … (docs/NOTIFICATIONS.md lists them)` });
  });
  if (parsed.data.filter?.trim()) problems.push(...celProblems('spec.filter', parsed.data.filter));
  (parsed.data.groupBy ?? []).forEach((key, index) => {
    if (!GROUP_BY_FIELDS.includes(key) && !/^(label|tag):.+/.test(key)) {
      problems.push({ path: `spec.groupBy.${index}`, message: `${JSON.stringify(key)} is not a field to group by: one of ${GROUP_BY_FIELDS.join(', ')}, label:<key> or tag:<key>` });
    }
  });
  return problems;
}

/**
 * The spec with unknown keys left out (so the strict schema reads it) and a warning naming each: a file
 * written for a newer Mission Control still applies.
 */
export function splitUnknown(spec: Record<string, unknown>): { spec: Record<string, unknown>; warnings: string[] } {
  const known = new Set(Object.keys(notificationSpecSchema.shape));
  const warnings: string[] = [];
  const kept: Record<string, unknown> = {};
  const recipients: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(spec)) {
    if (known.has(key)) kept[key] = value;
    else if (key === 'body' && spec.template === undefined) {
      kept.template = value;
      warnings.push('spec.body is the older name of spec.template: read as the template');
    } else if (isOneOf(RECIPIENT_KEYS, key) || key === 'properties') recipients[key] = value;
    else warnings.push(`spec.${key} is not read by this console and was ignored`);
  }
  // Older files name the recipient beside events (spec.email) instead of under spec.to.
  if (Object.keys(recipients).length > 0) {
    if (kept.to === undefined) {
      kept.to = recipients;
      warnings.push(`spec.${Object.keys(recipients).join(', spec.')}: read as spec.to (the recipient belongs under spec.to)`);
    } else warnings.push(`spec.${Object.keys(recipients).join(', spec.')}: ignored beside spec.to`);
  }
  return { spec: kept, warnings };
}

/** Warnings for what is read but not run. */
export function notificationWarnings(spec: NotificationSpec): string[] {
  const warnings: string[] = [];
  spec.events.forEach((event, index) => {
    const ours = aliasOf(event);
    if (ours.length > 0) warnings.push(`spec.events.${index}: ${event} is Mission Control's older name; read as ${ours.join(', ')}`);
  });
  if (spec.title) warnings.push(...templateWarning('spec.title', spec.title));
  if (spec.template) warnings.push(...templateWarning('spec.template', spec.template));
  const never = spec.events.filter((event) => UNPUBLISHED_EVENTS.includes(event));
  if (never.length > 0) warnings.push(`spec.events: ${never.join(', ')} never happen here (no such incident status or health), so they send nothing`);
  const queue = spec.events.filter((event) => QUEUE_EVENTS.includes(event));
  if (queue.length > 0) warnings.push(`spec.events: ${queue.join(', ')} ${queue.length > 1 ? 'are' : 'is'} Mission Control's own queue ${queue.length > 1 ? 'events' : 'event'}, which no notification receives there or here, so ${queue.length > 1 ? 'they send' : 'it sends'} nothing`);
  spec.inhibitions?.forEach((inhibition, index) => {
    if (inhibition.soft !== undefined) warnings.push(`spec.inhibitions[${index}].soft is not run: every inhibition here is hard`);
  });
  const unpublished = spec.events.filter((event) => {
    const names = expandEvent(event);
    return names.length > 0 && names.every((name) => name === 'playbook.spec.approval.requested');
  });
  if (unpublished.length > 0) warnings.push(`spec.events: ${unpublished.join(', ')} is not published here (playbook specs are not approved before they apply), so it sends nothing`);
  if (spec.fallback?.playbook) warnings.push('spec.fallback.playbook: a playbook as fallback is not run here; each fallback is recorded as skipped (name the playbook in spec.to of a rule of its own)');
  if (spec.repeatGroup) warnings.push('spec.repeatGroup is the older name of groupBy: read as groupBy');
  for (const [index, hook] of [spec.to.webhook, spec.fallback?.webhook].entries()) {
    if (hook && (hook.ntlm || hook.ntlmv2 || hook.digest || hook.oauth)) warnings.push(`spec.${index === 0 ? 'to' : 'fallback'}.webhook: NTLM, digest and OAuth are not supported; the request goes without them`);
  }
  return warnings;
}

/** The event names a rule handles, `family.*` expanded. */
export function ruleEvents(spec: NotificationSpec): string[] {
  const names = (event: string) => (aliasOf(event).length > 0 ? aliasOf(event) : expandEvent(event).length > 0 ? expandEvent(event) : [event]);
  return [...new Set(spec.events.flatMap(names))].sort();
}

export const MILLIS_TO_NANOS = 1_000_000;
