import type { Feature } from '../../platform/context';
import { secretStore } from '../../platform/secrets';
import { configMapKind, connectionKind, secretKind } from './kinds';
import { connectionRoutes } from './routes';

/**
 * Connections, secrets and config maps (spec §2 /settings/connections, §3 Connection, §6, §7): the kinds
 * `Connection` (mission-control.flanksource.com/v1), `Secret` and `ConfigMap` (v1), their API, and the
 * connection test. What checks, scrapers and actions read of them is resolved by server/platform/secrets.
 */
export const connectionsFeature: Feature = {
  name: 'connections',
  kinds: [connectionKind, secretKind, configMapKind],
  register(app, ctx) {
    connectionRoutes(app, ctx);
  },
  // Every instance drops its cached connections and secrets as soon as any instance changes one.
  async start(ctx) {
    return secretStore(ctx.pool).listen(ctx.log);
  },
};
