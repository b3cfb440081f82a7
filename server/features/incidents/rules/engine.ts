import type pg from 'pg';
import type { Logger } from '../../../platform/logger';
import { loadRules, type StoredRule } from './rules';
import { fillTemplate, type RuleSelector } from './spec';

type Kind = 'check' | 'component' | 'config';

/** One resource a rule found failing. */
interface Failing {
  id: string;
  name: string;
  type: string | null;
  health: string;
}

const TABLE: Record<Kind, { table: string; alias: string; health: string }> = {
  check: { table: 'checks', alias: 'r', health: "CASE r.status WHEN 'unhealthy' THEN 'unhealthy' WHEN 'healthy' THEN 'healthy' ELSE 'unknown' END" },
  component: { table: 'components', alias: 'r', health: 'r.health' },
  config: { table: 'config_items', alias: 'r', health: "coalesce(r.health, 'unknown')" },
};

/** A selector as SQL over alias r: every field given must match; `*` in a name is a wildcard. */
function selectorSql(kind: Kind, selector: RuleSelector, values: unknown[]): string {
  const parts: string[] = [];
  const add = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (selector.name) parts.push(`r.name LIKE ${add(selector.name.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%'))}`);
  if (selector.type) parts.push(`r.type = ${add(selector.type)}`);
  if (selector.namespace && kind !== 'component') parts.push(`r.namespace = ${add(selector.namespace)}`);
  if (selector.labels && Object.keys(selector.labels).length > 0) parts.push(`r.labels @> ${add(JSON.stringify(selector.labels))}::jsonb`);
  return parts.length > 0 ? `(${parts.join(' AND ')})` : 'true';
}

/** The resources a rule's selectors of one kind match that are failing now. */
async function failing(pool: pg.Pool, kind: Kind, rule: StoredRule, selectors: readonly RuleSelector[]): Promise<Failing[]> {
  const values: unknown[] = [];
  const match = selectors.map((selector) => selectorSql(kind, selector, values)).join(' OR ');
  const { table, health } = TABLE[kind];
  if (kind === 'check') {
    values.push(rule.spec.failures);
    const n = `$${values.length}`;
    // The latest N results all failed (and there are N of them).
    const { rows } = await pool.query<Failing>(
      `SELECT r.id, r.name, r.type, ${health} AS health FROM ${table} r
       CROSS JOIN LATERAL (SELECT count(*) AS runs, bool_and(NOT s.status) AS all_failed
                           FROM (SELECT status FROM check_statuses WHERE check_id = r.id ORDER BY time DESC LIMIT ${n}) s) latest
       WHERE r.deleted_at IS NULL AND r.status = 'unhealthy' AND (${match}) AND latest.runs = ${n} AND latest.all_failed`,
      values,
    );
    return rows;
  }
  values.push(rule.spec.health);
  const { rows } = await pool.query<Failing>(
    `SELECT r.id, coalesce(r.name, r.id::text) AS name, r.type, ${health} AS health FROM ${table} r
     WHERE r.deleted_at IS NULL AND ${health} = ANY($${values.length}::text[]) AND (${match})`,
    values,
  );
  return rows;
}

const EVIDENCE: Record<Kind, { type: string; column: string; what: string }> = {
  check: { type: 'check', column: 'check_id', what: 'failing' },
  component: { type: 'topology', column: 'component_id', what: 'unhealthy' },
  config: { type: 'config', column: 'config_id', what: 'unhealthy' },
};

/**
 * Opens one incident per failing resource and rule, with a root hypothesis and the resource as evidence
 * (its snapshot kept), unless one from the same rule and resource is still open (the partial unique index
 * incidents_rule_open_key makes this hold across instances). Answers how many were opened.
 */
async function openIncident(pool: pg.Pool, rule: StoredRule, kind: Kind, resource: Failing): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const values = { name: resource.name, type: resource.type, health: resource.health, status: resource.health, rule: rule.name, kind };
    const title = fillTemplate(rule.spec.template.title ?? `{{name}} is ${EVIDENCE[kind].what}`, values).slice(0, 500) || `${resource.name} is ${EVIDENCE[kind].what}`;
    const description = rule.spec.template.description ? fillTemplate(rule.spec.template.description, values) : `Opened by the incident rule ${rule.name}.`;
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO incidents (title, description, type, severity, incident_rule_id, source_kind, source_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (incident_rule_id, source_kind, source_id) WHERE incident_rule_id IS NOT NULL AND status NOT IN ('resolved', 'closed') DO NOTHING
       RETURNING id`,
      [title, description, rule.spec.template.type, rule.spec.template.severity, rule.id, kind, resource.id],
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
    await client.query('COMMIT');
    return true;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export interface RulesSummary {
  rules: number;
  opened: number;
  /** Rules whose stored spec no longer parses. */
  skipped: string[];
}

/** Evaluates every rule once (the 'Incident rules' system job). */
export async function evaluateIncidentRules(pool: pg.Pool, log: Logger, signal?: AbortSignal): Promise<RulesSummary> {
  const { rules, broken } = await loadRules(pool);
  let opened = 0;
  for (const rule of rules) {
    for (const kind of ['check', 'component', 'config'] as const) {
      const selectors = kind === 'check' ? rule.spec.checks : kind === 'component' ? rule.spec.components : rule.spec.configs;
      if (!selectors || selectors.length === 0) continue;
      for (const resource of await failing(pool, kind, rule, selectors)) {
        if (signal?.aborted) return { rules: rules.length, opened, skipped: broken };
        if (await openIncident(pool, rule, kind, resource)) {
          opened += 1;
          log.info({ rule: rule.name, kind, resource: resource.id }, 'incident rule opened an incident');
        }
      }
    }
  }
  return { rules: rules.length, opened, skipped: broken };
}
