import type { FastifyInstance } from 'fastify';
import type { Resource } from '../../../../common/rbac';
import type { AppContext } from '../../../platform/context';
import { allows } from '../../../platform/auth/decide';
import { AppError, ValidationError, type Issue } from '../../../platform/http/errors';
import { route } from '../../../platform/http/route';
import { parseInstant } from '../../../platform/instants';
import { catalogChanges } from './changes';
import { changesBody, RESOURCE_KINDS, searchBody, summaryBody, type ResourceKind } from './schema';
import { searchResources } from './search';
import { catalogSummary } from './summary';

/** Reads of the catalog need what its /api/db relations need (server/postgrest/relations/catalog.ts). */
const CATALOG_READ = { resource: 'config_scrapers', action: 'read' } as const;

/** What reading each kind of /api/resources/search needs. */
const KIND_RESOURCE: Record<ResourceKind, Resource | undefined> = {
  checks: 'canaries',
  configs: 'config_scrapers',
  components: 'topologies',
  connections: 'connections',
  playbooks: 'playbooks',
};

/** An instant of the API ("now", "now-7d", "7d" = 7 days ago, or a date-time), or an issue at `path`. */
function instant(value: string | undefined, path: string, now: Date, issues: Issue[]): Date | undefined {
  if (value === undefined) return undefined;
  const parsed = parseInstant(value, now);
  if (!parsed) issues.push({ path, message: 'must be a duration such as 7d or now-7d, or a date-time' });
  return parsed;
}

/** The catalog's query endpoints (spec §7 Catalog, Resource search). */
export function catalogQueryRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { pool } = ctx;

  route(app, {
    method: 'POST',
    url: '/api/catalog/summary',
    summary: 'Items per type (or other keys) with health, statuses, recent changes and open insights',
    tags: ['catalog'],
    access: CATALOG_READ,
    body: summaryBody,
    handler: async ({ body }) => {
      const now = new Date();
      const issues: Issue[] = [];
      const changesSince = instant(body.changes.since, 'body.changes.since', now, issues);
      const analysisSince = instant(body.analysis.since, 'body.analysis.since', now, issues);
      if (issues.length > 0 || !changesSince) throw new ValidationError(issues);
      return catalogSummary(pool, { ...body, changesSince, analysisSince });
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/catalog/changes',
    summary: 'A page of config changes (without diffs) with the total and a count per change type',
    tags: ['catalog'],
    access: CATALOG_READ,
    body: changesBody,
    handler: async ({ body }) => {
      const now = new Date();
      const issues: Issue[] = [];
      const from = instant(body.from, 'body.from', now, issues);
      const to = instant(body.to, 'body.to', now, issues);
      if (from && to && from.getTime() > to.getTime()) issues.push({ path: 'body.from', message: 'must not be after to' });
      if (issues.length > 0) throw new ValidationError(issues);
      return catalogChanges(pool, { ...body, from, to });
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/resources/search',
    summary: 'Finds checks and configs by name, type, agent and tags for resource pickers',
    tags: ['catalog'],
    // Each kind needs read on its own resource, checked below for the kinds asked.
    access: 'authenticated',
    body: searchBody,
    handler: async ({ body, req }) => {
      const forbidden = RESOURCE_KINDS.filter((kind) => {
        const resource = KIND_RESOURCE[kind];
        return (body[kind]?.length ?? 0) > 0 && resource !== undefined && !allows(req.actor, resource, 'read');
      });
      if (forbidden.length > 0) throw new AppError('forbidden', `you may not read ${forbidden.join(' or ')}`);
      return searchResources(pool, body);
    },
  });
}
