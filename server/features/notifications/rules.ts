import type pg from 'pg';
import { channelTypes } from '../../platform/channels';
import { parseShoutrrr } from '../../platform/channels/shoutrrr';
import type { Queryable } from '../../platform/jobs/db';
import { specResourceKind, type SavedSpecResource } from '../../platform/resources';
import { parseConnectionReference } from '../../platform/secrets/resolve';
import { assertSavable, SpecInvalid, type SpecRowInput } from '../../platform/spec-rows';
import { MILLIS_TO_NANOS, notificationProblems, notificationSpecSchema, notificationWarnings, ruleEvents, splitUnknown, type FallbackSpec, type RecipientSpec } from './spec';

/** A recipient other than a person or team, as stored in custom_services (and read by the sender). */
export interface CustomService {
  kind: 'connection' | 'url' | 'email' | 'webhook';
  /** The connection's id and type (kind connection, or a webhook through a connection). */
  connection_id?: string;
  connection?: string;
  connection_type?: string;
  url?: string;
  email?: string;
  webhook?: NonNullable<RecipientSpec['webhook']>;
  properties?: Record<string, string>;
}

export interface ResolvedRecipient {
  person_id: string | null;
  team_id: string | null;
  playbook: string | null;
  custom_services: CustomService[] | null;
}

type Problem = { path: string; message: string };

/** A person, team or connection a rule names that does not exist yet (migration 0041 `waiting_for`): resolved when it is created. */
export interface WaitingReference {
  path: string;
  kind: 'person' | 'team' | 'connection';
  ref: string;
}

/** What a rule's recipients lack: references waited for, each also a warning naming it. */
export interface Waits {
  waiting: WaitingReference[];
  warnings: string[];
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@,]+@[^\s@,]+$/;

/**
 * A connection named by `connection://ns/name`, `ns/name` or its name (in the rule's namespace), that can carry
 * a message; one that does not exist yet is waited for (`id` and `type` then unset).
 */
async function lookupConnection(db: Queryable, reference: string, namespace: string, path: string, problems: Problem[], waits: Waits): Promise<{ id?: string; type?: string; reference: string } | undefined> {
  const target = parseConnectionReference(reference.includes('://') ? reference : `connection://${reference}`, namespace);
  if (!target) {
    problems.push({ path, message: `${JSON.stringify(reference)} is not a connection reference (connection://<namespace>/<name>)` });
    return undefined;
  }
  const { rows } = await db.query<{ id: string; type: string }>('SELECT id, type FROM connections WHERE namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL', [target.namespace, target.name]);
  const row = rows[0];
  if (!row) {
    const ref = `${target.namespace}/${target.name}`;
    waits.waiting.push({ path, kind: 'connection', ref });
    waits.warnings.push(`${path}: connection ${JSON.stringify(ref)} does not exist yet; saved as waiting for it: nothing goes through it until it is created (a send meanwhile fails, saying so)`);
    return { reference: `connection://${ref}` };
  }
  if (!channelTypes().includes(row.type)) {
    problems.push({ path, message: `connection ${target.namespace}/${target.name} is of type ${row.type}, which cannot carry a notification (one of ${channelTypes().join(', ')})` });
    return undefined;
  }
  return { ...row, reference: `connection://${target.namespace}/${target.name}` };
}

/** The person or team a recipient names (by id, email or name); one that does not exist yet is waited for. */
async function lookupOne(db: Queryable, table: 'people' | 'teams', value: string, path: string, problems: Problem[], waits: Waits): Promise<string | null> {
  const byId = UUID.test(value);
  const sql =
    table === 'people'
      ? `SELECT id FROM people WHERE deleted_at IS NULL AND ${byId ? 'id = $1::uuid' : '(lower(email) = lower($1) OR lower(name) = lower($1))'} LIMIT 2`
      : `SELECT id FROM teams WHERE deleted_at IS NULL AND ${byId ? 'id = $1::uuid' : 'lower(name) = lower($1)'} LIMIT 2`;
  const { rows } = await db.query<{ id: string }>(sql, [value]);
  const noun = table === 'people' ? 'person' : 'team';
  if (rows.length === 0) {
    waits.waiting.push({ path, kind: noun, ref: value });
    waits.warnings.push(`${path}: no ${noun} ${JSON.stringify(value)} yet; saved as waiting for ${table === 'people' ? 'them' : 'it'}: nothing is sent to ${table === 'people' ? 'them' : 'it'} until the ${noun} exists`);
  } else if (rows.length > 1) problems.push({ path, message: `more than one person is called ${JSON.stringify(value)}: name them by email` });
  return rows.length === 1 ? (rows[0]?.id ?? null) : null;
}

/** Looks up what a `to` (or `fallback`) names; problems are pushed with their paths. */
export async function resolveRecipient(db: Queryable, to: RecipientSpec | FallbackSpec, namespace: string, path: string, problems: Problem[], waits: Waits = { waiting: [], warnings: [] }): Promise<ResolvedRecipient> {
  const out: ResolvedRecipient = { person_id: null, team_id: null, playbook: null, custom_services: null };
  const properties = to.properties && Object.keys(to.properties).length > 0 ? { properties: to.properties } : {};
  if (to.person) out.person_id = await lookupOne(db, 'people', to.person, `${path}.person`, problems, waits);
  if (to.team) out.team_id = await lookupOne(db, 'teams', to.team, `${path}.team`, problems, waits);
  if (to.playbook) out.playbook = to.playbook;
  if (to.email) {
    const addresses = to.email.split(',').map((address) => address.trim()).filter(Boolean);
    const bad = addresses.filter((address) => !EMAIL.test(address));
    if (bad.length > 0 || addresses.length === 0) problems.push({ path: `${path}.email`, message: `${JSON.stringify(bad[0] ?? to.email)} is not an email address` });
    out.custom_services = [{ kind: 'email', email: addresses.join(', '), ...properties }];
  }
  if (to.connection) {
    const found = await lookupConnection(db, to.connection, namespace, `${path}.connection`, problems, waits);
    if (found) out.custom_services = [{ kind: 'connection', ...(found.id ? { connection_id: found.id, connection_type: found.type } : {}), connection: found.reference, ...properties }];
  }
  if (to.url) {
    const parsed = parseShoutrrr(to.url);
    if (parsed.ok) out.custom_services = [{ kind: 'url', url: to.url, connection_type: parsed.connection.type, ...properties }];
    else problems.push({ path: `${path}.url`, message: parsed.error });
  }
  if (to.webhook) {
    let service: CustomService = { kind: 'webhook', webhook: to.webhook, ...properties };
    if (to.webhook.connection) {
      const found = await lookupConnection(db, to.webhook.connection, namespace, `${path}.webhook.connection`, problems, waits);
      if (found) service = { ...service, ...(found.id ? { connection_id: found.id, connection_type: found.type } : {}), connection: found.reference };
    } else if (to.webhook.url) {
      try {
        new URL(to.webhook.url);
      } catch {
        problems.push({ path: `${path}.webhook.url`, message: `${JSON.stringify(to.webhook.url)} is not a URL` });
      }
    }
    out.custom_services = [service];
  }
  return out;
}

/** What a rule is saved from: the spec-row shape (name, namespace, labels, spec, source, created by). */
export type NotificationInput = SpecRowInput;

/** Every problem of a spec that can be found without the database (apply's first pass). */
export function specOnlyProblems(spec: Record<string, unknown>): Problem[] {
  return notificationProblems(splitUnknown(spec).spec);
}

/**
 * Creates or updates a rule (by id from the console, else by namespace and name): the spec checked whole,
 * its recipients looked up, then the row written with the columns the engine reads.
 */
export async function saveNotification(client: pg.PoolClient, input: NotificationInput, options: { id?: string; createOnly?: boolean } = {}): Promise<SavedSpecResource> {
  const { spec: known, warnings } = splitUnknown(input.spec);
  const problems = notificationProblems(known);
  if (problems.length > 0) throw new SpecInvalid(problems);
  const spec = notificationSpecSchema.parse(known);
  warnings.push(...notificationWarnings(spec));
  const waits: Waits = { waiting: [], warnings: [] };
  const to = await resolveRecipient(client, spec.to, input.namespace, 'spec.to', problems, waits);
  const fallback = spec.fallback ? await resolveRecipient(client, spec.fallback, input.namespace, 'spec.fallback', problems, waits) : undefined;
  if (problems.length > 0) throw new SpecInvalid(problems);
  warnings.push(...waits.warnings);

  const found = options.id
    ? await client.query<{ id: string; source: string }>('SELECT id, source FROM notifications WHERE id = $1 AND deleted_at IS NULL FOR UPDATE', [options.id])
    : await client.query<{ id: string; source: string }>('SELECT id, source FROM notifications WHERE namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL FOR UPDATE', [input.namespace, input.name]);
  const existing = found.rows[0];
  assertSavable(existing, { noun: 'notification', name: input.name, namespace: input.namespace, source: input.source, id: options.id, createOnly: options.createOnly });

  const nanos = (millis: number | undefined) => (millis === undefined ? null : Math.round(millis * MILLIS_TO_NANOS));
  const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
  const repeat = spec.repeatInterval === undefined ? null : `${Math.round(spec.repeatInterval / 1000)}s`;
  const columns: Record<string, unknown> = {
    name: input.name,
    namespace: input.namespace,
    labels: JSON.stringify(input.labels),
    spec: JSON.stringify(input.spec),
    events: ruleEvents(spec),
    title: spec.title ?? null,
    template: spec.template ?? null,
    filter: spec.filter?.trim() || null,
    properties: json(spec.to.properties),
    person_id: to.person_id,
    team_id: to.team_id,
    custom_services: json(to.custom_services),
    fallback_person_id: fallback?.person_id ?? null,
    fallback_team_id: fallback?.team_id ?? null,
    fallback_custom_services: json(fallback?.custom_services),
    fallback_delay: nanos(spec.fallback?.delay),
    repeat_interval: repeat,
    group_by: spec.groupBy ?? spec.repeatGroup ?? null,
    group_by_interval: nanos(spec.groupByInterval),
    wait_for: nanos(spec.waitFor),
    wait_for_eval_period: nanos(spec.waitForEvalPeriod),
    inhibitions: json(spec.inhibitions),
    waiting_for: waits.waiting.length > 0 ? JSON.stringify(waits.waiting) : null,
    source: input.source,
    updated_by: input.createdBy || null,
    error: null,
    error_at: null,
  };
  const names = Object.keys(columns);
  const values = Object.values(columns);
  if (existing) {
    await client.query(`UPDATE notifications SET ${names.map((name, index) => `${name} = $${index + 2}`).join(', ')} WHERE id = $1`, [existing.id, ...values]);
    return { id: existing.id, action: 'updated', warnings };
  }
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO notifications (${names.join(', ')}, created_by) VALUES (${names.map((_, index) => `$${index + 1}`).join(', ')}, $${names.length + 1}) RETURNING id`,
    [...values, input.createdBy || null],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error('notification insert returned no row');
  return { id, action: 'created', warnings };
}

/** `kind: Notification` (mission-control.flanksource.com/v1): `watchkeeper apply -f`, the watched folder and the API. */
export const notificationKind = specResourceKind({
  kind: 'Notification',
  apiVersions: ['mission-control.flanksource.com/v1'],
  problems: specOnlyProblems,
  save: (client, input) => saveNotification(client, input),
});
