import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context';
import { route } from '../../../platform/http/route';

/** How many dead letters the status answer lists (the newest); failures_total counts all of them. */
const FAILURES_SHOWN = 100;

export function agentStatusRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, {
    method: 'GET',
    url: '/api/agent/status',
    summary: "This agent's push to its upstream: queue depth, last push, last error, rows upstream refused",
    access: { resource: 'database', action: 'read' },
    tags: ['agents'],
    handler: async () => {
      const [queue, state, failures] = await Promise.all([
        ctx.pool.query<{ depth: string; oldest: Date | null }>('SELECT count(*)::text AS depth, min(queued_at) AS oldest FROM agent_push_queue'),
        ctx.pool.query<{
          agent_id: string | null;
          last_push_at: Date | null;
          last_success_at: Date | null;
          last_error: string | null;
          last_error_at: Date | null;
          pushed_total: string;
          deleted_total: string;
          pushes_total: string;
        }>('SELECT agent_id, last_push_at, last_success_at, last_error, last_error_at, pushed_total::text, deleted_total::text, pushes_total::text FROM agent_push_state'),
        ctx.pool.query<{ total: string; items: Array<Record<string, unknown>> | null }>(
          `SELECT (SELECT count(*) FROM agent_push_failures)::text AS total,
                  (SELECT jsonb_agg(jsonb_build_object('id', f.id, 'table', f.table_name, 'key', f.row_key, 'op', f.op, 'reason', f.reason, 'failed_at', f.failed_at) ORDER BY f.failed_at DESC, f.id DESC)
                     FROM (SELECT * FROM agent_push_failures ORDER BY failed_at DESC, id DESC LIMIT ${FAILURES_SHOWN}) f) AS items`,
        ),
      ]);
      const row = state.rows[0];
      const upstream = ctx.config.upstream;
      return {
        upstream: upstream?.url ?? null,
        agent_name: upstream?.agentName ?? null,
        agent_id: upstream ? (row?.agent_id ?? null) : null,
        queue_depth: Number(queue.rows[0]?.depth ?? 0),
        oldest_queued_at: queue.rows[0]?.oldest?.toISOString() ?? null,
        last_push_at: row?.last_push_at?.toISOString() ?? null,
        last_success_at: row?.last_success_at?.toISOString() ?? null,
        last_error: row?.last_error ?? null,
        last_error_at: row?.last_error_at?.toISOString() ?? null,
        pushed_total: Number(row?.pushed_total ?? 0),
        deleted_total: Number(row?.deleted_total ?? 0),
        pushes_total: Number(row?.pushes_total ?? 0),
        failures_total: Number(failures.rows[0]?.total ?? 0),
        failures: failures.rows[0]?.items ?? [],
      };
    },
  });
}
