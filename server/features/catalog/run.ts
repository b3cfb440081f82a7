import { capabilityUses, runRefusal } from '../../platform/auth/capabilities';
import type pg from 'pg';
import { messageOf } from '../../platform/errors';
import { inTransaction } from '../../platform/jobs/db';
import { runErrors } from '../../platform/jobs/run-errors';
import type { JobRun } from '../../platform/jobs/job-run';
import type { Logger } from '../../platform/logger';
import { withoutSecrets } from '../../platform/peers/credentials';
import { storeAccess, type ScrapedAccess } from './access';
import { mapResults } from './mapping';
import { loadScraper } from './scrapers';
import { runnableEntry } from './sources/resolve-entry';
import { parseScraperSpec } from './spec';
import { storeScrape, type ScrapeSummary } from './store';
import type { ScrapedItem } from './types';

export class ScraperNotFound extends Error {}

/**
 * One run of one scraper: every entry read by its source and mapped (a failing entry or result is an
 * error of the run, the others still count), then everything written in one transaction. With `job`, the
 * run's counts and errors go to job_history.
 */
export async function runScraper(pool: pg.Pool, id: string, options: { signal?: AbortSignal; log: Logger; job?: JobRun }): Promise<ScrapeSummary> {
  const scraper = await loadScraper(pool, id);
  if (!scraper) throw new ScraperNotFound(`scraper ${id} not found`);
  const signal = options.signal ?? new AbortController().signal;
  const parsed = parseScraperSpec(scraper.spec);
  const errors = runErrors(options.job);
  const error = (message: string) => errors.add(message);
  for (const problem of parsed.errors) error(`${problem.path}: ${problem.message}`);
  // Capabilities (docs/SECURITY.md): exec, server files, connections and SQL run only while the last author holds them.
  const refusal = parsed.errors.length > 0 ? undefined : await runRefusal(pool, scraper.updated_by, capabilityUses(scraper.spec), scraper.namespace);
  if (refusal) error(refusal.message);
  if (parsed.errors.length > 0 || refusal) {
    // A spec that no longer reads (edited in the database, an older format): nothing is touched.
    return { created: 0, updated: 0, unchanged: 0, deleted: 0, changes: 0, analysis: 0, errors: errors.list() };
  }
  const now = new Date();
  const items: ScrapedItem[] = [];
  // spec.full: the access data of every result (users, roles, config_access, logins), stored after the items.
  const access: ScrapedAccess[] | undefined = parsed.full ? [] : undefined;
  let entryFailed = false;
  {
    for (const entry of parsed.entries) {
      if (signal.aborted) break;
      if (entry.unreadable) {
        entryFailed = true;
        error(entry.unreadable);
        continue;
      }
      let secrets: string[] = [];
      try {
        // Secrets and connections are read at each run, as config-db reads them.
        const runnable = await runnableEntry(pool, entry.source, entry.raw, entry.entry, scraper.namespace, entry.where);
        secrets = runnable.secrets;
        const input = runnable.entry;
        const results = await entry.source.scrape(input, { scraperId: id, namespace: scraper.namespace, signal, log: options.log, error: (message) => error(`${entry.where}: ${withoutSecrets(message, secrets)}`) });
        items.push(...mapResults(results, entry.mapping, entry.where, error, access));
      } catch (problem) {
        entryFailed = true;
        const message = withoutSecrets(messageOf(problem), secrets);
        error(message.startsWith(entry.where) ? message : `${entry.where}: ${message}`);
      }
    }
  }
  if (signal.aborted) throw new Error('the run was stopped before it finished; nothing was written');
  const summary = await inTransaction(pool, async (client) => {
    const stored = await storeScrape(client, items, { scraperId: id, scraperName: `${scraper.namespace}/${scraper.name}`, staleMillis: parsed.staleMillis, deleteStale: !entryFailed, now });
    if (access) stored.access = await storeAccess(client, access, { scraperId: id, now, deleteStale: !entryFailed, error });
    await client.query('UPDATE config_scrapers SET last_run_at = $2 WHERE id = $1', [id, now]);
    return stored;
  });
  summary.errors = errors.list();
  if (options.job) {
    options.job.success(summary.created + summary.updated + summary.unchanged);
    const { errors: _errors, ...counts } = summary;
    options.job.summary({ ...counts, items: items.length, warnings: parsed.warnings });
    for (const warning of parsed.warnings) options.job.warn(warning);
  }
  return summary;
}
