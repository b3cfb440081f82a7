import { z } from 'zod';
import type { ResourceKind } from '../../platform/resources';

const teamSchema = z.object({
  apiVersion: z.string(),
  kind: z.literal('Team'),
  metadata: z.object({
    name: z.string().trim().min(1, 'is required').max(200),
    namespace: z.string().optional(),
    labels: z.record(z.string(), z.string()).optional(),
  }),
  spec: z
    .object({
      icon: z.string().trim().max(100).optional(),
      /** People by email (or id); the team's membership becomes exactly this list. */
      members: z.array(z.string().trim().min(1)).max(10_000).optional(),
      /**
       * Where a Notification addressed to this team goes (Mission Control's team notifications): each a
       * connection (connection://ns/name), a service URL or an email address, with per-channel properties.
       * Without any, a team recipient goes to each member by email (docs/NOTIFICATIONS.md).
       */
      notifications: z
        .array(
          z
            .object({
              connection: z.string().trim().min(1).optional(),
              url: z.string().trim().min(1).optional(),
              email: z.string().trim().min(1).optional(),
              emails: z.array(z.string().trim().min(1)).optional(),
              name: z.string().optional(),
              properties: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
              filter: z.string().optional(),
            })
            .loose()
            .refine((channel) => [channel.connection, channel.url, channel.email || channel.emails?.length].filter(Boolean).length === 1, { message: 'needs exactly one of connection, url or emails' }),
        )
        .max(50)
        .optional(),
    })
    .loose()
    .default({}),
});
export type TeamDocument = z.infer<typeof teamSchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Team fields of Mission Control (its Team CRD and the older team spec) that are kept in the team's spec
 * but not run here: each is reported by name.
 */
const KEPT: Record<string, string> = {
  displayName: 'the console shows the team by metadata.name',
  components: 'teams do not own components here; use a component\'s owner',
  responder_clients: 'external responders (Jira, AWS, MS Planner) are not supported',
};

/**
 * `kind: Team` (mission-control.flanksource.com/v1): a team and, when `spec.members` is given, exactly
 * those members. Teams applied from files or the cluster are read-only in the console (their source is
 * not UI); a team of the same name made in the console is not taken over.
 */
export const teamKind: ResourceKind<TeamDocument> = {
  kind: 'Team',
  apiVersions: ['mission-control.flanksource.com/v1'],
  schema: teamSchema,
  async apply(doc, { client, source }) {
    const name = doc.metadata.name;
    const { icon, members, ...rest } = doc.spec;
    const existing = await client.query<{ id: string; source: string }>('SELECT id, source FROM teams WHERE lower(name) = lower($1) AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL FOR UPDATE', [name]);
    const found = existing.rows[0];
    if (found && found.source === 'UI') {
      throw new Error(`metadata.name: a team named "${name}" was created in the console; rename one of them (a console team is never taken over)`);
    }
    let id: string;
    if (found) {
      await client.query('UPDATE teams SET name = $2, icon = $3, spec = $4, source = $5 WHERE id = $1', [found.id, name, icon || 'group', JSON.stringify(rest), source]);
      id = found.id;
    } else {
      const inserted = await client.query<{ id: string }>('INSERT INTO teams (name, icon, spec, source) VALUES ($1, $2, $3, $4) RETURNING id', [name, icon || 'group', JSON.stringify(rest), source]);
      const row = inserted.rows[0];
      if (!row) throw new Error('team insert returned no row');
      id = row.id;
    }
    const warnings: string[] = [];
    for (const key of Object.keys(rest)) {
      const reason = Object.hasOwn(KEPT, key) ? KEPT[key] : undefined;
      if (reason) warnings.push(`spec.${key}: ${reason}; kept in the team's spec`);
    }
    doc.spec.notifications?.forEach((channel, index) => {
      if (channel.filter) warnings.push(`spec.notifications[${index}].filter: a team channel's own filter is not run here (the rule's filter is); kept in the team's spec`);
    });
    if (members) {
      // Membership of an applied team changes only here (migration 0004, team_members_source).
      await client.query("SELECT set_config('watchkeeper.applying', 'on', true)");
      const ids: string[] = [];
      for (const member of members) {
        const person = await client.query<{ id: string }>(
          'SELECT id FROM people WHERE deleted_at IS NULL AND (lower(email) = lower($1) OR ($2 AND id = $1::uuid))',
          [member, UUID.test(member)],
        );
        const personId = person.rows[0]?.id;
        if (personId) ids.push(personId);
        else warnings.push(`spec.members: "${member}" is not a person of this console (no account with that email); left out`);
      }
      await client.query('DELETE FROM team_members WHERE team_id = $1 AND NOT (person_id = ANY($2::uuid[]))', [id, ids]);
      for (const personId of new Set(ids)) await client.query('INSERT INTO team_members (team_id, person_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [id, personId]);
    }
    return { action: found ? 'updated' : 'created', id, name, ...(warnings.length > 0 ? { warnings } : {}) };
  },
};
