import type { RouteDoc } from './route';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by `route()`: the documented schemas of the route, for /api/openapi.json. */
    doc?: RouteDoc;
  }
}
