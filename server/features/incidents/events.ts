import type { Queryable } from '../../platform/jobs/db';
import type { AfterWrite, RowChange } from '../../postgrest/registry';
import { publishMany, type PendingEvent } from '../../platform/jobs/event-queue';

/**
 * Incident events (common/events.ts), published in the transaction of the write they announce: every
 * write path calls these (the /api/db hooks below, Attach as Evidence, the incident rules). Each event
 * carries the incident as it is after the write, `{ id, incident_id (both the incident's uuid),
 * incident_number (INC-42), title, severity, status, type, previous: {status} }`, plus the responder,
 * comment or evidence it is about.
 */

type Row = Record<string, unknown>;

interface IncidentRow {
  id: string;
  incident_id: string;
  title: string;
  severity: string;
  status: string;
  type: string;
}

/** An event about an incident, before the incident's own properties are added. */
interface IncidentEvent {
  name: string;
  incident: string;
  /** Default: the incident's current status (the event did not change it); null for a new incident. */
  previousStatus?: string | null;
  extra?: Row;
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Adds each incident's current state and publishes the events, in order. */
async function publishIncidentEvents(client: Queryable, events: IncidentEvent[]): Promise<void> {
  if (events.length === 0) return;
  const ids = [...new Set(events.map((event) => event.incident))];
  const { rows } = await client.query<IncidentRow>('SELECT id, incident_id, title, severity, status, type FROM incidents WHERE id = ANY($1::uuid[])', [ids]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const pending: PendingEvent[] = [];
  for (const event of events) {
    const incident = byId.get(event.incident);
    if (!incident) continue;
    pending.push({
      name: event.name,
      properties: {
        id: incident.id,
        incident_id: incident.id,
        incident_number: incident.incident_id,
        title: incident.title,
        severity: incident.severity,
        status: incident.status,
        type: incident.type,
        previous: { status: event.previousStatus === undefined ? incident.status : event.previousStatus },
        ...event.extra,
      },
    });
  }
  await publishMany(client, pending);
}

/** incident.created (and nothing else for a new incident: its first status is part of it). */
export async function incidentCreated(client: Queryable, incidentIds: readonly string[]): Promise<void> {
  await publishIncidentEvents(
    client,
    incidentIds.map((incident) => ({ name: 'incident.created', incident, previousStatus: null })),
  );
}

/** incident.status.<status> for each incident whose status changed. */
export async function incidentStatusChanged(client: Queryable, changes: ReadonlyArray<{ id: string; from: string; to: string }>): Promise<void> {
  await publishIncidentEvents(
    client,
    changes.filter((change) => change.from !== change.to).map((change) => ({ name: `incident.status.${change.to}`, incident: change.id, previousStatus: change.from })),
  );
}

const incidentsHook: AfterWrite = async (client, { method, changes }) => {
  if (method === 'POST') {
    // An upsert that updated an existing incident is no creation; its status change still counts.
    const created = changes.filter((change) => change.old === null && change.new).map((change) => String(change.new?.id));
    await incidentCreated(client, created);
  }
  await incidentStatusChanged(
    client,
    changes
      .filter((change) => change.old && change.new)
      .map((change) => ({ id: String(change.new?.id), from: String(change.old?.status), to: String(change.new?.status) })),
  );
};

function responderExtra(row: Row): Row {
  return { responder_id: row.id, responder_type: row.type, person_id: row.person_id ?? null, team_id: row.team_id ?? null };
}

/** incident.responder.added / .removed. */
export async function respondersChanged(client: Queryable, changes: readonly RowChange[]): Promise<void> {
  const events: IncidentEvent[] = [];
  for (const change of changes) {
    if (!change.old && change.new) events.push({ name: 'incident.responder.added', incident: String(change.new.incident_id), extra: responderExtra(change.new) });
    else if (change.old && !change.new) events.push({ name: 'incident.responder.removed', incident: String(change.old.incident_id), extra: responderExtra(change.old) });
  }
  await publishIncidentEvents(client, events);
}

const commentsHook: AfterWrite = async (client, { changes }) => {
  const events: IncidentEvent[] = changes
    .filter((change) => !change.old && change.new)
    .map((change) => {
      const row = change.new as Row;
      const comment = str(row.comment) ?? '';
      return {
        name: 'incident.comment.added',
        incident: String(row.incident_id),
        extra: { comment_id: row.id, comment: comment.length > 1000 ? `${comment.slice(0, 1000)}…` : comment, hypothesis_id: row.hypothesis_id ?? null, created_by: row.created_by ?? null },
      };
    });
  await publishIncidentEvents(client, events);
};

/**
 * Definition-of-done events of evidences: evidence added to or removed from the definition of done
 * (inserted or deleted as one, or its definition_of_done flag set or cleared), passed (done set) and
 * regressed (done cleared) while it is part of it. Evidences outside the definition of done publish nothing.
 */
export async function evidencesChanged(client: Queryable, changes: readonly RowChange[]): Promise<void> {
  const named: Array<{ name: string; row: Row }> = [];
  for (const { old, new: now } of changes) {
    const wasDod = old?.definition_of_done === true;
    const isDod = now?.definition_of_done === true;
    const row = now ?? old;
    if (!row) continue;
    if (!wasDod && isDod) named.push({ name: 'incident.dod.evidence.added', row });
    else if (wasDod && !isDod) named.push({ name: 'incident.dod.evidence.removed', row });
    // Passed or regressed while it stays part of the definition of done (added or removed already says done).
    if (wasDod && isDod && old && now && old.done !== now.done) named.push({ name: now.done === true ? 'incident.dod.passed' : 'incident.dod.regressed', row });
  }
  if (named.length === 0) return;
  const hypotheses = [...new Set(named.map(({ row }) => String(row.hypothesis_id)))];
  const { rows } = await client.query<{ id: string; incident_id: string }>('SELECT id, incident_id FROM hypotheses WHERE id = ANY($1::uuid[])', [hypotheses]);
  const incidentOf = new Map(rows.map((row) => [row.id, row.incident_id]));
  const events: IncidentEvent[] = [];
  for (const { name, row } of named) {
    const incident = incidentOf.get(String(row.hypothesis_id));
    if (!incident) continue;
    events.push({
      name,
      incident,
      extra: { evidence_id: row.id, hypothesis_id: row.hypothesis_id, evidence_type: row.type, description: row.description ?? null, done: row.done === true },
    });
  }
  await publishIncidentEvents(client, events);
}

/** /api/db hooks (server/postgrest/relations/incidents.ts): the writes people make in the console. */
export const incidentWriteHooks: Readonly<Record<'incidents' | 'responders' | 'comments' | 'evidences', AfterWrite>> = {
  incidents: incidentsHook,
  responders: (client, { changes }) => respondersChanged(client, changes),
  comments: commentsHook,
  evidences: (client, { changes }) => evidencesChanged(client, changes),
};
