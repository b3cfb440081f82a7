import type pg from 'pg';
import { runningVersion } from '../../platform/version';
import { NIL_AGENT } from './tables';

/**
 * The local agent (spec §3: the nil uuid is this instance) in the shape of an agents_summary row, which
 * leaves it out: Jobs History links every local run to /settings/agents?id=<nil uuid>, and that page shows
 * this. It is online by definition (it answers), its version is this server's, and the counts are of what
 * this instance runs itself, as agents_summary counts an agent's (migration 0025).
 */
export async function localAgentSummary(pool: pg.Pool) {
  const { rows } = await pool.query<{
    name: string | null;
    description: string | null;
    properties: Record<string, unknown> | null;
    created_at: Date | null;
    checks: number;
    configs: number;
    canaries: number;
    scrapers: number;
    topologies: number;
  }>(
    `SELECT a.name, a.description, a.properties, a.created_at,
       (SELECT count(*) FROM checks c WHERE c.agent_id = $1 AND c.deleted_at IS NULL)::int AS checks,
       (SELECT count(*) FROM config_items ci WHERE ci.agent_id = $1 AND ci.deleted_at IS NULL)::int AS configs,
       (SELECT count(*) FROM canaries ca WHERE ca.agent_id = $1 AND ca.deleted_at IS NULL)::int AS canaries,
       (SELECT count(*) FROM config_scrapers s WHERE s.agent_id = $1 AND s.deleted_at IS NULL)::int AS scrapers,
       (SELECT count(*) FROM topologies t WHERE t.agent_id = $1 AND t.deleted_at IS NULL)::int AS topologies
     FROM (SELECT 1) one LEFT JOIN agents a ON a.id = $1`,
    [NIL_AGENT],
  );
  // The row is seeded by migration 0001; an organization's scope may not see it (it belongs to none).
  const row = rows[0];
  return {
    id: NIL_AGENT,
    name: row?.name ?? 'local',
    description: row?.description ?? 'This instance',
    properties: row?.properties ?? {},
    hostname: null,
    version: runningVersion().backend,
    last_seen: null,
    last_received: null,
    created_at: row?.created_at?.toISOString() ?? null,
    health: 'online',
    local: true,
    checks: row?.checks ?? 0,
    configs: row?.configs ?? 0,
    canaries: row?.canaries ?? 0,
    scrapers: row?.scrapers ?? 0,
    topologies: row?.topologies ?? 0,
  };
}
