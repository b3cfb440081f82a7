import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { inOrganizationOf } from '../../platform/db/tenant';
import { isRecord } from '../../platform/errors';
import { AppError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { headerText, sameToken, webhookPayload } from '../../platform/http/webhook-payload';
import { loadCanary } from './canaries';
import { webhookCheck } from './checks/webhook';
import { checkMetricsOf } from './check-metrics';
import { applyExpressions, recordOutcome, type RunnableCheck } from './runner';
import { parseCanarySpec } from './spec';
import type { CheckOutcome } from './types';

/** Alertmanager and CI payloads run to tens of KiB; a megabyte is plenty and bounds a public endpoint. */
const BODY_LIMIT = 1024 * 1024;
/** What of a body is kept with each result (the variables see all of it). */
const KEPT_BODY = 16 * 1024;

const PASSING = new Set(['healthy', 'pass', 'passed', 'passing', 'ok', 'success', 'succeeded', 'up']);
const FAILING = new Set(['unhealthy', 'fail', 'failed', 'failing', 'error', 'failure', 'down']);

const query = z.object({
  token: z.string().optional(),
  pass: z.enum(['true', 'false'], { message: 'must be true or false' }).optional(),
  status: z.string().max(100).optional(),
  message: z.string().max(4000).optional(),
  error: z.string().max(4000).optional(),
});

interface WebhookRow extends RunnableCheck {
  canary_id: string;
  organization_id: string | null;
}

async function findCheck(ctx: AppContext, id: string): Promise<WebhookRow> {
  // canary-checker finds a webhook by its check id or by its name; a name must then be unique.
  const { rows } = await ctx.pool.query<WebhookRow>(
    `SELECT c.id, c.key, c.type, c.name, c.namespace, c.description, c.icon, c.endpoint, c.labels, c.spec, c.canary_id, c.organization_id
       FROM checks c JOIN canaries k ON k.id = c.canary_id AND k.deleted_at IS NULL
      WHERE c.type = 'webhook' AND c.deleted_at IS NULL AND c.transformed_from IS NULL AND (c.id::text = $1 OR c.name = $1)
      ORDER BY (c.id::text = $1) DESC`,
    [id],
  );
  const first = rows[0];
  if (!first) throw new AppError('not_found', `no webhook check has the id or name "${id}"`);
  if (first.id !== id && rows.length > 1) {
    throw new AppError('invalid_request', `${rows.length} webhook checks are named "${id}": post to /webhook/{check id} instead`);
  }
  return first;
}

export { headerText, sameToken, webhookPayload };

/**
 * The verdict a post carries, by convention (canary-checker itself records every post as passing and
 * leaves the rest to test/transform): `pass` (true/false), else a `status` such as healthy/unhealthy, ok,
 * failed; a non-empty `error` fails. Query parameters win over the JSON body's fields.
 */
function verdict(json: unknown, sent: z.infer<typeof query>): { pass: boolean; message: string; error: string | null } {
  const body = isRecord(json) ? json : {};
  const pick = (name: 'pass' | 'status' | 'message' | 'error'): unknown => sent[name] ?? body[name];
  const passField = pick('pass');
  const status = String(pick('status') ?? '').toLowerCase();
  const errorField = pick('error');
  const error = typeof errorField === 'string' && errorField.trim() !== '' ? errorField : null;
  const pass =
    passField === true || passField === 'true' ? true : passField === false || passField === 'false' ? false : PASSING.has(status) ? true : FAILING.has(status) ? false : error === null;
  const messageField = pick('message');
  return { pass, message: typeof messageField === 'string' ? messageField : (error ?? ''), error };
}

function kept(data: { json: unknown; content: string; isJson: boolean }, contentType: string | undefined): Record<string, unknown> {
  const details: Record<string, unknown> = { contentType: contentType ?? null };
  if (data.isJson) {
    if (data.content.length <= KEPT_BODY) details.json = data.json;
    else details.truncated = { size: data.content.length };
  } else if (data.content) {
    details.content = data.content.length > KEPT_BODY ? `${data.content.slice(0, KEPT_BODY)}…` : data.content;
  }
  return details;
}

/**
 * POST /webhook/{id} (canary-checker's route, also under /api/canary/webhook/{id}): a result for a webhook
 * check, found by its id or its unique name. Public, as in canary-checker, but a check with a token refuses
 * posts without it. The post goes through the check's test, display and transform like a run, and is
 * recorded with recordResult, so rollups, transitions and events follow.
 */
export async function webhookRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Any content type is accepted as text: JSON is parsed here (results.json), the rest kept as results.content.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => done(null, body));

  for (const url of ['/webhook/:id', '/api/canary/webhook/:id']) {
    route(app, {
      method: 'POST',
      url,
      summary: 'Posts a result for a webhook check (by check id or unique name); needs its token when it has one',
      tags: ['health'],
      access: 'public',
      bodyLimit: BODY_LIMIT,
      params: z.object({ id: z.string().trim().min(1).max(255) }),
      query,
      handler: async ({ params, query: sent, req }) => {
        const check = await findCheck(ctx, params.id);
        // The post is the check's organization's work (hosted mode): its result, events and notifications are there.
        return inOrganizationOf(check.organization_id, () => receive(ctx, check, params.id, sent, req));
      },
    });
  }
}

/** A post for one webhook check, in its organization's scope: through the check's test, display and transform, then recorded. */
async function receive(ctx: AppContext, check: WebhookRow, id: string, sent: z.infer<typeof query>, req: FastifyRequest) {
  const spec = webhookCheck.parse(check.spec);
  const token = spec.ok && isRecord(spec.spec) && typeof spec.spec.token === 'string' ? spec.spec.token : '';
  if (token !== '' && !sameToken(token, sent.token ?? headerText(req.headers['webhook-token']))) {
    throw new AppError('unauthorized', 'invalid webhook token: send it as ?token= or in the Webhook-Token header');
  }
  const data = webhookPayload(req);
  const { pass, message, error } = verdict(data.json, sent);
  const results = { headers: data.headers, json: data.json, content: data.content };
  const canary = await loadCanary(ctx.pool, check.canary_id);
  if (!canary) throw new AppError('not_found', `no webhook check has the id or name "${id}"`);
  const env = parseCanarySpec(canary.spec, { namespace: canary.namespace }).env;
  const info = { id: canary.id, name: canary.name, namespace: canary.namespace, labels: canary.labels, env };
  const outcome: CheckOutcome = { pass, message, ...(error ? { error } : {}), data: { results }, details: kept(data, data.headers['content-type']) };
  const result = applyExpressions(check, info, outcome, 0, new Date());
  await recordOutcome({ pool: ctx.pool, log: ctx.log, metrics: checkMetricsOf(ctx.metrics.registry) }, check, info, result);
  return {
    message: 'ok',
    check_id: check.id,
    status: result.result.pass ? 'healthy' : 'unhealthy',
    result_message: result.result.message,
    transformed: result.transformed?.length ?? 0,
  };
}
