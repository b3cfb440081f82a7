import { createHash } from 'node:crypto';
import type { Queryable } from '../../platform/jobs/db';
import { isRecord } from '../../platform/errors';
import type { CustomService } from './rules';

/**
 * One place a message goes, decided when the event is handled and kept on its send-history row
 * (payload.recipient) so a retry goes to the same place. `key` makes a redelivered event harmless.
 */
export interface Recipient {
  key: string;
  /** For people to read: "person Alice <alice@example.com>", "connection default/slack", "team ops → email". */
  label: string;
  kind: 'person' | 'email' | 'connection' | 'url' | 'webhook' | 'playbook';
  person_id?: string;
  team_id?: string;
  connection_id?: string;
  email?: string;
  service?: CustomService;
  playbook?: string;
}

export interface RecipientSource {
  person_id: string | null;
  team_id: string | null;
  playbook_id?: string | null;
  custom_services: CustomService[] | null;
  /** `to.playbook` as written (namespace/name or a name in the rule's namespace): the engine runs it on the event's resource. */
  playbook?: string | null;
}

const hostOf = (url: string | undefined) => {
  try {
    return url ? new URL(url).host : '';
  } catch {
    return '';
  }
};
const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

function serviceRecipient(service: CustomService, team?: { id: string; name: string }): Recipient {
  const via = team ? `team ${team.name} → ` : '';
  const team_id = team ? { team_id: team.id } : {};
  switch (service.kind) {
    case 'email':
      return { key: `email:${service.email}`, label: `${via}email ${service.email}`, kind: 'email', email: service.email ?? '', service, ...team_id };
    case 'connection':
      // A connection the rule waits for has no id yet: keyed by its reference, looked up when sending.
      return {
        key: `connection:${service.connection_id ?? service.connection}`,
        label: `${via}connection ${service.connection}`,
        kind: 'connection',
        ...(service.connection_id ? { connection_id: service.connection_id } : {}),
        service,
        ...team_id,
      };
    case 'url': {
      // The URL carries the service's token: shown by scheme and host only.
      let shown = 'a service URL';
      try {
        const parsed = new URL(service.url ?? '');
        shown = `${parsed.protocol}//${parsed.hostname}`;
      } catch {
        // stays generic
      }
      return { key: `url:${digest(service.url ?? '')}`, label: `${via}${shown}`, kind: 'url', service, ...team_id };
    }
    case 'webhook':
      return {
        key: `webhook:${digest(JSON.stringify(service.webhook ?? {}))}`,
        label: `${via}webhook ${service.connection ?? hostOf(service.webhook?.url)}`,
        kind: 'webhook',
        ...(service.connection_id ? { connection_id: service.connection_id } : {}),
        service,
        ...team_id,
      };
  }
}

/** The team's own channels (spec.notifications of kind Team), or else each member by email. */
async function teamRecipients(db: Queryable, teamId: string): Promise<Recipient[]> {
  const { rows } = await db.query<{ name: string; spec: Record<string, unknown> }>('SELECT name, spec FROM teams WHERE id = $1 AND deleted_at IS NULL', [teamId]);
  const team = rows[0];
  if (!team) return [];
  const channels: unknown[] = Array.isArray(team.spec.notifications) ? team.spec.notifications : [];
  const out: Recipient[] = [];
  for (const channel of channels) {
    if (!isRecord(channel)) continue;
    const properties = channel.properties && typeof channel.properties === 'object' ? (channel.properties as Record<string, string>) : undefined;
    if (typeof channel.connection === 'string' && channel.connection) {
      const reference = channel.connection.includes('://') ? channel.connection : `connection://${channel.connection}`;
      const match = /^connection:\/\/(?:([^/\s]+)\/)?([^/\s]+)$/.exec(reference);
      const found = match
        ? await db.query<{ id: string; type: string; namespace: string; name: string }>('SELECT id, type, namespace, name FROM connections WHERE namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL', [match[1] ?? 'default', match[2]])
        : { rows: [] };
      const connection = found.rows[0];
      if (connection) {
        out.push(serviceRecipient({ kind: 'connection', connection_id: connection.id, connection: `connection://${connection.namespace}/${connection.name}`, connection_type: connection.type, ...(properties ? { properties } : {}) }, { id: teamId, name: team.name }));
      }
    } else if (typeof channel.url === 'string' && channel.url) {
      out.push(serviceRecipient({ kind: 'url', url: channel.url, ...(properties ? { properties } : {}) }, { id: teamId, name: team.name }));
    } else {
      const emails = [...(typeof channel.email === 'string' ? [channel.email] : []), ...(Array.isArray(channel.emails) ? channel.emails.map(String) : [])].filter(Boolean);
      if (emails.length > 0) out.push(serviceRecipient({ kind: 'email', email: emails.join(', ') }, { id: teamId, name: team.name }));
    }
  }
  if (out.length > 0) return out;
  const members = await db.query<{ id: string; name: string; email: string | null }>(
    `SELECT p.id, p.name, p.email FROM team_members m JOIN people p ON p.id = m.person_id WHERE m.team_id = $1 AND p.deleted_at IS NULL ORDER BY p.name`,
    [teamId],
  );
  return members.rows.map((person) => ({ key: `person:${person.id}`, label: `team ${team.name} → ${person.name}${person.email ? ` <${person.email}>` : ''}`, kind: 'person' as const, person_id: person.id, team_id: teamId, email: person.email ?? '' }));
}

/** Every place one rule's message goes: a person, a team fanned out to its channels or members, or a service. */
export async function recipientsOf(db: Queryable, source: RecipientSource): Promise<Recipient[]> {
  const out: Recipient[] = [];
  if (source.person_id) {
    const { rows } = await db.query<{ name: string; email: string | null }>('SELECT name, email FROM people WHERE id = $1 AND deleted_at IS NULL', [source.person_id]);
    const person = rows[0];
    if (person) out.push({ key: `person:${source.person_id}`, label: `${person.name}${person.email ? ` <${person.email}>` : ''}`, kind: 'person', person_id: source.person_id, email: person.email ?? '' });
  }
  if (source.team_id) out.push(...(await teamRecipients(db, source.team_id)));
  for (const service of source.custom_services ?? []) out.push(serviceRecipient(service));
  if (source.playbook) out.push({ key: `playbook:${source.playbook}`, label: `playbook ${source.playbook}`, kind: 'playbook', playbook: source.playbook });
  return out;
}
