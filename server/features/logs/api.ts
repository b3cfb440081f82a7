import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { LOGS_DEFAULT_RANGE, LOGS_LIMIT_DEFAULT, LOGS_LIMIT_MAX } from '../../../common/logs';
import type { AppContext } from '../../platform/context';
import { ValidationError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { specRowRoutes } from '../../platform/spec-rows';
import { parseInstant } from '../../platform/instants';
import { LOG_BACKENDS, resolveTarget, targetFiles } from './backends';
import { searchLogFiles } from './search';

/** A time: an ISO 8601 instant, or a duration before now (`15m`, `1h`, `7d`, `now-1h`), as the health and catalog APIs read it. */
const when = z
  .string()
  .trim()
  .min(1)
  .refine((value) => parseInstant(value, new Date()) !== undefined, 'must be an ISO 8601 time or a duration before now such as 15m, 1h or 7d');

const at = (value: string, now: Date) => parseInstant(value, now) ?? now;

export const logSearchBody = z.object({
  name: z.string().trim().min(1).max(255).optional(),
  id: z.string().uuid('must be a component id (UUID)').optional(),
  query: z.string().max(1000, 'must be at most 1000 characters').default(''),
  start: when.default(LOGS_DEFAULT_RANGE),
  end: when.optional(),
  limit: z.number().int('must be a whole number').min(1, 'must be at least 1').max(LOGS_LIMIT_MAX, `must be at most ${LOGS_LIMIT_MAX}`).default(LOGS_LIMIT_DEFAULT),
});

/** POST /api/logs (spec §7) and the log backends' writes. */
export function logsApi(app: FastifyInstance, ctx: AppContext): void {
  const { pool } = ctx;

  route(app, {
    method: 'POST',
    url: '/api/logs',
    summary: 'Searches logs: of a component (id) through the backends that hold its logs, or of one backend (name); lines containing query, newest first',
    tags: ['logs'],
    access: { resource: 'logging_backends', action: 'read' },
    body: logSearchBody,
    handler: async ({ body, req }) => {
      const now = new Date();
      const start = at(body.start, now);
      const end = body.end ? at(body.end, now) : now;
      if (start > end) throw new ValidationError([{ path: 'body.start', message: 'must be before end' }]);
      const target = await resolveTarget(pool, body);
      const controller = new AbortController();
      // A search the client gave up on stops reading.
      req.raw.once('close', () => controller.abort());
      const refused: string[] = [];
      const files = await targetFiles(target, controller.signal, refused);
      const found = await searchLogFiles(files, { query: body.query, start, end, limit: body.limit, signal: controller.signal });
      return {
        ...found,
        truncated: [...refused, ...found.truncated],
        start: start.toISOString(),
        end: end.toISOString(),
        backends: target.backends.map((backend) => backend.name),
        ...(target.component ? { component: target.component } : {}),
      };
    },
  });

  specRowRoutes(app, pool, {
    url: '/api/logs/backends',
    table: LOG_BACKENDS,
    access: 'logging_backends',
    tag: 'logs',
    summary: 'files (paths or globs) searched for log lines, and the topology components whose logs they hold',
  });
}
