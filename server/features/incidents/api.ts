import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { AppContext } from '../../app';
import { decide } from '../../platform/auth/decide';
import { AppError, ValidationError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { z } from 'zod';
import { inTransaction } from '../../platform/jobs/db';
import { linkBody, linkEvidence, linkIssues, LinkTargetMissing } from './link';
import { deleteIncidentRule, RuleInvalid, saveIncidentRule } from './rules/rules';

const uuid = z.string().uuid('must be a UUID');
const ruleBody = z.object({
  name: z.string({ message: 'is required' }).trim().min(1, 'is required').max(255),
  namespace: z.string().trim().min(1).max(255).default('default'),
  labels: z.record(z.string(), z.string()).default({}),
  spec: z.record(z.string(), z.unknown(), { message: 'must be a mapping with checks, components or configs, and a template' }),
});

/** The incident calls beyond /api/db: Attach as Evidence in one transaction. */
export function incidentApi(app: FastifyInstance, ctx: AppContext): void {
  const { pool } = ctx;

  route(app, {
    method: 'POST',
    url: '/api/incidents/link',
    summary:
      'Attach as Evidence: links a check, config, change, insight, component or log excerpt to an incident (existing or new) under a hypothesis (existing or a new root), in one transaction; the evidence keeps a snapshot of what it showed',
    tags: ['incidents'],
    access: { resource: 'evidences', action: 'create' },
    body: linkBody,
    handler: async ({ body, req, reply }) => {
      const actor = req.actor;
      if (!actor) throw new AppError('unauthorized', 'sign in to link evidence');
      const issues = linkIssues(body);
      if (issues.length > 0) throw new ValidationError(issues);
      if (!body.incident.id && !decide(actor, 'incident', 'create').allowed) throw new AppError('forbidden', 'creating an incident needs write on incident');
      if (!body.hypothesis.id && !decide(actor, 'incident', 'update').allowed) throw new AppError('forbidden', 'creating a hypothesis needs write on incident');
      try {
        return reply.status(201).send(await linkEvidence(pool, actor.id, body));
      } catch (error) {
        if (error instanceof LinkTargetMissing) throw new AppError('not_found', error.message);
        // The tables' own checks (migration 0012) answer 'field: problem'; they are the user's mistake.
        if (error instanceof pg.DatabaseError && (error.code === '23514' || error.code === '23503')) {
          const [field, ...rest] = error.message.split(': ');
          throw new ValidationError([rest.length > 0 ? { path: `body.evidence.${field}`, message: rest.join(': ') } : { path: 'body', message: error.message }]);
        }
        throw error;
      }
    },
  });

  // Incident rules (kind IncidentRule) are configuration: editors and admins write them, everyone reads.
  const saveRule = async (body: z.infer<typeof ruleBody>, createdBy: string, options: { id?: string; createOnly?: boolean }) => {
    try {
      return await inTransaction(pool, (client) => saveIncidentRule(client, { ...body, source: 'UI', createdBy }, options));
    } catch (error) {
      if (error instanceof RuleInvalid) throw new ValidationError(error.problems.map((problem) => ({ path: `body.${problem.path}`, message: problem.message })));
      throw error;
    }
  };

  route(app, {
    method: 'POST',
    url: '/api/incident/rules',
    summary: 'Creates an incident rule (kind IncidentRule); the rules are evaluated every 30 s',
    tags: ['incidents'],
    access: { resource: 'database', action: 'create' },
    body: ruleBody,
    handler: async ({ body, req, reply }) => reply.status(201).send(await saveRule(body, req.actor?.id ?? '', { createOnly: true })),
  });

  route(app, {
    method: 'PUT',
    url: '/api/incident/rules/:id',
    summary: 'Updates an incident rule made in the console (name and namespace stay)',
    tags: ['incidents'],
    access: { resource: 'database', action: 'update' },
    params: z.object({ id: uuid }),
    body: ruleBody.extend({ name: ruleBody.shape.name.optional(), namespace: z.string().trim().min(1).max(255).optional() }),
    handler: async ({ params, body, req }) => {
      const { rows } = await pool.query<{ name: string; namespace: string }>('SELECT name, namespace FROM incident_rules WHERE id = $1 AND deleted_at IS NULL', [params.id]);
      const current = rows[0];
      if (!current) throw new AppError('not_found', `incident rule ${params.id} not found`);
      return saveRule({ ...body, name: current.name, namespace: current.namespace }, req.actor?.id ?? '', { id: params.id });
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/incident/rules/:id',
    summary: 'Deletes an incident rule made in the console; incidents it opened stay',
    tags: ['incidents'],
    access: { resource: 'database', action: 'delete' },
    params: z.object({ id: uuid }),
    handler: async ({ params }) => {
      const { rows } = await pool.query<{ source: string }>('SELECT source FROM incident_rules WHERE id = $1 AND deleted_at IS NULL', [params.id]);
      const source = rows[0]?.source;
      if (!source) throw new AppError('not_found', `incident rule ${params.id} not found`);
      if (source !== 'UI') throw new AppError('conflict', `this rule comes from ${source}: delete it there`);
      await deleteIncidentRule(pool, params.id);
      return { message: 'success' };
    },
  });
}
