import { z } from 'zod';
import { envVarField } from '../../../platform/peers/credentials';
import { runScript } from '../../../platform/peers/script';
import type { SourceType } from '../types';
import { parseDocuments } from './files';

/** What a scraper script may print: a big inventory, but bounded. */
const MAX_OUTPUT = 20 * 1024 * 1024;

const execEntry = z.object({
  script: z.string({ message: 'is required' }).trim().min(1, 'is required'),
  env: z.array(z.object({ name: z.string().trim().min(1, 'is required'), value: envVarField })).optional(),
  /** Seconds; 300 by default. */
  timeout: z.number().int().positive('must be a number of seconds').optional(),
  /** How to read what the script prints; JSON by default, YAML (multi-document) on request. */
  format: z.enum(['json', 'yaml']).optional(),
});

/**
 * `exec`: a bash script that prints JSON (or YAML) on stdout: an object is one item, an array one item per
 * element (or use `items`). A non-zero exit is an error of the entry, with the last line of stderr.
 */
export const execSource: SourceType<z.infer<typeof execEntry>> = {
  key: 'exec',
  label: 'Exec',
  schema: execEntry,
  async scrape(entry, ctx) {
    const env: NodeJS.ProcessEnv = { SCRAPER_ID: ctx.scraperId, SCRAPER_NAMESPACE: ctx.namespace };
    for (const item of entry.env ?? []) env[item.name] = item.value;
    const timeout = AbortSignal.timeout((entry.timeout ?? 300) * 1000);
    const result = await runScript(entry.script, { env, signal: AbortSignal.any([ctx.signal, timeout]), maxOutput: MAX_OUTPUT });
    const lastError = result.stderr.trim().split('\n').slice(-1)[0];
    if (result.error) throw new Error(timeout.aborted ? `the script ran past ${entry.timeout ?? 300}s and was stopped` : `could not run the script: ${result.error.message}`);
    if (result.exitCode !== 0) throw new Error(`the script exited with code ${result.exitCode ?? 'none (killed)'}${lastError ? `: ${lastError}` : ''}`);
    if (result.truncated) throw new Error('the script printed more than 20 MB');
    const format = entry.format ?? 'json';
    const text = result.stdout.trim();
    if (text === '') return [];
    let documents: unknown[];
    try {
      documents = parseDocuments(`stdout.${format}`, text, format);
    } catch (error) {
      throw new Error(`the script's output is not ${format.toUpperCase()}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return documents.map((config) => ({ config, source: 'exec' }));
  },
};
