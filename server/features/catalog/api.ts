import type { FastifyInstance } from 'fastify';
import type { Actor } from '../../platform/auth/types';
import { assertSpecCapabilities } from '../../platform/auth/capabilities';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { decide } from '../../platform/auth/decide';
import { AppError, ValidationError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { inTransaction } from '../../platform/jobs/db';
import { runJob } from '../../platform/jobs/job-run';
import { runScraper, ScraperNotFound } from './run';
import { scraperSpecJsonSchema } from './schema';
import { deleteScraper, saveScraper, ScraperInvalid } from './scrapers';
import { parseScraperSpec } from './spec';
import type { ScrapeSummary } from './store';
import { assertDeletable } from '../../platform/deletable';
import { resourceName, resourceNamespace } from '../../platform/names';

const uuid = z.string().uuid('must be a UUID');

const scraperBody = z.object({
  name: resourceName,
  namespace: resourceNamespace.default('default'),
  labels: z.record(z.string(), z.string()).default({}),
  description: z.string().max(2000).optional(),
  spec: z.record(z.string(), z.unknown(), { message: 'must be a mapping of scraper types (file, sql, …) and schedule' }),
});

/** job_history name of every scraper run (scheduled or Run Now), resource type config_scraper. */
export const SCRAPER_JOB = 'Scraper';

/** The scraper editor's endpoints and Run Now (spec §7: POST /api/config/run/{id}). */
export async function scraperApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { pool, log } = ctx;

  route(app, {
    method: 'GET',
    url: '/api/catalog/scrapers/schema',
    summary: 'JSON schema of a ScrapeConfig spec, for editors',
    tags: ['catalog'],
    access: { resource: 'config_scrapers', action: 'read' },
    handler: () => scraperSpecJsonSchema(),
  });

  route(app, {
    method: 'POST',
    url: '/api/catalog/scrapers/validate',
    summary: 'Checks a scraper spec without saving it: its errors (by path) and warnings',
    tags: ['catalog'],
    access: { resource: 'config_scrapers', action: 'read' },
    body: z.object({ namespace: z.string().default('default'), spec: z.unknown() }),
    handler: ({ body }) => {
      const parsed = parseScraperSpec(body.spec);
      return { errors: parsed.errors, warnings: parsed.warnings, schedule: parsed.schedule, entries: parsed.entries.map((entry) => ({ type: entry.source.key, where: entry.where })) };
    },
  });

  const save = async (body: z.infer<typeof scraperBody>, actor: Actor | undefined, id?: string) => {
    const createdBy = actor?.id ?? '';
    // Capabilities (docs/SECURITY.md): code, server files, connections and SQL need their author to hold them.
    await assertSpecCapabilities(pool, actor, body.spec, body.namespace ?? 'default');
    try {
      return await inTransaction(pool, (client) => saveScraper(client, { ...body, source: 'UI', createdBy }, id ? { id } : { createOnly: true }));
    } catch (error) {
      if (error instanceof ScraperInvalid) throw new ValidationError(error.problems);
      throw error;
    }
  };

  route(app, {
    method: 'POST',
    url: '/api/catalog/scrapers',
    summary: 'Creates a scraper (source UI)',
    tags: ['catalog'],
    access: { resource: 'config_scrapers', action: 'create' },
    body: scraperBody,
    handler: async ({ body, req, reply }) => reply.status(201).send(await save(body, req.actor)),
  });

  route(app, {
    method: 'PUT',
    url: '/api/catalog/scrapers/:id',
    summary: 'Updates a scraper created in the console (name and namespace stay)',
    tags: ['catalog'],
    access: { resource: 'config_scrapers', action: 'update' },
    params: z.object({ id: uuid }),
    body: scraperBody,
    handler: async ({ params, body, req }) => {
      const { rows } = await pool.query<{ name: string; namespace: string }>('SELECT name, namespace FROM config_scrapers WHERE id = $1 AND deleted_at IS NULL', [params.id]);
      const current = rows[0];
      if (!current) throw new AppError('not_found', `scraper ${params.id} not found`);
      const issues = [];
      if (body.name !== current.name) issues.push({ path: 'body.name', message: 'cannot be changed once the scraper exists' });
      if (body.namespace !== current.namespace) issues.push({ path: 'body.namespace', message: 'cannot be changed once the scraper exists' });
      if (issues.length > 0) throw new ValidationError(issues);
      return save(body, req.actor, params.id);
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/catalog/scrapers/:id',
    summary: 'Deletes a scraper created in the console; its items are deleted with it',
    tags: ['catalog'],
    access: { resource: 'config_scrapers', action: 'delete' },
    params: z.object({ id: uuid }),
    handler: async ({ params, req }) => {
      await assertDeletable(pool, { table: 'config_scrapers', id: params.id, noun: 'scraper', resource: 'config_scrapers', actor: req.actor });
      await deleteScraper(pool, params.id);
      return { message: 'success' };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/config/run/:id',
    summary: 'Runs a scraper now and answers what it did (items created, updated, unchanged, deleted; changes; errors)',
    tags: ['catalog'],
    access: { resource: 'config_scrapers', action: 'update' },
    params: z.object({ id: uuid }),
    handler: async ({ params }) => {
      const { rows } = await pool.query<{ name: string }>('SELECT name FROM config_scrapers WHERE id = $1 AND deleted_at IS NULL', [params.id]);
      const scraper = rows[0];
      if (!scraper) throw new AppError('not_found', `scraper ${params.id} not found`);
      let summary: ScrapeSummary | undefined;
      let failure: unknown;
      const outcome = await runJob(
        { pool, log, metrics: ctx.metrics, instanceId: 'api' },
        { name: SCRAPER_JOB, resource: { type: 'config_scraper', id: params.id, name: scraper.name }, signal: AbortSignal.timeout(10 * 60_000) },
        async (run) => {
          try {
            summary = await runScraper(pool, params.id, { log: run.log, job: run, signal: run.signal });
          } catch (error) {
            failure = error;
            throw error;
          }
        },
      );
      if (failure instanceof ScraperNotFound) throw new AppError('not_found', failure.message);
      if (!summary) throw new AppError('internal_error', `the scraper run failed; its job history (${outcome.historyId || 'not recorded'}) has the error`);
      return { ...summary, status: outcome.status, job_history_id: outcome.historyId };
    },
  });
}
