/** Where the scraper pages live (spec §2: /catalog/scrapers and /catalog/scrapers/{id}). */
export const SCRAPERS_PATH = '/catalog/scrapers';
/** The editor of a new scraper: the type picker, then Form and Code. */
export const NEW_SCRAPER_PATH = '/catalog/scrapers/new';
export const scraperPath = (id: string) => `${SCRAPERS_PATH}/${encodeURIComponent(id)}`;
/** The detail page's tabs (?tab=…); the spec tab holds the editor. */
export const SCRAPER_TABS = { items: 'items', runs: 'job-history', spec: 'spec' } as const;
/** Spec §6: the scraper editor is the settings page config_scraper (it goes with the config area). */
export const EDITOR_FEATURE = 'settings.config_scraper';
/** Spec §6: the catalog's pages are the config area. */
export const CATALOG_FEATURE = 'config';
