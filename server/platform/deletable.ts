import type pg from 'pg';
import type { Resource } from '../../common/rbac';
import { decide } from './auth/decide';
import type { Actor } from './auth/types';
import { AppError } from './http/errors';

/** The tables of resources an agent may push up (canaries, scrapers, topologies: migration 0028). */
type AgentTable = 'canaries' | 'config_scrapers' | 'topologies';

/**
 * Whether the console's delete of a canary, scraper or topology may go ahead: it must exist; one an agent
 * runs and pushes here is deleted on that agent (else its next push brings it back); one from elsewhere
 * (a CRD, a file, git) is deleted there, unless an admin insists. Throws the answer otherwise.
 */
export async function assertDeletable(pool: pg.Pool, options: { table: AgentTable; id: string; noun: string; resource: Resource; actor: Actor | undefined }): Promise<void> {
  const { rows } = await pool.query<{ source: string; pushed_by: string | null }>(
    `SELECT t.source, (SELECT a.name FROM agents a WHERE a.id = t.agent_id AND NOT t.upstream_origin AND t.agent_id <> '00000000-0000-0000-0000-000000000000') AS pushed_by
       FROM ${options.table} t WHERE t.id = $1 AND t.deleted_at IS NULL`,
    [options.id],
  );
  const row = rows[0];
  if (!row) throw new AppError('not_found', `${options.noun} ${options.id} not found`);
  if (row.pushed_by !== null) throw new AppError('conflict', `this ${options.noun} runs on the agent "${row.pushed_by}", which pushes it here: delete it on that agent`);
  const admin = options.actor !== undefined && options.actor.roles.includes('admin') && decide(options.actor, options.resource, 'delete').allowed;
  if (row.source !== 'UI' && !admin) throw new AppError('conflict', `this ${options.noun} comes from ${row.source}: delete it there`);
}
