import type pg from 'pg';
import { incidentCreated, respondersChanged } from '../events';
import type { StoredRule } from './rules';
import type { Kind } from './selector';
import { fillTemplate } from './template';

/** One resource a rule found failing. */
export interface Failing {
  id: string;
  name: string;
  type: string | null;
  health: string;
  status: string | null;
  /** Who owns it (checks and components carry an owner): a person's email or name, or a team. */
  owner: string | null;
  namespace: string | null;
  severity: string | null;
  /** Checks: when they turned unhealthy. */
  since: Date | null;
}

const EVIDENCE: Record<Kind, { type: string; column: string; what: string }> = {
  check: { type: 'check', column: 'check_id', what: 'failing' },
  component: { type: 'topology', column: 'component_id', what: 'unhealthy' },
  config: { type: 'config', column: 'config_id', what: 'unhealthy' },
};

/** A person named by id, email or name (Mission Control's owners and template ids are any of these). */
async function personOf(client: pg.PoolClient, ref: string | null | undefined): Promise<string | undefined> {
  if (!ref) return undefined;
  const { rows } = await client.query<{ id: string }>(
    `SELECT id FROM people WHERE deleted_at IS NULL AND (id::text = $1 OR lower(email) = lower($1) OR lower(name) = lower($1))
     ORDER BY id::text = $1 DESC, lower(email) = lower($1) DESC LIMIT 1`,
    [ref.trim()],
  );
  return rows[0]?.id;
}

async function teamOf(client: pg.PoolClient, ref: string): Promise<string | undefined> {
  const { rows } = await client.query<{ id: string }>('SELECT id FROM teams WHERE deleted_at IS NULL AND (id::text = $1 OR lower(name) = lower($1)) LIMIT 1', [ref.trim()]);
  return rows[0]?.id;
}

/**
 * Opens one incident for a failing resource and rule, with a root hypothesis and the resource as evidence
 * (its snapshot kept), unless one from the same rule and resource is still open (the partial unique index
 * incidents_rule_open_key makes this hold across instances). autoAssignOwner makes the resource's owner
 * the commander when the owner is a person of this console, or adds the owning team as responder.
 */
export async function openIncident(pool: pg.Pool, rule: StoredRule, kind: Kind, resource: Failing): Promise<boolean> {
  const { template } = rule.spec;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const values = {
      name: resource.name,
      type: resource.type,
      health: resource.health,
      status: resource.health,
      owner: resource.owner,
      namespace: resource.namespace,
      severity: resource.severity,
      id: resource.id,
      rule: rule.name,
      kind,
    };
    const title = fillTemplate(template.title ?? `{{name}} is ${EVIDENCE[kind].what}`, values).trim().slice(0, 500) || `${resource.name} is ${EVIDENCE[kind].what}`;
    const description = template.description ? fillTemplate(template.description, values) : `Opened by the incident rule ${rule.name}.`;
    const owner = rule.spec.autoAssignOwner ? await personOf(client, resource.owner) : undefined;
    const commander = owner ?? (await personOf(client, template.commander));
    const communicator = await personOf(client, template.communicator);
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO incidents (title, description, type, severity, status, commander_id, communicator_id, incident_rule_id, source_kind, source_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (incident_rule_id, source_kind, source_id) WHERE incident_rule_id IS NOT NULL AND status NOT IN ('resolved', 'closed') DO NOTHING
       RETURNING id`,
      [title, description, template.type, template.severity, template.status, commander ?? null, communicator ?? null, rule.id, kind, resource.id],
    );
    const incident = rows[0]?.id;
    if (!incident) {
      await client.query('ROLLBACK');
      return false;
    }
    const hypothesis = await client.query<{ id: string }>(`INSERT INTO hypotheses (incident_id, type, title) VALUES ($1, 'root', $2) RETURNING id`, [incident, title]);
    const evidence = EVIDENCE[kind];
    await client.query(`INSERT INTO evidences (hypothesis_id, type, description, ${evidence.column}) VALUES ($1, $2, $3, $4)`, [
      hypothesis.rows[0]?.id,
      evidence.type,
      `${resource.name} was ${resource.health} when the rule ${rule.name} opened this incident`,
      resource.id,
    ]);
    await incidentCreated(client, [incident]);
    if (rule.spec.autoAssignOwner && !owner && resource.owner) {
      const team = await teamOf(client, resource.owner);
      if (team) {
        const responder = await client.query<Record<string, unknown>>("INSERT INTO responders (incident_id, type, team_id) VALUES ($1, 'team', $2) RETURNING *", [incident, team]);
        await respondersChanged(client, responder.rows.map((row) => ({ old: null, new: row })));
      }
    }
    await client.query('COMMIT');
    return true;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
