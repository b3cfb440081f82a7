import type pg from 'pg';
import { inTransaction } from '../../../platform/jobs/db';
import { incidentStatusChanged } from '../events';
import type { Logger } from '../../../platform/logger';
import type { StoredRule } from './rules';

/**
 * When the resource of each incident a rule opened is healthy now, and since when: a check from the time
 * it turned healthy, a component or config item from the first evaluation that saw it healthy.
 */
const HEALTHY_AT = `CASE i.source_kind
  WHEN 'check' THEN (SELECT CASE WHEN c.status = 'healthy' THEN coalesce(c.last_transition_time, now()) END FROM checks c WHERE c.id = i.source_id AND c.deleted_at IS NULL)
  WHEN 'component' THEN (SELECT CASE WHEN c.health = 'healthy' THEN now() END FROM components c WHERE c.id = i.source_id AND c.deleted_at IS NULL)
  WHEN 'config' THEN (SELECT CASE WHEN c.health = 'healthy' THEN now() END FROM config_items c WHERE c.id = i.source_id AND c.deleted_at IS NULL)
END`;

interface Open {
  id: string;
  status: string;
  source_kind: string;
  source_id: string;
  healthy_at: Date | null;
}

/**
 * Mission Control's autoClose and autoResolve: an incident a rule opened is closed (or resolved) once its
 * resource has been healthy again for the timeout. The timeline says the system did it. Answers how many
 * incidents changed.
 */
export async function autoCloseIncidents(pool: pg.Pool, rules: StoredRule[], log: Logger): Promise<number> {
  let changed = 0;
  for (const rule of rules) {
    const { autoCloseMillis, autoResolveMillis } = rule.spec;
    if (autoCloseMillis === undefined && autoResolveMillis === undefined) continue;
    const { rows } = await pool.query<Open>(
      `SELECT i.id, i.status, i.source_kind, i.source_id, ${HEALTHY_AT} AS healthy_at
       FROM incidents i WHERE i.incident_rule_id = $1 AND i.status <> 'closed' AND i.source_id IS NOT NULL`,
      [rule.id],
    );
    for (const incident of rows) {
      if (!incident.healthy_at) {
        await pool.query(
          'UPDATE incident_rule_resources SET healthy_since = NULL WHERE incident_rule_id = $1 AND source_kind = $2 AND source_id = $3',
          [rule.id, incident.source_kind, incident.source_id],
        );
        continue;
      }
      const since = await pool.query<{ healthy_for: number }>(
        `INSERT INTO incident_rule_resources (incident_rule_id, source_kind, source_id, healthy_since) VALUES ($1, $2, $3, $4)
         ON CONFLICT (incident_rule_id, source_kind, source_id)
           DO UPDATE SET healthy_since = coalesce(incident_rule_resources.healthy_since, excluded.healthy_since)
         RETURNING extract(epoch FROM now() - healthy_since) * 1000 AS healthy_for`,
        [rule.id, incident.source_kind, incident.source_id, incident.healthy_at],
      );
      const healthyFor = Number(since.rows[0]?.healthy_for ?? 0);
      const status =
        autoCloseMillis !== undefined && healthyFor >= autoCloseMillis
          ? 'closed'
          : autoResolveMillis !== undefined && healthyFor >= autoResolveMillis && incident.status !== 'resolved'
            ? 'resolved'
            : undefined;
      if (!status) continue;
      await inTransaction(pool, async (client) => {
        // The status and its incident.status.<status> event in one transaction; the previous status is the locked row's.
        const before = await client.query<{ status: string }>('SELECT status FROM incidents WHERE id = $1 FOR UPDATE', [incident.id]);
        const from = before.rows[0]?.status;
        await client.query('UPDATE incidents SET status = $2 WHERE id = $1', [incident.id, status]);
        if (from !== undefined) await incidentStatusChanged(client, [{ id: incident.id, from, to: status }]);
        // A later failure of the same resource counts its recovery afresh.
        if (status === 'closed') await client.query('UPDATE incident_rule_resources SET healthy_since = NULL WHERE incident_rule_id = $1 AND source_kind = $2 AND source_id = $3', [
          rule.id,
          incident.source_kind,
          incident.source_id,
        ]);
      });
      changed += 1;
      log.info({ rule: rule.name, incident: incident.id, status }, `incident rule ${status} an incident whose resource is healthy again`);
    }
  }
  return changed;
}
