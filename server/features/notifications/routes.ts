import { assertSpecCapabilities } from '../../platform/auth/capabilities';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { AppError, ValidationError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { inTransaction } from '../../platform/jobs/db';
import { deleteConsoleRow, SpecInvalid } from '../../platform/spec-rows';
import { saveNotification } from './rules';
import { checkSilence, saveSilence, SilenceIndex, silenceSchema, toActive } from './silences';
import { loadEventResource, type EventResource } from './resource';
import { resourceName, resourceNamespace } from '../../platform/names';

const uuid = z.string().uuid('must be a UUID');
const tag = 'notifications';

/** A SpecInvalid of a save as the API's 400, each path under `body`. */
async function asValidation<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SpecInvalid) throw new ValidationError(error.problems.map((problem) => ({ path: `body.${problem.path}`, message: problem.message })));
    throw error;
  }
}

const ruleBody = z.object({
  name: resourceName,
  namespace: resourceNamespace.default('default'),
  labels: z.record(z.string(), z.string()).default({}),
  spec: z.record(z.string(), z.unknown(), { message: 'must be a mapping' }),
});

const HISTORY_PREVIEW_DAYS = 7;

/**
 * /api/notifications (rules made in the console), POST /api/notification/summary (counts over a range),
 * POST /api/notification/silence (+ /preview) and DELETE /api/notification/silence/{id}. Reads are /api/db.
 */
export function notificationRoutes(app: FastifyInstance, ctx: AppContext, onChange: () => void): void {
  const { pool } = ctx;

  route(app, {
    method: 'POST',
    url: '/api/notifications',
    summary: 'Creates a notification rule (kind Notification spec): checked whole, recipients looked up',
    tags: [tag],
    access: { resource: 'notifications', action: 'create' },
    body: ruleBody,
    handler: async ({ body, req, reply }) => {
      // Capabilities (docs/SECURITY.md): sending through a stored connection needs its author to hold connection_use.
      await assertSpecCapabilities(pool, req.actor, body.spec, body.namespace ?? 'default');
      const saved = await asValidation(() => inTransaction(pool, (client) => saveNotification(client, { ...body, source: 'UI', createdBy: req.actor?.id }, { createOnly: true })));
      onChange();
      return reply.status(201).send(saved);
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/notifications/:id',
    summary: 'Replaces the spec of a rule made in the console (name and namespace stay)',
    tags: [tag],
    access: { resource: 'notifications', action: 'update' },
    params: z.object({ id: uuid }),
    body: ruleBody.extend({ name: ruleBody.shape.name.optional(), namespace: z.string().trim().min(1).max(255).optional(), labels: z.record(z.string(), z.string()).optional() }),
    handler: async ({ params, body, req }) => {
      const { rows } = await pool.query<{ name: string; namespace: string; labels: Record<string, string> }>('SELECT name, namespace, labels FROM notifications WHERE id = $1 AND deleted_at IS NULL', [params.id]);
      const current = rows[0];
      if (!current) throw new AppError('not_found', `notification ${params.id} not found`);
      await assertSpecCapabilities(pool, req.actor, body.spec, current.namespace);
      const saved = await asValidation(() =>
        inTransaction(pool, (client) => saveNotification(client, { name: current.name, namespace: current.namespace, labels: body.labels ?? current.labels, spec: body.spec, source: 'UI', createdBy: req.actor?.id }, { id: params.id })),
      );
      onChange();
      return saved;
    },
  });

  route(app, {
    method: 'PATCH',
    url: '/api/notifications/:id',
    summary: 'Enables or disables a rule (any source): a disabled rule records nothing and sends nothing',
    tags: [tag],
    access: { resource: 'notifications', action: 'update' },
    params: z.object({ id: uuid }),
    body: z.object({ disabled: z.boolean({ message: 'must be true or false' }) }).strict(),
    handler: async ({ params, body }) => {
      const { rows } = await pool.query<{ id: string; disabled: boolean }>('UPDATE notifications SET disabled = $2 WHERE id = $1 AND deleted_at IS NULL RETURNING id, disabled', [params.id, body.disabled]);
      if (!rows[0]) throw new AppError('not_found', `notification ${params.id} not found`);
      onChange();
      return { ...rows[0], message: 'Notification updated successfully' };
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/notifications/:id',
    summary: 'Deletes a rule made in the console (its send history stays readable until retention)',
    tags: [tag],
    access: { resource: 'notifications', action: 'delete' },
    params: z.object({ id: uuid }),
    handler: async ({ params }) => {
      await deleteConsoleRow(pool, 'notifications', 'notification', params.id);
      onChange();
      return { message: 'success' };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/notification/summary',
    summary: 'Per rule: sent, failed, pending, silenced and suppressed counts and the last send within a time range',
    tags: [tag],
    access: { resource: 'notifications', action: 'read' },
    body: z
      .object({
        from: z.string().datetime({ offset: true, message: 'must be an RFC 3339 time' }).optional(),
        to: z.string().datetime({ offset: true, message: 'must be an RFC 3339 time' }).optional(),
        notification_ids: z.array(uuid).max(1_000).optional(),
      })
      .strict()
      .default({}),
    handler: async ({ body }) => {
      const { rows } = await pool.query(
        `SELECT n.id AS notification_id,
                count(h.id) FILTER (WHERE h.status = 'sent')::int AS sent,
                count(h.id) FILTER (WHERE h.status = 'error')::int AS failed,
                count(h.id) FILTER (WHERE h.status IN ('pending', 'evaluating-waitfor', 'attempting_fallback', 'pending_playbook_run', 'pending_playbook_completion'))::int AS pending,
                count(h.id) FILTER (WHERE h.status = 'silenced')::int AS silenced,
                count(h.id) FILTER (WHERE h.status IN ('repeat-interval', 'inhibited', 'skipped', 'grouped'))::int AS suppressed,
                max(h.created_at) FILTER (WHERE h.status = 'sent') AS last_sent
           FROM notifications n
           LEFT JOIN notification_send_history h ON h.notification_id = n.id
             AND ($1::timestamptz IS NULL OR h.created_at >= $1) AND ($2::timestamptz IS NULL OR h.created_at <= $2)
          WHERE n.deleted_at IS NULL AND ($3::uuid[] IS NULL OR n.id = ANY($3::uuid[]))
          GROUP BY n.id`,
        [body.from ?? null, body.to ?? null, body.notification_ids ?? null],
      );
      return rows;
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/notification/silence',
    summary: "Silences notifications about a check, config, component or canary (recursive: and its children), by CEL filter or by selectors, from a time until another ('indefinitely' is no end)",
    tags: [tag],
    access: { resource: 'notifications', action: 'create' },
    body: silenceSchema,
    handler: async ({ body, req, reply }) => {
      const saved = await asValidation(() => inTransaction(pool, async (client) => saveSilence(client, await checkSilence(client, body, 'body'), 'UI', req.actor?.id)));
      onChange();
      return reply.status(201).send(saved);
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/notification/silence/preview',
    summary: `The send history of the last ${HISTORY_PREVIEW_DAYS} days that a silence would have matched (nothing is saved)`,
    tags: [tag],
    access: { resource: 'notifications', action: 'read' },
    body: silenceSchema,
    handler: async ({ body }) => {
      const checked = await asValidation(() => checkSilence(pool, { ...body, from: null, until: 'indefinitely' }, 'body'));
      const index = new SilenceIndex([toActive({ ...checked.values, id: 'preview', name: 'preview', from: new Date(0), until: null })]);
      const { rows } = await pool.query<{ id: string; resource_id: string; resource_type: EventResource['kind']; resource_name: string | null; resource_kind: string | null }>(
        `SELECT id, resource_id, resource_type, resource_name, resource_kind FROM notification_send_history
          WHERE created_at > now() - interval '${HISTORY_PREVIEW_DAYS} days' AND resource_type IN ('check', 'config', 'component')
          ORDER BY created_at DESC LIMIT 5000`,
      );
      const cache = new Map<string, EventResource | undefined>();
      const matched: string[] = [];
      for (const row of rows) {
        const key = `${row.resource_type}:${row.resource_id}`;
        if (!cache.has(key)) cache.set(key, await loadEventResource(pool, { name: `${row.resource_type}.preview`, properties: { id: row.resource_id } }, ctx.config.publicUrl));
        const resource = cache.get(key);
        if (resource && index.match(resource)) matched.push(row.id);
      }
      const shown = matched.slice(0, 100);
      const history = shown.length > 0 ? (await pool.query('SELECT * FROM notification_send_history_summary WHERE id = ANY($1::uuid[]) ORDER BY created_at DESC', [shown])).rows : [];
      return { total: matched.length, rows: history, warnings: checked.warnings };
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/notification/silence/:id',
    summary: 'Deletes a silence made in the console (notifications it held back stay as they were recorded)',
    tags: [tag],
    access: { resource: 'notifications', action: 'delete' },
    params: z.object({ id: uuid }),
    handler: async ({ params }) => {
      await deleteConsoleRow(pool, 'notification_silences', 'silence', params.id);
      onChange();
      return { message: 'success' };
    },
  });
}
