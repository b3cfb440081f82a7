import type pg from 'pg';
import { z } from 'zod';
import { mayAllowSome } from '../../platform/auth/decide';
import { AppError } from '../../platform/http/errors';
import { answerView, loadView, mayReadView, storedColumns, tableRows, VariableProblem, type ViewRow } from '../views';
import { offsetOf, page, paged, tool, uuid } from './tools-common';

/** A view's id by namespace/name, or undefined. */
async function viewIdOf(pool: pg.Pool, namespace: string, name: string): Promise<string | undefined> {
  const { rows } = await pool.query<{ id: string }>('SELECT id FROM views WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL', [namespace, name]);
  return rows[0]?.id;
}

export const queryView = tool({
  name: 'query_view',
  description: "A view's rows (by id, or namespace and name) for its variables: columns, a page of rows, panels.",
  input: {
    id: uuid.optional(),
    name: z.string().max(255).optional(),
    namespace: z.string().max(255).default('default'),
    variables: z.record(z.string().max(100), z.union([z.string().max(1000), z.number(), z.boolean()])).default({}),
    ...paged,
  },
  // Decided below for the view itself (a permission may select single views).
  needs: [],
  readOnly: true,
  async run(ctx, actor, args) {
    const offset = offsetOf(args.cursor);
    if (!mayAllowSome(actor, 'views', 'read', 'view')) throw new AppError('forbidden', 'this tool needs the read permission on views');
    const id = args.id ?? (args.name ? await viewIdOf(ctx.pool, args.namespace, args.name) : undefined);
    if (!args.id && !args.name) throw new AppError('invalid_request', 'id: give a view id, or a name (and namespace)');
    const view: ViewRow | undefined = id ? await loadView(ctx.pool, id) : undefined;
    const label = args.id ?? `${args.namespace}/${args.name ?? ''}`;
    if (!view || view.deleted_at) throw new AppError('not_found', `view ${label} not found`);
    if (!mayReadView(actor, view)) throw new AppError('forbidden', `you may not read the view ${view.namespace}/${view.name}`);
    const variables = Object.fromEntries(Object.entries(args.variables).map(([key, value]) => [key, String(value)]));
    let answer;
    try {
      answer = await answerView(ctx.pool, view, variables, false);
    } catch (error) {
      if (error instanceof VariableProblem) throw new AppError('invalid_request', `variables: ${error.message}`);
      throw error;
    }
    const columns = storedColumns(answer.columns.map((column) => ({ ...column, name: String(column.name), type: String(column.type ?? 'string') })));
    const rows = answer.table && answer.refreshedAt ? await tableRows(ctx.pool, answer.table, answer.requestFingerprint, view.spec, args.limit + 1, offset) : [];
    const first = offset === 0;
    return {
      id: view.id,
      name: `${view.namespace}/${view.name}`,
      ...(first
        ? {
            title: answer.title,
            columns: columns.filter((column) => column.hidden !== true).map((column) => ({ name: column.name, type: column.type })),
            variables: answer.variables.map((variable) => ({ key: variable.key, selected: variable.selected, values: variable.values.slice(0, 50) })),
            panels: answer.panels.map((panel) => ({ name: panel.name, type: panel.type, rows: panel.rows, error: panel.error })),
          }
        : {}),
      total: answer.totalRows,
      ...(answer.error ? { error: answer.error } : {}),
      ...(answer.refreshing ? { refreshing: true } : {}),
      ...page(rows, offset, args.limit),
    };
  },
});
