import type { Feature } from '../../platform/context';
import { logsApi } from './api';
import { logBackendKind } from './backends';

/**
 * Logs (spec §2 /logs, §7 POST /logs, /components_with_logs): log backends name files on this server and
 * the topology components whose logs they hold; a search reads them newest first. Lines can be attached
 * to incidents as evidence (type log).
 */
export const logsFeature: Feature = {
  name: 'logs',
  kinds: [logBackendKind],
  register(app, ctx) {
    logsApi(app, ctx);
  },
};
