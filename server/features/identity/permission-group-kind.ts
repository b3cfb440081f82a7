import { z } from 'zod';
import type { ResourceKind } from '../../platform/resources';
import { metadataSchema } from './permission-kind';

const member = z.string().trim().min(1, 'must not be empty');
const selectors = z.array(z.object({ namespace: z.string().optional(), name: z.string().optional() }).strict(), { message: 'must be a list of {namespace, name}' });

/** Members that are not people: Mission Control lets them act (run playbooks, send notifications); here none does. */
const NON_PEOPLE = ['notifications', 'playbooks', 'topologies', 'scrapers', 'canaries'] as const;

const groupDocument = z.object({
  apiVersion: z.string(),
  kind: z.literal('PermissionGroup'),
  metadata: metadataSchema,
  spec: z
    .object({
      /** Deprecated upstream in favour of metadata.name. */
      name: z.string().optional(),
      people: z.array(member, { message: 'must be a list of emails or ids ("*" for everyone)' }).optional(),
      teams: z.array(member, { message: 'must be a list of team names' }).optional(),
      notifications: selectors.optional(),
      playbooks: selectors.optional(),
      topologies: selectors.optional(),
      scrapers: selectors.optional(),
      canaries: selectors.optional(),
    })
    .strict()
    .default({}),
});
type GroupDocument = z.infer<typeof groupDocument>;

/**
 * `kind: PermissionGroup` (mission-control.flanksource.com/v1): people and teams that Permission rows name
 * as `subject: {group: <name>}`. Membership is read on every request, so a person or team named before
 * their account exists joins when it does. Found again by name: applying the same document updates it.
 */
export const permissionGroupKind: ResourceKind<GroupDocument> = {
  kind: 'PermissionGroup',
  apiVersions: ['mission-control.flanksource.com/v1'],
  schema: groupDocument,
  async apply(doc, { client, source }) {
    const { name } = doc.metadata;
    const namespace = doc.metadata.namespace ?? 'default';
    const spec = doc.spec;
    const warnings: string[] = [];
    if (spec.name !== undefined && spec.name !== name) warnings.push(`spec.name: a group is named by metadata.name ("${name}"); "${spec.name}" is ignored`);
    const people = [...new Set((spec.people ?? []).map((item) => item.toLowerCase()))];
    const teams = [...new Set((spec.teams ?? []).map((item) => item.toLowerCase()))];
    const kept: Record<string, unknown> = {};
    for (const key of NON_PEOPLE) {
      const list = spec[key];
      if (!list || list.length === 0) continue;
      kept[key] = list;
      warnings.push(`spec.${key}: ${key} never make requests in this console; kept, they gain nothing`);
    }
    const known = await client.query<{ ref: string }>(
      `SELECT ref FROM unnest($1::text[]) AS ref WHERE ref = '*' OR EXISTS (SELECT 1 FROM people p WHERE p.deleted_at IS NULL AND (p.id::text = ref OR lower(p.email) = ref))`,
      [people],
    );
    const present = new Set(known.rows.map((row) => row.ref));
    for (const person of people) {
      if (!present.has(person)) warnings.push(`spec.people: "${person}" has no account in this console yet; they join the group when it exists`);
    }
    const knownTeams = await client.query<{ ref: string }>(
      'SELECT ref FROM unnest($1::text[]) AS ref WHERE EXISTS (SELECT 1 FROM teams t WHERE t.deleted_at IS NULL AND (t.id::text = ref OR lower(t.name) = ref))',
      [teams],
    );
    const presentTeams = new Set(knownTeams.rows.map((row) => row.ref));
    for (const team of teams) if (!presentTeams.has(team)) warnings.push(`spec.teams: no team "${team}" in this console yet; its members join when it exists`);
    const found = await client.query<{ id: string; source: string; namespace: string }>(
      'SELECT id, source, namespace FROM permission_groups WHERE name = $1 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL FOR UPDATE',
      [name],
    );
    const existing = found.rows[0];
    if (existing && existing.source === 'UI') throw new Error(`metadata.name: the permission group "${name}" was created in the console; rename one of them`);
    if (existing && existing.namespace !== namespace) {
      throw new Error(`metadata.name: a permission group "${name}" already exists in the namespace "${existing.namespace}"; group names are global (permissions name a group by name alone)`);
    }
    const values = [name, namespace, JSON.stringify(doc.metadata.labels ?? {}), people, teams, JSON.stringify(kept), source];
    let id: string | undefined;
    if (existing) {
      await client.query('UPDATE permission_groups SET (name, namespace, labels, people, teams, selectors, source) = ($2, $3, $4, $5, $6, $7, $8) WHERE id = $1', [existing.id, ...values]);
      id = existing.id;
    } else {
      const inserted = await client.query<{ id: string }>(
        'INSERT INTO permission_groups (name, namespace, labels, people, teams, selectors, source) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id',
        values,
      );
      id = inserted.rows[0]?.id;
    }
    if (!id) throw new Error('permission group insert returned no row');
    return { action: existing ? 'updated' : 'created', id, name, ...(warnings.length > 0 ? { warnings } : {}) };
  },
};
