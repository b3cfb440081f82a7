import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { inOrganization, TENANT_ROLE } from '../../platform/db/tenant';
import { isProxied } from './proxy';

/**
 * Organizations served by this server's own database (docs/HOSTED.md "Row-level security"): once the access
 * guard has found the request's organization, the handler and everything it starts run in that
 * organization's scope, so the database shows it its own rows only. A request proxied to a backend never
 * gets here. The front's own routes (sign-in, the session, whoami, organizations and their members, API
 * tokens: what a backend never answers, see proxy.ts) and a request without an organization run as the
 * console itself.
 */
export function scopeRequestsToOrganizations(app: FastifyInstance, pool: pg.Pool): void {
  let ready: Promise<string | undefined> | undefined;
  const roleProblem = (): Promise<string | undefined> => {
    ready ??= pool
      .query<{ member: boolean | null }>("SELECT pg_has_role(current_user, oid, 'MEMBER') AS member FROM pg_roles WHERE rolname = $1", [TENANT_ROLE])
      .then(({ rows }) => {
        if (rows.length === 0) return `the database has no role ${TENANT_ROLE} (migration 0035 needs a database user that may create roles)`;
        return rows[0]?.member ? undefined : `this server's database user may not SET ROLE ${TENANT_ROLE}`;
      })
      .catch((error: unknown) => {
        ready = undefined;
        throw error;
      });
    return ready;
  };
  app.addHook('preHandler', (req, reply, done) => {
    const organizationId = req.actor?.organizationId;
    if (!organizationId || !isProxied(req.url.split('?')[0] ?? '')) {
      done();
      return;
    }
    roleProblem().then(
      (problem) => {
        if (!problem) {
          inOrganization(organizationId, done);
          return;
        }
        req.log.error({ problem }, 'organization rows cannot be isolated');
        void reply.status(503).type('application/json; charset=utf-8').send({
          error: 'service_unavailable',
          message: `this console cannot keep organizations apart in its database: ${problem}; give the organization its own backend URL, or run the migrations as a user that may create roles`,
        });
      },
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  });
}
