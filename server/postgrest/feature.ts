import type { Feature } from '../features';
import { postgrestOpenApi } from './openapi';
import { postgrestRoutes } from './plugin';
import { createRegistry } from './registry';
import { functions, relations } from './relations';
import { introspect } from './schema';

/** /api/db: the PostgREST-compatible surface over the registry (DESIGN §5). */
export const postgrestFeature: Feature = {
  name: 'postgrest',
  prefix: '/api/db',
  async register(app, ctx) {
    const registry = createRegistry(relations, functions);
    // Column and argument types are read once here, so requests never introspect.
    const schema = await introspect(ctx.pool, registry);
    Object.assign(ctx.openApiPaths, postgrestOpenApi(schema));
    await postgrestRoutes(app, { pool: ctx.pool, schema, log: ctx.log });
  },
};
