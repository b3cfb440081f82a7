import type pg from 'pg';
import type { Logger } from '../../../platform/logger';
import { inOrganizationOf } from '../../../platform/db/tenant';
import { autoCloseIncidents } from './auto-close';
import { openIncident, type Failing } from './open';
import { loadRules, type StoredRule } from './rules';
import { selectorSql, SqlValues, type Kind } from './selector';

const KINDS: readonly Kind[] = ['check', 'component', 'config'];

/** How each kind of resource is read: its table, health, owner and (checks) since when it fails. */
export const RESOURCE_SQL: Record<Kind, { table: string; health: string; owner: string; namespace: string; since: string }> = {
  check: {
    table: 'checks',
    health: "CASE r.status WHEN 'unhealthy' THEN 'unhealthy' WHEN 'healthy' THEN 'healthy' ELSE 'unknown' END",
    owner: 'r.owner',
    namespace: 'r.namespace',
    since: "CASE WHEN r.status = 'unhealthy' THEN r.last_transition_time END",
  },
  component: { table: 'components', health: 'r.health', owner: 'r.owner', namespace: 'NULL::text', since: 'NULL::timestamptz' },
  config: { table: 'config_items', health: "coalesce(r.health, 'unknown')", owner: 'NULL::text', namespace: 'r.namespace', since: 'NULL::timestamptz' },
};

/** The resources a rule's selectors of one kind match that are failing now (by its filter). */
async function candidates(pool: pg.Pool, kind: Kind, rule: StoredRule): Promise<Failing[]> {
  const { spec } = rule;
  // Only checks have a severity: a severity filter leaves components and configs out.
  if (kind !== 'check' && spec.severities) return [];
  const sql = new SqlValues();
  const { table, health, owner, namespace, since } = RESOURCE_SQL[kind];
  // The rule's own organization's resources (a rule of the console's own: the console's own resources).
  const where = ['r.deleted_at IS NULL', 'r.organization_id IS NOT DISTINCT FROM current_organization()', `(${spec.selectors[kind].map((selector) => selectorSql(kind, selector, health, sql)).join(' OR ')})`];
  if (spec.healths) where.push(`${health} = ANY(${sql.add(spec.healths)}::text[])`);
  let latest = '';
  if (kind === 'check') {
    if (spec.severities) where.push(`lower(r.severity) = ANY(${sql.add(spec.severities)}::text[])`);
    const n = sql.add(spec.failures);
    // A failing check counts once its latest N results all failed (and there are N of them).
    latest = `CROSS JOIN LATERAL (SELECT count(*) AS runs, bool_and(NOT s.status) AS all_failed
                                  FROM (SELECT status FROM check_statuses WHERE check_id = r.id ORDER BY time DESC LIMIT ${n}) s) latest`;
    where.push(`(${health} <> 'unhealthy' OR (latest.runs = ${n} AND latest.all_failed))`);
  }
  const { rows } = await pool.query<Failing>(
    `SELECT r.id, coalesce(r.name, r.id::text) AS name, r.type, ${health} AS health, r.status, ${owner} AS owner, ${namespace} AS namespace,
            ${kind === 'check' ? 'r.severity' : 'NULL::text'} AS severity, ${since} AS since
     FROM ${table} r ${latest}
     WHERE ${where.join(' AND ')}
     ORDER BY r.name, r.id`,
    sql.values,
  );
  return rows;
}

/**
 * filter.age: a resource opens an incident only once the rule has seen it failing for that long. When it
 * first failed is kept per rule and resource (incident_rule_resources), so every instance agrees.
 */
async function oldEnough(pool: pg.Pool, rule: StoredRule, kind: Kind, found: Failing[]): Promise<Failing[]> {
  const ids = found.map((resource) => resource.id);
  const { rows } = await pool.query<{ source_id: string; old_enough: boolean }>(
    `INSERT INTO incident_rule_resources (incident_rule_id, source_kind, source_id, failing_since)
     SELECT $1, $2, u.id, coalesce(u.since, now()) FROM unnest($3::uuid[], $4::timestamptz[]) AS u(id, since)
     ON CONFLICT (incident_rule_id, source_kind, source_id)
       DO UPDATE SET failing_since = coalesce(incident_rule_resources.failing_since, excluded.failing_since)
     RETURNING source_id, failing_since <= now() - make_interval(secs => $5::double precision / 1000) AS old_enough`,
    [rule.id, kind, ids, found.map((resource) => resource.since), rule.spec.ageMillis],
  );
  // What no longer fails starts again from zero next time.
  await pool.query(
    `UPDATE incident_rule_resources SET failing_since = NULL
     WHERE incident_rule_id = $1 AND source_kind = $2 AND failing_since IS NOT NULL AND NOT (source_id = ANY($3::uuid[]))`,
    [rule.id, kind, ids],
  );
  await pool.query('DELETE FROM incident_rule_resources WHERE incident_rule_id = $1 AND failing_since IS NULL AND healthy_since IS NULL', [rule.id]);
  const ready = new Set(rows.filter((row) => row.old_enough).map((row) => row.source_id));
  return found.filter((resource) => ready.has(resource.id));
}

export interface RulesSummary {
  rules: number;
  opened: number;
  /** Incidents closed or resolved by autoClose / autoResolve. */
  closed: number;
  /** Rules whose stored spec no longer parses. */
  skipped: string[];
}

/**
 * Evaluates every rule once (the 'Incident rules' system job), lowest priority first. A resource a rule
 * with breakOnMatch matched is not offered to the rules after it. Then open incidents of rules with
 * autoClose / autoResolve whose resource has been healthy long enough are closed or resolved.
 */
export async function evaluateIncidentRules(pool: pg.Pool, log: Logger, signal?: AbortSignal): Promise<RulesSummary> {
  const { rules, broken } = await loadRules(pool);
  const claimed = new Set<string>();
  let opened = 0;
  for (const rule of rules) {
    const { spec } = rule;
    // filter.category: the rule opens incidents of its template's type only if the filter lets it.
    if (spec.categories && !spec.categories.includes(spec.template.type)) continue;
    // An organization's rule looks at that organization's resources only (docs/HOSTED.md "Row-level security").
    const stopped = await inOrganizationOf(rule.organizationId, async () => {
      for (const kind of KINDS) {
        if (spec.selectors[kind].length === 0) continue;
        let found = await candidates(pool, kind, rule);
        if (spec.ageMillis > 0) found = await oldEnough(pool, rule, kind, found);
        for (const resource of found) {
          if (signal?.aborted) return true;
          const key = `${kind}:${resource.id}`;
          if (claimed.has(key)) continue;
          if (await openIncident(pool, rule, kind, resource)) {
            opened += 1;
            log.info({ rule: rule.name, kind, resource: resource.id }, 'incident rule opened an incident');
          }
          if (spec.breakOnMatch) claimed.add(key);
        }
      }
      if (spec.ageMillis === 0) {
        await pool.query('DELETE FROM incident_rule_resources WHERE incident_rule_id = $1 AND healthy_since IS NULL', [rule.id]);
      }
      return false;
    });
    if (stopped) return { rules: rules.length, opened, closed: 0, skipped: broken };
  }
  const closed = signal?.aborted ? 0 : await autoCloseIncidents(pool, rules, log);
  return { rules: rules.length, opened, closed, skipped: broken };
}
