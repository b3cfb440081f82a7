import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { AppError, ValidationError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { legacyCheck, legacyStatus, RUNNER_NAME, summaryShape, type LegacyStatus } from './canary-shape';
import { checkGraph } from './graph';
import { MAX_RECENT_STATUSES } from './recent';
import { checksSummary, SORT_KEYS, type SummaryRequest } from './summary';
import { parseInstant } from '../../platform/instants';
import { isOneOf } from '../../../common/guards';

/**
 * canary-checker's read endpoints under /api/canary (spec §7 Health): /api/summary, /api and /api/graph,
 * answering in canary-checker's shapes (canary-shape.ts, docs/API.md) with its query parameters and
 * defaults (start/since and end/until, 1h back to now).
 */

const uuid = z.uuid({ message: 'must be a UUID' });
const bool = z.union([z.boolean(), z.enum(['true', 'false', 'yes', 'no'])]).transform((value) => value === true || value === 'true' || value === 'yes');
const list = z.union([z.string(), z.array(z.string())]).transform((value) => (Array.isArray(value) ? value : value.split(',')).map((item) => item.trim()).filter(Boolean));
/** `key=value` texts, or canary-checker's map of labels (every one must match). */
const labels = z.union([list, z.record(z.string(), z.string())]).transform((value) => (Array.isArray(value) ? value : Object.entries(value).map(([key, text]) => `${key}=${text}`)));
/** Our sort keys, or canary-checker's `name` / `-name` (a leading '-' sorts descending). */
const sortBy = z
  .string()
  .transform((value, ctx) => {
    const key = value.replace(/^-/, '');
    if (isOneOf(SORT_KEYS, key)) return { key, descending: value.startsWith('-') };
    ctx.addIssue({ code: 'custom', message: `must be one of ${SORT_KEYS.join(', ')} (a leading - sorts descending)` });
    return z.NEVER;
  });

const rangeFields = {
  start: z.string().optional(),
  end: z.string().optional(),
  /** canary-checker's names for start and end. */
  since: z.string().optional(),
  until: z.string().optional(),
};

/** The summary's filters, from the query string (GET) or the body (POST). */
const summaryInput = z.object({
  ...rangeFields,
  query: z.string().max(2000).optional(),
  labels: labels.optional(),
  health: z.enum(['healthy', 'unhealthy']).optional(),
  hidePassing: bool.optional(),
  agentId: uuid.optional(),
  canaryId: uuid.optional(),
  checkId: list.pipe(z.array(uuid)).optional(),
  sortBy: sortBy.optional(),
  sortDesc: bool.optional(),
  limit: z.coerce.number().int().min(1).max(20_000).default(5000),
  offset: z.coerce.number().int().min(0).default(0),
  /** Ours: each listed check's newest this many results (`recent_statuses`), as the Health list's strip shows them. */
  recent: z.coerce.number().int({ message: 'must be a whole number' }).min(0, { message: 'must be 0 or more' }).max(MAX_RECENT_STATUSES, { message: `must be at most ${MAX_RECENT_STATUSES}` }).optional(),
});

/** canary-checker's /api: the summary's filters and its own (check, canary_id, count, includeMessages). */
const legacyInput = summaryInput.extend({
  check: uuid.optional(),
  canary_id: uuid.optional(),
  count: z.coerce.number().int().min(0).max(1000).default(5),
  includeMessages: bool.optional(),
});

type RangeInput = { start?: string | undefined; end?: string | undefined; since?: string | undefined; until?: string | undefined };

/** The range asked for: `start` (or `since`) back to `end` (or `until`); 1h back to now by default. */
function range(input: RangeInput): { from: Date; to: Date } {
  const now = new Date();
  const startField = input.start === undefined && input.since !== undefined ? 'since' : 'start';
  const endField = input.end === undefined && input.until !== undefined ? 'until' : 'end';
  const to = parseInstant(input.end ?? input.until, now);
  const from = parseInstant(input.start ?? input.since ?? '1h', now);
  const issues = [];
  if (!from) issues.push({ path: startField, message: 'must be a duration such as 1h or 30d, or a date-time' });
  if (!to) issues.push({ path: endField, message: 'must be "now", a duration such as 0s or 1h, or a date-time' });
  if (from && to && from.getTime() >= to.getTime()) issues.push({ path: startField, message: `must be before ${endField}` });
  if (issues.length > 0 || !from || !to) throw new ValidationError(issues);
  return { from, to };
}

function summaryRequest(input: z.infer<typeof summaryInput>, extra: { checkIds?: string[] | undefined; canaryId?: string | undefined } = {}): SummaryRequest {
  const { from, to } = range(input);
  return {
    from,
    to,
    query: input.query,
    labels: input.labels,
    health: input.health,
    hidePassing: input.hidePassing,
    agentId: input.agentId,
    canaryId: extra.canaryId ?? input.canaryId,
    checkIds: extra.checkIds ?? input.checkId,
    sortBy: input.sortBy?.key,
    sortDesc: input.sortDesc ?? input.sortBy?.descending,
    limit: input.limit,
    offset: input.offset,
    recent: input.recent,
  };
}

/** The newest `count` results of each check within the range, newest first. */
async function latestStatuses(pool: pg.Pool, ids: string[], from: Date, to: Date, count: number, withMessages: boolean): Promise<Map<string, LegacyStatus[]>> {
  const byCheck = new Map<string, LegacyStatus[]>(ids.map((id) => [id, []]));
  if (ids.length === 0 || count === 0) return byCheck;
  const { rows } = await pool.query<{ check_id: string; time: Date; status: boolean; invalid: boolean; duration: number; message: string | null; error: string | null }>(
    `SELECT c.id AS check_id, s.time, s.status, s.invalid, s.duration, s.message, s.error
       FROM unnest($1::uuid[]) AS c(id)
       CROSS JOIN LATERAL (SELECT time, status, invalid, duration, message, error FROM check_statuses
                            WHERE check_id = c.id AND time >= $2 AND time <= $3 ORDER BY time DESC LIMIT $4) s
      ORDER BY c.id, s.time DESC`,
    [ids, from, to, count],
  );
  for (const row of rows) byCheck.get(row.check_id)?.push(legacyStatus(row, withMessages));
  return byCheck;
}

export function canaryCheckerApi(app: FastifyInstance, ctx: AppContext): void {
  const { pool } = ctx;

  for (const method of ['GET', 'POST'] as const) {
    route(app, {
      method,
      url: '/api/canary/api/summary',
      summary: "Every check that matches, with uptime and latency over the range (canary-checker's checks_summary)",
      tags: ['health'],
      access: { resource: 'canaries', action: 'read' },
      ...(method === 'GET' ? { query: summaryInput } : { body: summaryInput }),
      handler: async ({ query, body }) => {
        const input = method === 'GET' ? query : body;
        if (!input) throw new AppError('invalid_request', 'no filters');
        return summaryShape(await checksSummary(pool, summaryRequest(input)));
      },
    });

    route(app, {
      method,
      url: '/api/canary/api',
      summary: "canary-checker's /api: the checks with their newest results (checks), and the summary (checks_summary)",
      tags: ['health'],
      access: { resource: 'canaries', action: 'read' },
      ...(method === 'GET' ? { query: legacyInput } : { body: legacyInput }),
      handler: async ({ query, body }) => {
        const input = method === 'GET' ? query : body;
        if (!input) throw new AppError('invalid_request', 'no filters');
        const request = summaryRequest(input, { checkIds: input.check ? [input.check] : undefined, canaryId: input.canary_id });
        const answer = await checksSummary(pool, request);
        const statuses = await latestStatuses(pool, answer.checks_summary.map((check) => check.id), request.from, request.to, input.count, input.includeMessages ?? false);
        return { ...summaryShape(answer), checks: answer.checks_summary.map((check) => legacyCheck(check, statuses.get(check.id) ?? [])), runnerName: RUNNER_NAME };
      },
    });
  }

  route(app, {
    method: 'GET',
    url: '/api/canary/api/graph',
    summary: "One check's results over a range in at most 300 buckets, with its latency percentiles and uptime (canary-checker's graph)",
    tags: ['health'],
    access: { resource: 'canaries', action: 'read' },
    query: z.object({ check: uuid, ...rangeFields }),
    handler: async ({ query }) => {
      const { from, to } = range(query);
      return checkGraph(pool, query.check, from, to);
    },
  });
}
