import { z } from 'zod';
import { problemPathSegments, type ResourceKind } from '../../platform/resources';
import { saveScraper } from './scrapers';
import { parseScraperSpec } from './spec';

const scrapeConfigSchema = z
  .object({
    apiVersion: z.string(),
    kind: z.literal('ScrapeConfig'),
    metadata: z.object({
      name: z.string({ message: 'is required' }).trim().min(1, 'is required').max(255),
      namespace: z.string().trim().min(1).max(255).optional(),
      labels: z.record(z.string(), z.string()).optional(),
      annotations: z.record(z.string(), z.string()).optional(),
    }),
    spec: z.record(z.string(), z.unknown()),
  })
  .superRefine((doc, ctx) => {
    // Every problem is reported with its path (spec.file[0].paths: is required), nothing written.
    for (const problem of parseScraperSpec(doc.spec).errors) {
      ctx.addIssue({ code: 'custom', path: problemPathSegments(problem.path), message: problem.message });
    }
  });
export type ScrapeConfigDocument = z.infer<typeof scrapeConfigSchema>;

/**
 * `kind: ScrapeConfig` (configs.flanksource.com/v1): a file written for config-db applies unchanged; its
 * scraper types and fields this console does not read are reported as warnings by name.
 */
export const scrapeConfigKind: ResourceKind<ScrapeConfigDocument> = {
  kind: 'ScrapeConfig',
  apiVersions: ['configs.flanksource.com/v1'],
  schema: scrapeConfigSchema,
  async apply(doc, { client, source }) {
    const saved = await saveScraper(client, {
      name: doc.metadata.name,
      namespace: doc.metadata.namespace ?? 'default',
      labels: doc.metadata.labels ?? {},
      spec: doc.spec,
      source,
    });
    return { action: saved.action, id: saved.id, name: doc.metadata.name, ...(saved.warnings.length > 0 ? { warnings: saved.warnings } : {}) };
  },
};
