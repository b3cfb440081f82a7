import type { Actor, RouteAccess } from '../auth/types';
import type { RouteDoc } from './route';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by `route()`: the documented schemas of the route, for /api/openapi.json. */
    doc?: RouteDoc;
    /** Who may call the route (server/platform/auth/guard.ts); every /api route declares it. */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /** The caller, once the access guard has run (undefined for anonymous calls to public routes). */
    actor?: Actor;
  }
}
