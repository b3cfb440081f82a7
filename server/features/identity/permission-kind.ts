import type pg from 'pg';
import { z } from 'zod';
import { isRole } from '../../../common/rbac';
import type { ResourceKind } from '../../platform/resources';
import { actionsOf, isUuid, objectColumns, permissionSpecSchema, SUBJECT_KEYS, type PermissionSpec } from './permission-spec';
import { isOneOf } from '../../../common/guards';

export const metadataSchema = z.object({
  name: z.string({ message: 'is required' }).trim().min(1, 'is required').max(255),
  namespace: z.string().trim().min(1).max(255).optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
});

const permissionDocument = z.object({
  apiVersion: z.string(),
  kind: z.literal('Permission'),
  metadata: metadataSchema,
  spec: permissionSpecSchema,
});
type PermissionDocument = z.infer<typeof permissionDocument>;

interface SubjectColumns {
  subject_type: string;
  subject: string;
  person_id: string | null;
  team_id: string | null;
  /** Why the row grants nothing (a subject this console does not know), shown with it. */
  error?: string;
}

/** A reference a resource names that does not exist yet (migration 0041 `waiting_for`), resolved when it appears. */
export interface WaitingReference {
  path: string;
  kind: 'person' | 'team' | 'scope';
  ref: string;
}

/** A person by id, email or name (as Mission Control finds a permission's subject). */
async function personId(client: pg.PoolClient, ref: string): Promise<string | undefined> {
  const { rows } = await client.query<{ id: string }>(
    'SELECT id FROM people WHERE deleted_at IS NULL AND (id::text = lower($1) OR lower(email) = lower($1) OR lower(name) = lower($1)) ORDER BY lower(email) = lower($1) DESC LIMIT 1',
    [ref],
  );
  return rows[0]?.id;
}

async function teamId(client: pg.PoolClient, ref: string): Promise<string | undefined> {
  const { rows } = await client.query<{ id: string }>('SELECT id FROM teams WHERE deleted_at IS NULL AND (id::text = lower($1) OR lower(name) = lower($1)) LIMIT 1', [ref]);
  return rows[0]?.id;
}

const isSubjectKey = (key: string): key is (typeof SUBJECT_KEYS)[number] => isOneOf(SUBJECT_KEYS, key);

/**
 * The permission's subject. Mission Control uses the first one given (person, team, notification, group,
 * playbook, plugin, …); the others are reported, and so are keys that are not Mission Control's. A person or
 * team that does not exist yet is waited for: the row keeps the reference and grants nothing until it exists.
 */
async function subjectOf(client: pg.PoolClient, subject: PermissionSpec['subject'], warnings: string[], waiting: WaitingReference[]): Promise<SubjectColumns> {
  for (const [key, value] of Object.entries(subject)) {
    if (!isSubjectKey(key) && value !== undefined) {
      warnings.push(`spec.subject.${key}: not a subject of Mission Control's Permission (one of ${SUBJECT_KEYS.join(', ')}); ignored`);
    }
  }
  const given = SUBJECT_KEYS.filter((key) => subject[key] !== undefined);
  const [key] = given;
  const value = key ? subject[key] : undefined;
  const none = { person_id: null, team_id: null };
  if (!key || typeof value !== 'string') {
    // Only keys that are not Mission Control's: kept as written and shown, it is no one's.
    const written = Object.entries(subject).map(([name, item]) => `${name}: ${typeof item === 'string' ? item : JSON.stringify(item)}`).join(', ');
    const error = 'spec.subject: names no subject this console knows; saved, this permission grants nothing';
    warnings.push(error);
    return { subject_type: 'none', subject: written || '(none)', ...none, error };
  }
  for (const extra of given.slice(1)) warnings.push(`spec.subject.${extra}: a permission has one subject; ${key} is used, ${extra} is ignored`);
  switch (key) {
    case 'person': {
      const id = await personId(client, value);
      if (id) return { subject_type: 'person', subject: id, person_id: id, team_id: null };
      warnings.push(`spec.subject.person: no person "${value}" in this console yet (by id, email or name); saved as waiting for them: it grants nothing until the account exists, then applies without re-applying`);
      waiting.push({ path: 'spec.subject.person', kind: 'person', ref: value });
      return { subject_type: 'person', subject: value, ...none };
    }
    case 'team': {
      const id = await teamId(client, value);
      if (id) return { subject_type: 'team', subject: id, person_id: null, team_id: id };
      warnings.push(`spec.subject.team: no team "${value}" in this console yet; saved as waiting for it: it grants nothing until the team exists, then applies without re-applying`);
      waiting.push({ path: 'spec.subject.team', kind: 'team', ref: value });
      return { subject_type: 'team', subject: value, ...none };
    }
    case 'plugin':
      // Mission Control's plugin subject is <namespace>/<name> or /<name>.
      if (!/^[^/\s]*\/[^/\s]+$/.test(value.trim())) throw new Error(`spec.subject.plugin: "${value}" is not a plugin subject: <namespace>/<name> or /<name>`);
      warnings.push('spec.subject.plugin: plugins are not run here (kind Plugin); kept, it acts for nobody');
      return { subject_type: 'plugin', subject: value.trim(), ...none };
    case 'playbook':
      warnings.push("spec.subject.playbook: a playbook's own permissions are not evaluated here: its runs act with their author's permissions and capabilities (docs/SECURITY.md); kept, it grants nothing");
      return { subject_type: 'playbook', subject: value, ...none };
    case 'group':
      return { subject_type: 'group', subject: value, ...none };
    case 'notification':
      // A bare name is a permission group of notifications (Mission Control reads it so).
      if (!value.includes('/') && !isUuid(value)) return { subject_type: 'group', subject: value, ...none };
      warnings.push('spec.subject.notification: notifications are not part of this console yet; kept, it acts for nobody');
      return { subject_type: 'notification', subject: value, ...none };
    default:
      warnings.push(`spec.subject.${key}: a ${key} never makes a request in this console; kept, it acts for nobody`);
      return { subject_type: key, subject: value, ...none };
  }
}

/** Scopes the object names that do not exist yet: waited for (the row allows nothing through them until then). */
async function scopeWaits(client: pg.PoolClient, spec: PermissionSpec, namespace: string, warnings: string[], waiting: WaitingReference[]): Promise<void> {
  for (const [index, ref] of (spec.object.scopes ?? []).entries()) {
    const byId = ref.id !== undefined && ref.name === undefined;
    const key = byId ? (ref.id ?? '') : `${ref.namespace ?? namespace}/${ref.name ?? ''}`;
    if (!byId && !ref.name) throw new Error(`spec.object.scopes[${index}]: name a scope by name (and namespace) or id`);
    const { rowCount } = byId
      ? await client.query('SELECT 1 FROM scopes WHERE id::text = lower($1) AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL', [key])
      : await client.query('SELECT 1 FROM scopes WHERE namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL', [
          ref.namespace ?? namespace,
          ref.name,
        ]);
    if (rowCount) continue;
    warnings.push(`spec.object.scopes[${index}]: no scope "${key}" in this console yet; saved as waiting for it: nothing is selected through it until the Scope exists`);
    waiting.push({ path: `spec.object.scopes[${index}]`, kind: 'scope', ref: key });
  }
}

async function groupWarnings(client: pg.PoolClient, subject: SubjectColumns, warnings: string[]): Promise<void> {
  if (subject.subject_type !== 'group' || isRole(subject.subject)) return;
  const { rowCount } = await client.query('SELECT 1 FROM permission_groups WHERE name = $1 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL', [subject.subject]);
  if (!rowCount) warnings.push(`spec.subject: no role or permission group is named "${subject.subject}" (yet); the permission applies once a PermissionGroup of that name exists`);
}

/**
 * `kind: Permission` (mission-control.flanksource.com/v1): one permission row, found again by namespace
 * and name, so applying the same document updates it. Rows from files are read-only in the console; a
 * permission of the same name made in the console is never taken over.
 */
export const permissionKind: ResourceKind<PermissionDocument> = {
  kind: 'Permission',
  apiVersions: ['mission-control.flanksource.com/v1'],
  schema: permissionDocument,
  async apply(doc, { client, source }) {
    const { name } = doc.metadata;
    const namespace = doc.metadata.namespace ?? 'default';
    const warnings: string[] = [];
    const waiting: WaitingReference[] = [];
    const object = objectColumns(doc.spec, namespace);
    if ('error' in object) throw new Error(`spec.object: ${object.error}`);
    warnings.push(...object.warnings);
    await scopeWaits(client, doc.spec, namespace, warnings, waiting);
    const actions = actionsOf(doc.spec);
    for (const action of actions.unknown) warnings.push(`spec.actions: "${action}" is not an action of this console; it allows or denies nothing here`);
    const subject = await subjectOf(client, doc.spec.subject, warnings, waiting);
    await groupWarnings(client, subject, warnings);
    const found = await client.query<{ id: string; source: string }>(
      "SELECT id, source FROM permissions WHERE namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL ORDER BY source = 'UI' LIMIT 1 FOR UPDATE",
      [namespace, name],
    );
    const existing = found.rows[0];
    if (existing?.source === 'UI') throw new Error(`metadata.name: the permission "${namespace}/${name}" was created in the console; rename one of them`);
    const values = [
      name, namespace, doc.spec.description ?? null, actions.action, doc.spec.deny, subject.subject_type, subject.subject, subject.person_id, subject.team_id,
      object.object, object.object_selector === null ? null : JSON.stringify(object.object_selector), object.config_id, object.component_id, object.playbook_id,
      object.connection_id, doc.spec.tags ? JSON.stringify(doc.spec.tags) : null, doc.spec.agents ?? null, source,
      waiting.length > 0 ? JSON.stringify(waiting) : null, subject.error ?? null,
    ];
    const columns = `name, namespace, description, action, deny, subject_type, subject, person_id, team_id, object, object_selector, config_id, component_id,
      playbook_id, connection_id, tags, agents, source, waiting_for, error`;
    let id: string | undefined;
    if (existing) {
      await client.query(
        `UPDATE permissions SET (${columns}, notification_id, canary_id) = ($2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, NULL, NULL)
         WHERE id = $1`,
        [existing.id, ...values],
      );
      id = existing.id;
    } else {
      const inserted = await client.query<{ id: string }>(
        `INSERT INTO permissions (${columns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20) RETURNING id`,
        values,
      );
      id = inserted.rows[0]?.id;
    }
    if (!id) throw new Error('permission insert returned no row');
    return { action: existing ? 'updated' : 'created', id, name, ...(warnings.length > 0 ? { warnings } : {}) };
  },
};
