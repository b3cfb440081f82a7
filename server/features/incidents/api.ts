import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { AppContext } from '../../platform/context';
import { decide } from '../../platform/auth/decide';
import { AppError, ValidationError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { specRowRoutes } from '../../platform/spec-rows';
import { linkBody, linkEvidence, linkIssues, LinkTargetMissing } from './link';
import { INCIDENT_RULES } from './rules/rules';

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
  specRowRoutes(app, pool, {
    url: '/api/incident/rules',
    table: INCIDENT_RULES,
    access: 'database',
    tag: 'incidents',
    summary: 'a check failing N runs, or a component or config at given healths, opens an incident (evaluated every 30 s)',
  });
}
