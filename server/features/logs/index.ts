import type { Feature } from '../../platform/context';
import { logsApi } from './api';
import { logBackendKind } from './backends';
import { configureLogRoots } from './roots';

/**
 * Logs (spec §2 /logs, §7 POST /logs, /components_with_logs): log backends name files on this server and
 * the topology components whose logs they hold; a search reads them newest first. Lines can be attached
 * to incidents as evidence (type log).
 */
export const logsFeature: Feature = {
  name: 'logs',
  kinds: [logBackendKind],
  register(app, ctx) {
    // Where backends may read: WATCHKEEPER_LOG_ROOTS, never the data directory (roots.ts).
    configureLogRoots(ctx.config);
    logsApi(app, ctx);
  },
};
