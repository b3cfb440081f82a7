import { z } from 'zod';
import { AppError } from '../../platform/http/errors';
import { catalogChanges, type ChangeRow, changesBody, searchResources } from '../catalog';
import { parseInstant } from '../../platform/instants';
import { configTarget, configTargets, itemScoped, mayRead, encodeCursor, offsetOf, paged, tool, uuid } from './tools-common';

/** Changes are read from catalogChanges in batches of this many; a call reads at most MAX_BATCHES of them. */
const BATCH = 100;
const MAX_BATCHES = 20;
/** Items a `query` may name (the search syntax's cap). */
const QUERY_ITEMS = 1000;

/** The tool's argument behind each field of the changes body, for error messages. */
const ARG_OF: Record<string, string> = { id: 'config_id', config_type: 'type', type: 'change_type' };

const instant = z.string().max(100).refine((value) => parseInstant(value, new Date()) !== undefined, 'must be an ISO time or a duration such as now-24h or 7d');

export const listChanges = tool({
  name: 'list_changes',
  description: 'Config changes, newest first, of one item or of items by type, tags or name words, in a time range.',
  input: {
    config_id: uuid.optional(),
    type: z.string().max(255).optional().describe('config type'),
    tags: z.string().max(2000).optional().describe('key=value,key!=value'),
    query: z.string().max(500).optional().describe('item name words'),
    change_type: z.string().max(500).optional().describe('e.g. diff,BackOff'),
    severity: z.string().max(200).optional().describe('e.g. high,critical'),
    from: instant.default('now-7d').describe('ISO time or now-24h'),
    to: instant.optional(),
    ...paged,
  },
  needs: [{ resource: 'config_scrapers', action: 'read' }],
  readOnly: true,
  async run(ctx, actor, args) {
    const offset = offsetOf(args.cursor);
    const now = new Date();
    const from = parseInstant(args.from, now);
    const to = args.to ? parseInstant(args.to, now) : now;
    if (from && to && from > to) throw new AppError('invalid_request', 'from: must not be after to');
    if (args.config_id) {
      const target = (await configTargets(ctx.pool, [args.config_id])).get(args.config_id);
      if (!target) throw new AppError('not_found', `config item ${args.config_id} not found`);
      if (!mayRead(actor, 'config_scrapers', target)) throw new AppError('forbidden', `you may not read config item ${args.config_id}`);
    }
    // Words in the name choose items first (as search_resources finds them); their changes are kept below.
    let named: Set<string> | undefined;
    if (args.query && !args.config_id) {
      const { configs } = await searchResources(ctx.pool, { configs: [{ search: args.query, limit: QUERY_ITEMS }] });
      named = new Set(configs.map((row) => row.id));
      if (named.size === 0) return { items: [] };
    }
    const single = named?.size === 1 ? [...named][0] : undefined;
    const parsed = changesBody.safeParse({
      ...(args.config_id || single ? { id: args.config_id ?? single } : {}),
      ...(args.type ? { config_type: args.type } : {}),
      ...(args.tags ? { tags: args.tags } : {}),
      ...(args.change_type ? { type: args.change_type } : {}),
      ...(args.severity ? { severity: args.severity } : {}),
      page_size: BATCH,
    });
    if (!parsed.success) {
      throw new AppError('invalid_request', parsed.error.issues.map((issue) => `${ARG_OF[String(issue.path[0])] ?? String(issue.path[0])}: ${issue.message}`).join('; '));
    }
    const body = parsed.data;
    const scoped = itemScoped(actor);
    const kept: Array<{ row: ChangeRow; at: number }> = [];
    let position = offset;
    let ended = false;
    let summary: Record<string, number> | undefined;
    // Batches from the cursor's position on, dropping changes of items the caller may not read (or not named).
    for (let batch = 0; batch < MAX_BATCHES && kept.length <= args.limit && !ended; batch += 1) {
      const pageNo = Math.floor(position / BATCH) + 1;
      const answer = await catalogChanges(ctx.pool, { ...body, page: pageNo, from, to });
      if (batch === 0 && offset === 0 && !scoped && !named) summary = answer.summary;
      const targets = scoped ? await configTargets(ctx.pool, answer.changes.map((change) => change.config_id)) : undefined;
      const skip = position - (pageNo - 1) * BATCH;
      for (const [index, row] of answer.changes.entries()) {
        if (index < skip) continue;
        if (kept.length > args.limit) break;
        if (named && !named.has(row.config_id)) continue;
        if (targets && !mayRead(actor, 'config_scrapers', targets.get(row.config_id) ?? configTarget({ id: row.config_id }))) continue;
        kept.push({ row, at: (pageNo - 1) * BATCH + index });
      }
      ended = answer.changes.length < BATCH;
      position = pageNo * BATCH;
    }
    const items = kept.slice(0, args.limit).map(({ row }) => row);
    // More may follow: at the first change not answered, or where this call stopped reading.
    const next = kept.length > args.limit ? kept[args.limit]?.at : ended ? undefined : position;
    const configs = Object.fromEntries(items.flatMap((row) => (row.config ? [[row.config_id, { name: row.config.name, type: row.config.type, health: row.config.health }]] : [])));
    return {
      ...(summary ? { by_type: summary } : {}),
      items: items.map((row) => ({ id: row.id, config_id: row.config_id, change_type: row.change_type, severity: row.severity, source: row.source, summary: row.summary, count: row.count > 1 ? row.count : undefined, created_at: row.created_at })),
      configs,
      ...(next === undefined ? {} : { next_cursor: encodeCursor(next) }),
    };
  },
});
