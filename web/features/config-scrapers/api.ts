import { api } from '@web/lib/api';
import type { ScraperWrite } from './model/document';
import { runResultSchema, savedSchema, type RunResult, type SavedScraper } from './schema';

const path = (id: string) => `/api/catalog/scrapers/${encodeURIComponent(id)}`;

/**
 * Scrapers are written only through /api/catalog/scrapers (the whole spec checked, every problem with its
 * path); /api/db serves them read-only. Run Now is POST /api/config/run/{id} (spec §7).
 */
export const scraperApi = {
  save: (write: ScraperWrite, id: string | null): Promise<SavedScraper> =>
    id === null ? api.post('/api/catalog/scrapers', write, (data) => savedSchema.parse(data)) : api.put(path(id), write, (data) => savedSchema.parse(data)),
  remove: (id: string): Promise<void> => api.delete(path(id), () => undefined),
  run: (id: string): Promise<RunResult> =>
    // A scrape of a big source takes a while: the server allows it 10 minutes.
    api.post(`/api/config/run/${encodeURIComponent(id)}`, {}, (data) => runResultSchema.parse(data), { timeoutMs: 10 * 60_000 }),
};
