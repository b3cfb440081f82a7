import type { Feature } from '../../platform/context';
import { logsApi } from './api';
import { logBackendKind } from './backends';
import { applyLogsDemo } from './demo';
import { configureLogRoots } from './roots';

// What other features (MCP, playbook actions) use of logs: a target's files and the search over them.
export { logBackendKind, resolveTarget, targetFiles } from './backends';
export { configureLogRoots } from './roots';
export { searchLogFiles, type LogFile } from './search';

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
  // `serve --demo`: a backend over the copy of the console's own log that serve writes (demo.ts).
  demo: (ctx) => applyLogsDemo(ctx),
};
