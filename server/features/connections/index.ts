import type { Feature } from '../../platform/context';
import { secretStore } from '../../platform/secrets';
import { keysInUse } from '../../platform/secrets/rotate';
import { configMapKind, connectionKind, secretKind } from './kinds';
import { configMapKubeKind, connectionKubeKind, secretKubeKind } from './kube-kinds';
import { connectionRoutes } from './routes';

export { connectionKind, secretKind } from './kinds';

/**
 * Connections, secrets and config maps (spec §2 /settings/connections, §3 Connection, §6, §7): the kinds
 * `Connection` (mission-control.flanksource.com/v1), `Secret` and `ConfigMap` (v1), their API, and the
 * connection test. What checks, scrapers and actions read of them is resolved by server/platform/secrets.
 */
export const connectionsFeature: Feature = {
  name: 'connections',
  kinds: [connectionKind, secretKind, configMapKind],
  kubeKinds: [connectionKubeKind, secretKubeKind, configMapKubeKind],
  register(app, ctx) {
    connectionRoutes(app, ctx);
  },
  // Every instance drops its cached connections and secrets as soon as any instance changes one.
  async start(ctx) {
    const store = secretStore(ctx.pool);
    // Values under a key this instance does not hold cannot be read here: said once at start, by key id.
    const unknown = [...(await keysInUse(ctx.pool)).entries()].filter(([id]) => !store.keyring.has(id));
    for (const [id, count] of unknown) {
      ctx.log.warn({ key: id, values: count }, `${count} stored secret value(s) are encrypted with key ${id}, which this instance does not hold: set WATCHKEEPER_SECRET_KEY or copy secret.key from the instance that wrote them (docs/CONNECTIONS.md)`);
    }
    return store.listen(ctx.log);
  },
};
