import type { Feature } from '../../platform/context';
import { backgroundWork, resourceScheduledTable } from '../../platform/jobs';
import { SCRAPER_JOB, scraperApi } from './api';
import { applyCatalogDemo } from './demo';
import { catalogQueryRoutes } from './query/routes';
import { configChangeRetentionJob } from './retention';
import { runScraper } from './run';
import { scrapeConfigKind } from './scraper-kind';

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
