import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { ValidationError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { checkPage, PAGE_SORT_COLUMNS } from './check-page';
import { MAX_RECENT_STATUSES } from './recent';
import { parseInstant } from '../../platform/instants';

/** The most checks (or groups) one page of the Health list holds. */
export const MAX_PAGE_SIZE = 500;

/** A label key or value: forbidden object keys are refused, as the page's URL parsing drops them. */
const key = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(256)
  .refine((text) => text !== '__proto__' && text !== 'constructor' && text !== 'prototype', { message: 'is not a usable key' });

const pageInput = z
  .object({
    start: z.string().default('1h'),
    end: z.string().optional(),
    query: z.string().max(2000).optional(),
    hidePassing: z.boolean().optional(),
    labels: z.array(z.object({ key, value: z.string().max(1024), state: z.union([z.literal(1), z.literal(-1)]) }).strict()).max(200).default([]),
    tabBy: key.default('namespace'),
    tab: z.string().max(1024).optional(),
    groupBy: key.default('no-group'),
    group: z.string().max(1024).optional(),
    sortBy: z.enum(PAGE_SORT_COLUMNS, { message: `must be one of ${PAGE_SORT_COLUMNS.join(', ')}` }).default('name'),
    sortDesc: z.boolean().default(false),
    page: z.number().int({ message: 'must be a whole number' }).min(0, { message: 'must be 0 or more' }).max(1_000_000).default(0),
    pageSize: z.number().int({ message: 'must be a whole number' }).min(1, { message: 'must be 1 or more' }).max(MAX_PAGE_SIZE, { message: `must be at most ${MAX_PAGE_SIZE}` }).default(50),
    pivotBy: key.refine((text) => text !== 'no-group', { message: 'must be a field or a label key' }).optional(),
    pivotLabel: key.refine((text) => text !== 'no-group', { message: 'must be a field or a label key' }).optional(),
    pivotCell: z.object({ row: z.string().max(1024), column: z.string().max(1024) }).strict().optional(),
    recent: z.number().int({ message: 'must be a whole number' }).min(0, { message: 'must be 0 or more' }).max(MAX_RECENT_STATUSES, { message: `must be at most ${MAX_RECENT_STATUSES}` }).default(20),
  })
  .strict();

/** POST /api/health/checks: one page of the Health list with its counts (check-page.ts, docs/HEALTH.md). */
export function healthPageApi(app: FastifyInstance, ctx: AppContext): void {
  route(app, {
    method: 'POST',
    url: '/api/health/checks',
    summary: "One page of the Health page's checks (or groups), filtered, sorted and counted on the server",
    tags: ['health'],
    access: { resource: 'canaries', action: 'read' },
    body: pageInput,
    handler: async ({ body }) => {
      const now = new Date();
      const from = parseInstant(body.start, now);
      const to = parseInstant(body.end, now);
      const issues = [];
      if (!from) issues.push({ path: 'start', message: 'must be a duration such as 1h or 30d, or a date-time' });
      if (!to) issues.push({ path: 'end', message: 'must be "now", a duration such as 0s or 1h, or a date-time' });
      if (from && to && from.getTime() >= to.getTime()) issues.push({ path: 'start', message: 'must be before end' });
      if (body.pivotLabel !== undefined && body.pivotBy === undefined) issues.push({ path: 'pivotLabel', message: 'needs pivotBy' });
      if (body.pivotCell !== undefined && body.pivotBy === undefined) issues.push({ path: 'pivotCell', message: 'needs pivotBy' });
      if (issues.length > 0 || !from || !to) throw new ValidationError(issues);
      return checkPage(ctx.pool, { ...body, from, to, rangeKey: `${body.start},${body.end ?? 'now'}` });
    },
  });
}
