import type pg from 'pg';
import type { Resource } from '../../common/rbac';
import { decide } from './auth/decide';
import type { Actor } from './auth/types';
import { AppError } from './http/errors';

/** The tables of resources an agent may push up (canaries, scrapers, topologies: migration 0028). */
export type AgentTable = 'canaries' | 'config_scrapers' | 'topologies';

/** The name of the agent that pushes a row up (its own resource, not one defined here for it); NULL otherwise. */
const PUSHED_BY = `(SELECT a.name FROM agents a WHERE a.id = t.agent_id AND NOT t.upstream_origin AND t.agent_id <> '00000000-0000-0000-0000-000000000000') AS pushed_by`;

/** Why a resource an agent pushes up is not deleted here: its next push would bring it back. */
export function pushedByAgentMessage(noun: string, agent: string): string {
  return `this ${noun} runs on the agent "${agent}", which pushes it here: delete it on that agent`;
}

/** The agents pushing up the given rows (id → agent name); rows of this console are not in it. */
export async function agentsPushing(pool: Pick<pg.Pool, 'query'>, table: AgentTable, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool.query<{ id: string; pushed_by: string | null }>(`SELECT t.id, ${PUSHED_BY} FROM ${table} t WHERE t.id = ANY($1::uuid[])`, [ids]);
  return new Map(rows.flatMap((row) => (row.pushed_by === null ? [] : [[row.id, row.pushed_by] as const])));
}

/**
 * Whether the console's delete of a canary, scraper or topology may go ahead: it must exist; one an agent
 * runs and pushes here is deleted on that agent (else its next push brings it back); one from elsewhere
 * (a CRD, a file, git) is deleted there, unless an admin insists. Throws the answer otherwise.
 */
export async function assertDeletable(pool: pg.Pool, options: { table: AgentTable; id: string; noun: string; resource: Resource; actor: Actor | undefined }): Promise<void> {
  const { rows } = await pool.query<{ source: string; pushed_by: string | null }>(`SELECT t.source, ${PUSHED_BY} FROM ${options.table} t WHERE t.id = $1 AND t.deleted_at IS NULL`, [options.id]);
  const row = rows[0];
  if (!row) throw new AppError('not_found', `${options.noun} ${options.id} not found`);
  if (row.pushed_by !== null) throw new AppError('conflict', pushedByAgentMessage(options.noun, row.pushed_by));
  const admin = options.actor !== undefined && options.actor.roles.includes('admin') && decide(options.actor, options.resource, 'delete').allowed;
  if (row.source !== 'UI' && !admin) throw new AppError('conflict', `this ${options.noun} comes from ${row.source}: delete it there`);
}
