import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { allows } from '../../platform/auth/decide';
import type { Actor, AccessTarget } from '../../platform/auth/types';
import type { AppContext } from '../../platform/context';
import { inOrganizationOf } from '../../platform/db/tenant';
import { isRecord } from '../../platform/errors';
import { AppError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { inTransaction } from '../../platform/jobs/db';
import { secretStore } from '../../platform/secrets';
import { resolveEnvVar } from '../../platform/secrets/resolve';
import { specRowRoutes } from '../../platform/spec-rows';
import { parseDuration } from '../../platform/units';
import { headerText, sameToken, webhookPayload } from '../../platform/http/webhook-payload';
import { renderDefault } from './parameters';
import { playbookTable, savePlaybook } from './playbooks';
import { approveRun, cancelRun, createRun, defaultsData, loadPlaybook, revealParameters, runnableSpec, type PlaybookRow } from './runs';
import { checkPlaybookSpec, playbookSpecJsonSchema, type EnvVarSpec, type WebhookTriggerSpec } from './spec';
import { exclusionOf, loadTarget, targetOf, type RunTarget } from './targets';

const tag = 'playbooks';
const uuid = z.string().uuid('must be a UUID');
const targetQuery = z.object({ config_id: uuid.optional(), component_id: uuid.optional(), check_id: uuid.optional() });

function playbookTarget(playbook: Pick<PlaybookRow, 'id' | 'name' | 'namespace'>): AccessTarget {
  return { kind: 'playbook', id: playbook.id, name: playbook.name, namespace: playbook.namespace };
}

function requireActor(actor: Actor | undefined): Actor {
  if (!actor) throw new AppError('unauthorized', 'sign in first');
  return actor;
}

/** Spec §6: running needs playbook:run on playbook_runs (the run menu's guard), for this playbook. */
function assertMay(actor: Actor, action: 'playbook:run' | 'playbook:approve', playbook: Pick<PlaybookRow, 'id' | 'name' | 'namespace'>): void {
  if (!allows(actor, 'playbook_runs', action, playbookTarget(playbook))) {
    throw new AppError('forbidden', `${action === 'playbook:run' ? 'running' : 'approving'} the playbook ${playbook.namespace}/${playbook.name} needs the ${action} permission`);
  }
}

async function targetFor(ctx: AppContext, query: z.infer<typeof targetQuery>): Promise<RunTarget | undefined> {
  const wanted = targetOf(query);
  if (!wanted) return undefined;
  const target = await loadTarget(ctx.pool, wanted.kind, wanted.id);
  if (!target) throw new AppError('not_found', `${wanted.kind === 'config' ? 'config item' : wanted.kind} ${wanted.id} not found`);
  return target;
}

async function runOf(ctx: AppContext, id: string): Promise<{ id: string; playbook_id: string; name: string; namespace: string }> {
  const { rows } = await ctx.pool.query<{ id: string; playbook_id: string; name: string; namespace: string }>(
    'SELECT r.id, r.playbook_id, p.name, p.namespace FROM playbook_runs r JOIN playbooks p ON p.id = r.playbook_id WHERE r.id = $1',
    [id],
  );
  const run = rows[0];
  if (!run) throw new AppError('not_found', `playbook run ${id} not found`);
  return run;
}

/**
 * /api/playbooks (editor saves), /api/playbook/list, /{id}/params, /run, /run/approve|cancel|rerun/{id}
 * (spec §7 Playbooks) and the webhook trigger /api/playbook/webhook/{path}. Reads are /api/db.
 */
export async function playbookRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { pool } = ctx;
  const secrets = secretStore(pool);

  specRowRoutes(app, pool, {
    url: '/api/playbooks',
    table: playbookTable,
    access: 'playbooks',
    tag,
    summary: 'a kind: Playbook spec, checked whole (every problem by path), fields not run named in warnings',
    save: (client, input, options) => savePlaybook(client, input, options),
  });

  route(app, {
    method: 'GET',
    url: '/api/playbook/schema',
    summary: 'JSON schema of a Playbook spec, for editors',
    tags: [tag],
    access: { resource: 'playbooks', action: 'read' },
    handler: () => playbookSpecJsonSchema(),
  });

  route(app, {
    method: 'POST',
    url: '/api/playbook/validate',
    summary: 'Checks a playbook spec without saving it: its errors (by path) and warnings',
    tags: [tag],
    access: { resource: 'playbooks', action: 'read' },
    body: z.object({ spec: z.unknown() }),
    handler: ({ body }) => {
      if (!isRecord(body.spec)) return { errors: [{ path: 'spec', message: 'must be a mapping' }], warnings: [] };
      const { problems, checked } = checkPlaybookSpec(body.spec);
      return { errors: problems, warnings: checked?.warnings ?? [] };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/playbook/list',
    summary: 'The playbooks the caller may run on a resource (config_id, component_id or check_id), or every one',
    tags: [tag],
    access: { resource: 'playbooks', action: 'read' },
    query: targetQuery,
    handler: async ({ query, req }) => {
      const target = await targetFor(ctx, query);
      const { rows } = await pool.query<PlaybookRow & { icon: string | null; category: string; description: string | null }>(
        'SELECT id, name, namespace, title, icon, category, description, spec FROM playbooks WHERE deleted_at IS NULL ORDER BY category, coalesce(nullif(title, \'\'), name)',
      );
      const out = [];
      for (const row of rows) {
        const checked = checkPlaybookSpec(row.spec).checked;
        if (!checked) continue;
        if (target && exclusionOf(checked.spec, target)) continue;
        if (!allows(req.actor, 'playbook_runs', 'playbook:run', playbookTarget(row))) continue;
        out.push({ id: row.id, name: row.name, namespace: row.namespace, title: row.title, icon: row.icon, category: row.category, description: row.description, parameters: checked.spec.parameters ?? [] });
      }
      return out;
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/playbook/:id/params',
    summary: "A playbook's parameters with their defaults rendered for the resource",
    tags: [tag],
    access: { resource: 'playbooks', action: 'read' },
    params: z.object({ id: uuid }),
    query: targetQuery,
    handler: async ({ params, query, req }) => {
      const playbook = await loadPlaybook(pool, params.id);
      const spec = runnableSpec(playbook);
      const target = await targetFor(ctx, query);
      const data = defaultsData(target, req.actor ? { id: req.actor.id, name: req.actor.name, email: req.actor.email } : undefined);
      return {
        params: (spec.parameters ?? []).map((parameter) => ({ ...parameter, label: parameter.label ?? parameter.name, type: parameter.type ?? 'text', default: renderDefault(parameter, data) })),
        ...(target ? { excluded: exclusionOf(spec, target) ?? null } : {}),
      };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/playbook/run',
    summary: 'Runs a playbook (on a resource), answering run_id; parameters checked (spec §5), nothing written on a problem',
    tags: [tag],
    access: 'authenticated',
    body: z.object({
      id: uuid,
      config_id: uuid.nullish(),
      component_id: uuid.nullish(),
      check_id: uuid.nullish(),
      params: z.record(z.string(), z.unknown()).default({}),
    }),
    handler: async ({ body, req, reply }) => {
      const actor = requireActor(req.actor);
      const playbook = await loadPlaybook(pool, body.id);
      assertMay(actor, 'playbook:run', playbook);
      const run = await inTransaction(pool, (client) => createRun(client, secrets, { playbookId: body.id, ...body, actor, request: { trigger: 'manual' } }));
      return reply.status(201).send({ run_id: run.id, status: run.status });
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/playbook/run/approve/:id',
    summary: 'Approves a run waiting for approval (needs playbook:approve and to be one of its approvers)',
    tags: [tag],
    access: 'authenticated',
    params: z.object({ id: uuid }),
    handler: async ({ params, req }) => {
      const actor = requireActor(req.actor);
      const run = await runOf(ctx, params.id);
      assertMay(actor, 'playbook:approve', run);
      return inTransaction(pool, (client) => approveRun(client, params.id, actor));
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/playbook/run/cancel/:id',
    summary: 'Cancels a run that has not ended: the action under way is stopped (its whole process group)',
    tags: [tag],
    access: 'authenticated',
    params: z.object({ id: uuid }),
    handler: async ({ params, req }) => {
      const actor = requireActor(req.actor);
      const run = await runOf(ctx, params.id);
      assertMay(actor, 'playbook:run', run);
      return inTransaction(pool, (client) => cancelRun(client, params.id));
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/playbook/run/rerun/:id',
    summary: 'Runs the playbook again on the same resource with the same parameters (secret ones included)',
    tags: [tag],
    access: 'authenticated',
    params: z.object({ id: uuid }),
    handler: async ({ params, req, reply }) => {
      const actor = requireActor(req.actor);
      const { rows } = await pool.query<{ playbook_id: string; config_id: string | null; component_id: string | null; check_id: string | null; parameters: Record<string, string>; secret_parameters: string | null }>(
        'SELECT playbook_id, config_id, component_id, check_id, parameters, secret_parameters FROM playbook_runs WHERE id = $1',
        [params.id],
      );
      const previous = rows[0];
      if (!previous) throw new AppError('not_found', `playbook run ${params.id} not found`);
      const playbook = await loadPlaybook(pool, previous.playbook_id);
      assertMay(actor, 'playbook:run', playbook);
      const run = await inTransaction(pool, (client) =>
        createRun(client, secrets, {
          playbookId: previous.playbook_id,
          config_id: previous.config_id,
          component_id: previous.component_id,
          check_id: previous.check_id,
          params: revealParameters(secrets, previous),
          actor,
          request: { trigger: 'rerun', run_id: params.id },
        }),
      );
      return reply.status(201).send({ run_id: run.id, status: run.status });
    },
  });

  await app.register(async (scope) => webhookRoute(scope, ctx));
}

const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/** Whether the post carries what spec.on.webhook.authentication asks for (none: anyone may post, as Mission Control). */
async function authenticated(ctx: AppContext, namespace: string, auth: WebhookTriggerSpec['authentication'], req: FastifyRequest, content: string): Promise<boolean> {
  if (!auth) return true;
  const secrets = secretStore(ctx.pool);
  const value = (envVar: EnvVarSpec, where: string) => resolveEnvVar(secrets, namespace, envVar, where);
  if (auth.basic) {
    const header = headerText(req.headers.authorization) ?? '';
    if (!header.startsWith('Basic ')) return false;
    const [user, ...rest] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    return sameToken(await value(auth.basic.username, 'spec.on.webhook.authentication.basic.username'), user ?? '') && sameToken(await value(auth.basic.password, 'spec.on.webhook.authentication.basic.password'), rest.join(':'));
  }
  if (auth.github) {
    const signature = headerText(req.headers['x-hub-signature-256']);
    const token = await value(auth.github.token, 'spec.on.webhook.authentication.github.token');
    return sameToken(`sha256=${createHmac('sha256', token).update(content).digest('hex')}`, signature);
  }
  if (auth.svix) {
    const id = headerText(req.headers['svix-id']) ?? headerText(req.headers['webhook-id']);
    const timestamp = headerText(req.headers['svix-timestamp']) ?? headerText(req.headers['webhook-timestamp']);
    const signatures = (headerText(req.headers['svix-signature']) ?? headerText(req.headers['webhook-signature']) ?? '').split(' ');
    if (!id || !timestamp) return false;
    const secret = await value(auth.svix.secret, 'spec.on.webhook.authentication.svix.secret');
    const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
    const expected = `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${content}`).digest('base64')}`;
    // verifyTimestamp is a duration (5m); the signature's timestamp must be that close to now.
    const tolerance = auth.svix.verifyTimestamp ? (parseDuration(auth.svix.verifyTimestamp) ?? 300_000) / 1000 : 300;
    if (Math.abs(Date.now() / 1000 - Number(timestamp)) > tolerance) return false;
    return signatures.some((signature) => sameToken(expected, signature));
  }
  return false;
}

/** POST /api/playbook/webhook/{path}: runs the playbook whose spec.on.webhook.path it is; the request is `.request`. */
async function webhookRoute(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) => done(null, body));
  for (const method of ['POST', 'GET'] as const) {
    route(app, {
      method,
      url: '/api/playbook/webhook/*',
      summary: 'Runs the playbook whose webhook trigger has this path (its authentication checked)',
      tags: [tag],
      access: 'public',
      bodyLimit: WEBHOOK_BODY_LIMIT,
      handler: async ({ req, reply }) => {
        const path = ((req.params as Record<string, string>)['*'] ?? '').replace(/^\/+/, '');
        const { rows } = await ctx.pool.query<{ id: string; namespace: string; spec: Record<string, unknown>; organization_id: string | null }>(
          'SELECT id, namespace, spec, organization_id FROM playbooks WHERE webhook_path = $1 AND deleted_at IS NULL',
          [path],
        );
        const playbook = rows[0];
        if (!playbook) throw new AppError('not_found', `no playbook has the webhook path "${path}"`);
        // The call is the playbook's organization's work (hosted mode): its secrets authenticate it, its run is there.
        return inOrganizationOf(playbook.organization_id, async () => {
          const data = webhookPayload(req);
          const auth = checkPlaybookSpec(playbook.spec).checked?.spec.on?.webhook?.authentication;
          if (!(await authenticated(ctx, playbook.namespace, auth, req, data.content))) throw new AppError('unauthorized', 'this webhook needs its authentication (spec.on.webhook.authentication)');
          const url = new URL(req.url, 'http://localhost');
          const request = { content: data.content, headers: data.headers, json: data.json, params: Object.fromEntries(url.searchParams), url: req.url };
          const run = await inTransaction(ctx.pool, (client) =>
            createRun(client, secretStore(ctx.pool), { playbookId: playbook.id, request: { trigger: 'webhook', ...request } }),
          );
          return reply.status(201).send({ run_id: run.id, status: run.status });
        });
      },
    });
  }
}
