import type pg from 'pg';
import { z } from 'zod';
import { LOGS_LIMIT_MAX } from '../../../common/logs';
import type { Actor } from '../../platform/auth/types';
import { AppError } from '../../platform/http/errors';
import { parseInstant } from '../../platform/instants';
import { type LogFile, resolveTarget, searchLogFiles, targetFiles } from '../logs';
import { canaryTargets, componentTarget, configTargets, cursor, mayRead, offsetOf, page, tool, uuid } from './tools-common';

/** The issue: a log line is cut at 2,000 characters in an answer. */
const MAX_LINE = 2000;
/** Components of one resource whose logs are read at most. */
const MAX_COMPONENTS = 10;
/** How long finding the files may take. */
const FIND_TIMEOUT_MS = 20_000;

const instant = z.string().max(100).refine((value) => parseInstant(value, new Date()) !== undefined, 'must be an ISO time or a duration such as now-1h or 15m');

interface ComponentRow {
  id: string;
  name: string;
  type: string | null;
  labels: unknown;
  agent_id: string;
}

const COMPONENT_COLUMNS = 'c.id, c.name, c.type, c.labels, c.agent_id';

/** The components whose logs are a resource's: the component itself, or those a config item or check relates to. */
async function componentsOf(pool: pg.Pool, actor: Actor, args: { config_id?: string | undefined; component_id?: string | undefined; check_id?: string | undefined }): Promise<ComponentRow[]> {
  if (args.component_id) {
    const { rows } = await pool.query<ComponentRow>(`SELECT ${COMPONENT_COLUMNS} FROM components c WHERE c.id = $1 AND c.deleted_at IS NULL`, [args.component_id]);
    return rows;
  }
  if (args.config_id) {
    const target = (await configTargets(pool, [args.config_id])).get(args.config_id);
    if (!target) throw new AppError('not_found', `config item ${args.config_id} not found`);
    if (!mayRead(actor, 'config_scrapers', target)) throw new AppError('forbidden', `you may not read config item ${args.config_id}`);
    const { rows } = await pool.query<ComponentRow>(
      `SELECT ${COMPONENT_COLUMNS} FROM components c JOIN components_with_logs w ON w.id = c.id
       WHERE c.config_id = $1 OR c.id IN (SELECT component_id FROM config_component_relationships WHERE config_id = $1 AND deleted_at IS NULL)
       ORDER BY c.name LIMIT ${MAX_COMPONENTS}`,
      [args.config_id],
    );
    return rows;
  }
  const checkId = args.check_id ?? '';
  const canary = (await canaryTargets(pool, [checkId])).get(checkId);
  if (!canary) throw new AppError('not_found', `check ${checkId} not found`);
  if (!mayRead(actor, 'canaries', canary)) throw new AppError('forbidden', `you may not read check ${checkId}`);
  const { rows } = await pool.query<ComponentRow>(
    `SELECT ${COMPONENT_COLUMNS} FROM components c JOIN components_with_logs w ON w.id = c.id
     WHERE c.id IN (SELECT component_id FROM check_component_relationships WHERE check_id = $1 AND deleted_at IS NULL)
     ORDER BY c.name LIMIT ${MAX_COMPONENTS}`,
    [checkId],
  );
  return rows;
}

export const readLogs = tool({
  name: 'read_logs',
  description: "Log lines of a component, or of a config item's or check's components; newest first.",
  input: {
    component_id: uuid.optional(),
    config_id: uuid.optional(),
    check_id: uuid.optional(),
    query: z.string().max(1000).default('').describe('text to find'),
    from: instant.default('now-1h'),
    to: instant.optional(),
    limit: z.number().int().min(1).max(200).default(50),
    cursor,
  },
  needs: [{ resource: 'logging_backends', action: 'read' }],
  readOnly: true,
  async run(ctx, actor, args) {
    const offset = offsetOf(args.cursor);
    const given = [args.component_id, args.config_id, args.check_id].filter((value) => value !== undefined).length;
    if (given !== 1) throw new AppError('invalid_request', 'component_id: give exactly one of component_id, config_id or check_id');
    const now = new Date();
    const start = parseInstant(args.from, now) ?? now;
    const end = args.to ? (parseInstant(args.to, now) ?? now) : now;
    if (start > end) throw new AppError('invalid_request', 'from: must not be after to');
    const want = offset + args.limit + 1;
    if (want > LOGS_LIMIT_MAX) throw new AppError('invalid_request', `cursor: log pages end at ${LOGS_LIMIT_MAX} lines; narrow the range or the query`);
    const found = await componentsOf(ctx.pool, actor, args);
    if (args.component_id && found.length === 0) throw new AppError('not_found', `component ${args.component_id} not found`);
    // A component's logs are read by whoever may read the component (topologies).
    const components = found.filter((row) => mayRead(actor, 'topologies', componentTarget(row)));
    if (args.component_id && components.length === 0) throw new AppError('forbidden', `you may not read component ${args.component_id}`);
    if (components.length === 0) throw new AppError('not_found', 'no log backend holds the logs of this resource (nor of a component it relates to)');
    const signal = AbortSignal.timeout(FIND_TIMEOUT_MS);
    const files = new Map<string, LogFile>();
    for (const component of components) {
      const target = await resolveTarget(ctx.pool, { id: component.id });
      for (const file of await targetFiles(target, signal)) if (!files.has(file.path)) files.set(file.path, file);
    }
    const result = await searchLogFiles([...files.values()], { query: args.query, start, end, limit: want, signal });
    const several = new Set(result.results.map((line) => line.source)).size > 1;
    const lines = result.results.slice(offset).map((line) => ({
      time: line.time,
      level: line.level,
      message: line.message.length > MAX_LINE ? `${line.message.slice(0, MAX_LINE)}…` : line.message,
      ...(several ? { source: line.source } : {}),
    }));
    return {
      components: components.map((component) => component.name),
      ...(several || result.results.length === 0 ? {} : { source: result.results[0]?.source }),
      total: result.total,
      ...(result.truncated.length > 0 ? { truncated: result.truncated } : {}),
      ...page(lines, offset, args.limit),
    };
  },
});
