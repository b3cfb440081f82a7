import type { Feature } from '../../platform/context';
import { backgroundWork, resourceScheduledTable } from '../../platform/jobs';
import { SCRAPER_JOB, scraperApi } from './api';
import { applyCatalogDemo } from './demo';
import { catalogQueryRoutes } from './query/routes';
import { configChangeRetentionJob } from './retention';
import { runScraper } from './run';
import { scrapeConfigKind } from './scraper-kind';
import { scrapeConfigKubeKind } from './kube-kind';

// What other features (MCP) use of the catalog: searches and changes under the caller's access.
export { catalogChanges, type ChangeRow } from './query/changes';
export { changesBody, RESOURCE_KINDS, type ResourceKind } from './query/schema';
export { searchResources, type FoundResource } from './query/search';
export { valueFilter } from './query/sql';
// What topology, applications, views and logs share with the catalog: sources, specs, SQL of selectors, paths.
export { queryOne } from './jsonpath';
export { applyCatalogDemo, DEMO_READER_ROLE } from './demo';
export { runScraper } from './run';
export { filterConditions, Params, selectorConditions } from './query/sql';
export { deleteScraper, saveScraper } from './scrapers';
export { sourceOf } from './sources';
export { expandPaths } from './sources/files';
export { runnableEntry } from './sources/resolve-entry';
export { scheduleOf, zodProblems, type SpecProblem } from './spec';
export type { AnySource } from './types';

/** Scrapers run as scheduled rows: each slot once across all instances, a scraper never overlapping itself. */
export const scrapersTable = resourceScheduledTable('config_scrapers');

/**
 * The configuration catalog (spec §1, §2 Catalog, §7 Catalog): scrapers in the config-db format, the items
 * they find with changes, insights and relationships, and the /api/catalog endpoints. Every scraper run is
 * in job_history (resource type config_scraper) with its counts and errors.
 */
export const catalogFeature: Feature = {
  name: 'catalog',
  kinds: [scrapeConfigKind],
  kubeKinds: [scrapeConfigKubeKind],
  async register(app, ctx) {
    await scraperApi(app, ctx);
    catalogQueryRoutes(app, ctx);
    backgroundWork
      .rows({
        name: SCRAPER_JOB,
        table: scrapersTable,
        resourceType: 'config_scraper',
        concurrency: 2,
        history: 'every-run',
        run: async (row, run) => {
          await runScraper(run.pool, row.id, { log: run.log, job: run, signal: run.signal });
        },
      })
      .job(configChangeRetentionJob());
  },
  demo: (ctx) => applyCatalogDemo(ctx),
};
