import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../platform/context';
import { inTransaction } from '../../platform/jobs/db';
import { saveSpecRow } from '../../platform/spec-rows';
import { LOG_BACKENDS } from './backends';
import { logRootPolicy } from './roots';

/** The demo's log backend: the console's own log. */
export const DEMO_LOG_BACKEND = 'watchkeeper-console';
const DEMO_LOG_NAMESPACE = 'demo';

/**
 * Where `serve --demo` writes a copy of the console's own log (its info lines and above, as JSON): the first
 * log root (WATCHKEEPER_LOG_ROOTS, by default ./logs), since log backends never read the data directory.
 * Undefined when no root is allowed (`none`).
 */
export function demoLogFile(roots: readonly string[]): string | undefined {
  const root = roots[0];
  return root ? path.join(path.resolve(root), 'watchkeeper-demo.log') : undefined;
}

/**
 * `serve --demo`: a log backend (namespace demo, source Demo) over the copy of the console's own log that
 * serve writes in demo mode (demoLogFile), so the Logs page shows real lines (start-up, demo data, warnings)
 * from the first minute. Nothing is invented: every line is one the console logged.
 */
export async function applyLogsDemo(ctx: Pick<AppContext, 'pool' | 'config'>, roots: readonly string[] = ctx.config.logRoots ?? logRootPolicy().roots): Promise<string> {
  const file = demoLogFile(roots);
  if (!file) return 'no log backend (WATCHKEEPER_LOG_ROOTS allows no folder for the console log)';
  await fs.mkdir(path.dirname(file), { recursive: true });
  // The file exists from the start, so the backend reads it even before the first line is flushed.
  await (await fs.open(file, 'a')).close();
  await inTransaction(ctx.pool, (client) =>
    saveSpecRow(client, LOG_BACKENDS, {
      name: DEMO_LOG_BACKEND,
      namespace: DEMO_LOG_NAMESPACE,
      labels: { app: 'watchkeeper' },
      spec: { files: [{ paths: [file], labels: { app: 'watchkeeper' } }] },
      source: 'Demo',
    }),
  );
  return `the log backend demo/${DEMO_LOG_BACKEND} over the console's own log (${file})`;
}
