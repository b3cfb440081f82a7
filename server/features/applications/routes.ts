import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DATE_FORMATS } from '../../../common/constants';
import type { AppContext } from '../../platform/context';
import { ValidationError, type Issue } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { specRowRoutes } from '../../platform/spec-rows';
import { parseInstant } from '../../platform/instants';
import { applicationTable } from './applications';
import { listApplications } from './list';
import { renderReportPdf } from './pdf';
import { applicationReport, loadApplication } from './report';

const tag = 'applications';
/** Applications are guarded by the `views` resource (spec §6; token object application → views). */
const read = { resource: 'views', action: 'read' } as const;
const DEFAULT_FROM = 'now-30d';

const nameParams = z.object({ namespace: z.string().min(1).max(255), name: z.string().min(1).max(255) });
const rangeQuery = z.object({
  /** `now-30d`, `7d` (7 days ago) or a date-time; default 30 days ago. */
  from: z.string().max(100).optional(),
  /** Same forms; default now. */
  to: z.string().max(100).optional(),
});

/** The PDF's dates as the person reads them (the console's preferences); the server's browser has none of its own. */
const pdfQuery = rangeQuery.extend({
  dateTimeFormat: z.enum(DATE_FORMATS).optional(),
  timezone: z
    .string()
    .max(100)
    .refine(isTimeZone, { message: 'must be an IANA time zone such as Europe/Berlin, or UTC' })
    .optional(),
});

function isTimeZone(zone: string): boolean {
  try {
    // Constructing a formatter is how a zone name is checked; nothing is formatted here.
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The report's time range, every problem named by its query path. */
function rangeOf(query: z.infer<typeof rangeQuery>): { from: Date; to: Date } {
  const now = new Date();
  const issues: Issue[] = [];
  const from = parseInstant(query.from ?? DEFAULT_FROM, now);
  const to = parseInstant(query.to, now);
  if (!from) issues.push({ path: 'query.from', message: 'must be a duration such as 30d or now-30d, or a date-time' });
  if (!to) issues.push({ path: 'query.to', message: 'must be a duration such as 1h or now-1h, now, or a date-time' });
  if (from && to && from > to) issues.push({ path: 'query.from', message: 'must be before to' });
  if (issues.length > 0 || !from || !to) throw new ValidationError(issues);
  return { from, to };
}

/** A file name from the application and the range's dates: `payments-2024-05-01-2024-05-31.pdf`. */
function fileName(name: string, range: { from: Date; to: Date }): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '-');
  return `${safe}-${range.from.toISOString().slice(0, 10)}-${range.to.toISOString().slice(0, 10)}.pdf`;
}

/**
 * /api/applications: the editor's saves (POST, PUT /:id, DELETE /:id), the cards' list, one application's
 * audit report over a time range, and that report as a PDF.
 */
export function applicationRoutes(app: FastifyInstance, ctx: AppContext): void {
  specRowRoutes(app, ctx.pool, { url: '/api/applications', table: applicationTable, access: 'views', tag, summary: 'the Application spec checked whole (docs/APPLICATIONS.md)' });

  route(app, {
    method: 'GET',
    url: '/api/applications',
    summary: 'Applications as cards: type, health of their environments\' configs, environment and config counts, open incidents',
    tags: [tag],
    access: read,
    handler: () => listApplications(ctx.pool),
  });

  route(app, {
    method: 'GET',
    url: '/api/applications/:namespace/:name',
    summary: 'The audit report of an application over a time range: overview, environments, logins, access, access reviews, changes, incidents, sections',
    tags: [tag],
    access: read,
    params: nameParams,
    query: rangeQuery,
    handler: async ({ params, query }) => applicationReport(ctx.pool, await loadApplication(ctx.pool, params.namespace, params.name), rangeOf(query)),
  });

  route(app, {
    method: 'GET',
    url: '/api/applications/:namespace/:name/pdf',
    summary: 'The audit report as a PDF, rendered by headless Chromium as the caller (WATCHKEEPER_CHROMIUM, default /usr/bin/chromium)',
    tags: [tag],
    access: read,
    params: nameParams,
    query: pdfQuery,
    handler: async ({ params, query, req, reply }) => {
      const range = rangeOf(query);
      const found = await loadApplication(ctx.pool, params.namespace, params.name);
      const display = { dateFormat: query.dateTimeFormat, timeZone: query.timezone };
      const pdf = await renderReportPdf(req, { namespace: found.namespace, name: found.name, from: range.from.toISOString(), to: range.to.toISOString() }, display);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${fileName(found.name, range)}"`)
        .send(pdf);
    },
  });
}
