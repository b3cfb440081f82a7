import type { Feature } from '../platform/context';
import { decide, mayAllowSome } from '../platform/auth/decide';
import { UNAUTHORIZED_MESSAGE } from '../platform/auth/guard';
import { PgrstError } from './errors';
import { registeredRowScope } from './hooks';
import { postgrestOpenApi } from './openapi';
import { postgrestRoutes } from './plugin';
import { createRegistry } from './registry';
import { functions, relations } from './relations';
import { dynamicRelation, introspect } from './schema';

/** /api/db: the PostgREST-compatible surface over the registry (DESIGN §5). */
export const postgrestFeature: Feature = {
  name: 'postgrest',
  prefix: '/api/db',
  async register(app, ctx) {
    const registry = createRegistry(relations, functions);
    // Column and argument types are read once here, so requests never introspect.
    const schema = await introspect(ctx.pool, registry);
    Object.assign(ctx.openApiPaths, postgrestOpenApi(schema));
    await postgrestRoutes(app, {
      pool: ctx.pool,
      schema,
      log: ctx.log,
      dynamicRelation,
      // PostgREST's own codes: PGRST302 when no credentials are presented, 42501 when a role lacks a privilege.
      async authenticate(req) {
        const actor = req.actor ?? (await ctx.auth.actorOf(req));
        if (!actor) throw new PgrstError(401, 'PGRST302', 'Anonymous access is disabled', null, UNAUTHORIZED_MESSAGE);
        return actor;
      },
      mayRead: (actor, object) => decide(actor, object, 'read').allowed,
      rowScope: (actor, kind) => registeredRowScope(ctx.pool, actor, kind),
      authorize(actor, needs) {
        for (const need of needs) {
          // A row-scoped relation needs only that some of its resources may be read; rowScope keeps those.
          const allowed = need.scoped ? mayAllowSome(actor, need.object, need.action, need.scoped) : decide(actor, need.object, need.action, need.target).allowed;
          if (!allowed) {
            throw new PgrstError(403, '42501', `permission denied: ${need.action} on ${need.object}`, null, 'Ask an administrator for a role or permission that allows it.');
          }
        }
      },
    });
  },
};
