import { specResourceKind } from '../../platform/resources';
import { saveScraper } from './scrapers';
import { parseScraperSpec } from './spec';

/**
 * `kind: ScrapeConfig` (configs.flanksource.com/v1): a file written for config-db applies unchanged; its
 * scraper types and fields this console does not read are reported as warnings by name.
 */
export const scrapeConfigKind = specResourceKind({
  kind: 'ScrapeConfig',
  apiVersions: ['configs.flanksource.com/v1'],
  problems: (spec) => parseScraperSpec(spec).errors,
  save: saveScraper,
});
