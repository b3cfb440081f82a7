import { kindOfEvent, resourceIdOf, type EventResourceKind } from '../../platform/event-resources';
import type { Queryable } from '../../platform/jobs/db';

export type ResourceKind = EventResourceKind;

/**
 * The resource an event is about, as a rule, a silence and a template see it. `env` holds the variables
 * Mission Control offers a filter and a template: check, canary, config, component, incident, agent,
 * event, labels, tags, permalink (and the resource's own fields at the top level too).
 */
export interface EventResource {
  kind: ResourceKind;
  id: string;
  name: string;
  namespace: string | null;
  type: string | null;
  /** healthy, unhealthy, warning, unknown (checks: healthy or unhealthy); incidents: their status. */
  health: string | null;
  status: string | null;
  labels: Record<string, string>;
  tags: Record<string, string>;
  canaryId?: string;
  /** Ids of the parents, nearest last (config and component paths), for recursive silences. */
  ancestors: string[];
  /** Where the console shows it, from the site root. */
  link: string;
  env: Record<string, unknown>;
}

const NIL = '00000000-0000-0000-0000-000000000000';

/** A row read as jsonb (to_jsonb(table)): every column, the text ones the resource reads named. */
type JsonRow<Text extends string> = Record<string, unknown> & { [column in Text]?: string | null };

const pathIds = (path: string | null | undefined) => (path ?? '').split('.').filter((part) => /^[0-9a-f-]{36}$/i.test(part));
const record = (value: unknown): Record<string, string> => {
  if (!value || typeof value !== 'object') return {};
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, typeof item === 'string' ? item : JSON.stringify(item)]));
};

/** Reads the resource of an event; undefined when it no longer exists. */
export async function loadEventResource(db: Queryable, event: { name: string; properties: Record<string, unknown>; createdAt?: Date }, publicUrl = ''): Promise<EventResource | undefined> {
  const kind = kindOfEvent(event.name);
  if (!kind) return undefined;
  const id = resourceIdOf(kind, event.properties);
  if (!id) return undefined;
  const eventVar = { name: event.name, properties: event.properties, created_at: (event.createdAt ?? new Date()).toISOString() };
  const base = publicUrl.replace(/\/+$/, '');
  if (kind === 'check') {
    const { rows } = await db.query<{ check: JsonRow<'namespace' | 'type' | 'status'>; canary: Record<string, unknown> | null; agent: Record<string, unknown> | null }>(
      `SELECT to_jsonb(c) - 'spec' AS check, to_jsonb(ca) - 'spec' AS canary, jsonb_build_object('id', a.id, 'name', a.name) AS agent
       FROM checks c LEFT JOIN canaries ca ON ca.id = c.canary_id LEFT JOIN agents a ON a.id = c.agent_id WHERE c.id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) return undefined;
    const check = row.check;
    const labels = record(check.labels);
    const link = `/health?checkId=${id}`;
    return {
      kind, id, name: String(check.name ?? id), namespace: check.namespace ?? null, type: check.type ?? null,
      health: check.status ?? null, status: check.status ?? null, labels, tags: {}, canaryId: String(check.canary_id), ancestors: [], link,
      env: { ...check, check: { ...check, message: event.properties.message ?? null }, canary: row.canary ?? {}, agent: agentOf(row.agent), event: eventVar, labels, tags: {}, permalink: `${base}${link}` },
    };
  }
  if (kind === 'config') {
    const { rows } = await db.query<{ config: JsonRow<'namespace' | 'type' | 'health' | 'status' | 'path'>; agent: Record<string, unknown> | null }>(
      `SELECT to_jsonb(ci) AS config, jsonb_build_object('id', a.id, 'name', a.name) AS agent
       FROM config_items ci LEFT JOIN agents a ON a.id = ci.agent_id WHERE ci.id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) return undefined;
    const config = row.config;
    const labels = record(config.labels);
    const tags = record(config.tags);
    const link = `/catalog/${id}`;
    return {
      kind, id, name: String(config.name ?? id), namespace: config.namespace ?? null, type: config.type ?? null,
      health: config.health ?? 'unknown', status: config.status ?? null, labels, tags, ancestors: pathIds(config.path),
      link,
      env: { ...config, config, agent: agentOf(row.agent), event: eventVar, labels, tags, permalink: `${base}${link}` },
    };
  }
  if (kind === 'component') {
    const { rows } = await db.query<{ component: JsonRow<'namespace' | 'type' | 'health' | 'status' | 'path'>; agent: Record<string, unknown> | null }>(
      `SELECT to_jsonb(c) - 'spec' AS component, jsonb_build_object('id', a.id, 'name', a.name) AS agent
       FROM components c LEFT JOIN agents a ON a.id = c.agent_id WHERE c.id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) return undefined;
    const component = row.component;
    const labels = record(component.labels);
    const link = `/topology/${id}`;
    return {
      kind, id, name: String(component.name ?? id), namespace: component.namespace ?? null, type: component.type ?? null,
      health: component.health ?? 'unknown', status: component.status ?? null, labels, tags: {}, ancestors: pathIds(component.path),
      link,
      env: { ...component, component, agent: agentOf(row.agent), event: eventVar, labels, tags: {}, permalink: `${base}${link}` },
    };
  }
  if (kind === 'playbook') return playbookRunResource(db, id, eventVar, base);
  const { rows } = await db.query<{ incident: JsonRow<'type' | 'status'>; commander: Record<string, unknown> | null }>(
    `SELECT to_jsonb(i) AS incident, to_jsonb(p) - 'properties' AS commander FROM incidents i LEFT JOIN people p ON p.id = i.commander_id WHERE i.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return undefined;
  const incident = row.incident;
  const link = `/incidents/${id}`;
  return {
    kind, id, name: String(incident.title ?? id), namespace: null, type: incident.type ?? null,
    health: null, status: incident.status ?? null, labels: {}, tags: {}, ancestors: [], link,
    env: { ...incident, incident: { ...incident, commander: row.commander }, agent: agentOf(null), event: eventVar, labels: {}, tags: {}, permalink: `${base}${link}` },
  };
}

/**
 * A playbook event (playbook.run.completed|failed, playbook.approval.inprogress): the run, its playbook and
 * the resource it ran on (`.config`, `.component` or `.check`), as Mission Control's playbook notifications see them.
 */
async function playbookRunResource(db: Queryable, id: string, eventVar: Record<string, unknown>, base: string): Promise<EventResource | undefined> {
  const { rows } = await db.query<{ run: JsonRow<'status'>; playbook: JsonRow<'namespace'>; config: Record<string, unknown> | null; component: Record<string, unknown> | null; check: Record<string, unknown> | null }>(
    `SELECT to_jsonb(r) - 'spec' - 'secret_parameters' - 'claimed_by' - 'lease_until' AS run,
            jsonb_build_object('id', p.id, 'name', p.name, 'namespace', p.namespace, 'title', p.title, 'category', p.category) AS playbook,
            to_jsonb(ci) AS config, to_jsonb(co) - 'spec' AS component, to_jsonb(ch) - 'spec' AS check
       FROM playbook_runs r JOIN playbooks p ON p.id = r.playbook_id
       LEFT JOIN config_items ci ON ci.id = r.config_id LEFT JOIN components co ON co.id = r.component_id LEFT JOIN checks ch ON ch.id = r.check_id
      WHERE r.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return undefined;
  const target = row.config ?? row.component ?? row.check;
  const labels = record(target?.labels);
  const link = `/playbooks/runs/${id}`;
  const name = String(row.playbook.title || row.playbook.name);
  return {
    kind: 'playbook', id, name, namespace: row.playbook.namespace ?? null, type: 'playbook', health: null, status: row.run.status ?? null,
    labels, tags: record(row.config?.tags), ancestors: [], link,
    env: {
      playbook: row.playbook, run: row.run, ...(row.config ? { config: row.config } : {}), ...(row.component ? { component: row.component } : {}), ...(row.check ? { check: row.check } : {}),
      resource: target ?? {}, agent: agentOf(null), event: eventVar, labels, tags: {}, permalink: `${base}${link}`,
    },
  };
}

function agentOf(agent: Record<string, unknown> | null): Record<string, unknown> {
  if (!agent || agent.id === null || agent.id === NIL) return { id: NIL, name: 'local' };
  return agent;
}

/** Whether the resource is still failing, for waitFor (checks unhealthy; configs and components not healthy). */
export function stillFailing(resource: EventResource): boolean {
  if (resource.kind === 'check') return resource.health === 'unhealthy';
  if (resource.kind === 'incident') return true;
  return resource.health !== 'healthy';
}
