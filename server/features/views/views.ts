import type pg from 'pg';
import { isRecord } from '../../platform/errors';
import { specResourceKind, type SavedSpecResource } from '../../platform/resources';
import { deleteConsoleRow, saveSpecRow, SpecInvalid, type SpecRowInput, type SpecRowTable } from '../../platform/spec-rows';
import type { AfterWrite } from '../../postgrest/registry';
import { PgrstError } from '../../postgrest/errors';
import { onViewSaved } from './engine';
import { checkViewSpec } from './spec';

/**
 * kind: View (mission-control.flanksource.com/v1): the spec as written, with what the lists and the sidebar
 * read beside it (title, icon, ordinal, sidebar, mcp).
 */
export const viewTable: SpecRowTable = {
  table: 'views',
  noun: 'view',
  problems: (spec) => checkViewSpec(spec).problems,
  warnings: (spec) => checkViewSpec(spec).checked?.warnings ?? [],
  columns(spec) {
    const checked = checkViewSpec(spec).checked?.spec;
    const mcp = checked?.mcp;
    return {
      title: checked?.display?.title ?? '',
      icon: checked?.display?.icon ?? null,
      ordinal: checked?.display?.ordinal ?? null,
      sidebar: checked?.display?.sidebar ?? false,
      mcp: mcp === true || (typeof mcp === 'object' && mcp.enabled !== false),
      error: null,
    };
  },
};

/**
 * The sections whose view is not saved (yet): each a warning, never a refusal — views are applied in any
 * order, and the page shows a missing section as its error.
 */
async function missingSections(client: pg.PoolClient, input: SpecRowInput): Promise<string[]> {
  const sections: unknown[] = Array.isArray(input.spec.sections) ? input.spec.sections : [];
  const warnings: string[] = [];
  for (const [index, section] of sections.entries()) {
    const ref = isRecord(section) && isRecord(section.viewRef) ? section.viewRef : undefined;
    if (!ref || typeof ref.name !== 'string') continue;
    const name = ref.name;
    const namespace = typeof ref.namespace === 'string' && ref.namespace !== '' ? ref.namespace : input.namespace;
    if (namespace === input.namespace && name === input.name) {
      warnings.push(`spec.sections[${index}].viewRef: the view embeds itself; the section is not shown`);
      continue;
    }
    const { rowCount } = await client.query('SELECT 1 FROM views WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL', [namespace, name]);
    if (!rowCount) warnings.push(`spec.sections[${index}].viewRef: no view ${namespace}/${name} yet; the section shows an error until it is applied`);
  }
  return warnings;
}

/** Saves a view: the spec checked whole, the row written, the sections' views looked up (warnings). */
export async function saveView(client: pg.PoolClient, input: SpecRowInput, options: { id?: string; createOnly?: boolean } = {}): Promise<SavedSpecResource> {
  const checked = checkViewSpec(input.spec);
  if (checked.problems.length > 0) throw new SpecInvalid(checked.problems);
  const saved = await saveSpecRow(client, viewTable, input, options);
  // The engine makes (or alters) the view's table in the same transaction.
  await onViewSaved(client, saved.id);
  const warnings = [...(saved.warnings ?? []), ...(await missingSections(client, input))];
  return { ...saved, warnings };
}

/** Deletes a view made in the console (404 unknown, 409 from a file), the engine dropping its table. */
export async function deleteView(client: pg.PoolClient, id: string): Promise<void> {
  await deleteConsoleRow(client, 'views', 'view', id);
  await onViewSaved(client, id);
}

export const viewKind = specResourceKind({
  kind: 'View',
  apiVersions: ['mission-control.flanksource.com/v1'],
  problems: viewTable.problems,
  save: (client, input) => saveView(client, input),
});

/**
 * /api/db/views writes (spec §7: /views POST, PATCH, DELETE), as Mission Control's console makes them: the
 * spec of every written row is checked whole (400 naming each problem by path; the write rolls back), the
 * columns read from it are set, and the engine makes, alters or drops the view's table in the transaction.
 */
export const viewWriteHook: AfterWrite = async (client, { changes }) => {
  for (const change of changes) {
    const row = change.new ?? change.old;
    if (!row || typeof row.id !== 'string') continue;
    if (change.new && (row.deleted_at === null || row.deleted_at === undefined)) {
      const spec = isRecord(row.spec) ? row.spec : {};
      const problems = isRecord(row.spec) ? checkViewSpec(spec).problems : [{ path: 'spec', message: 'must be a mapping' }];
      if (problems.length > 0) {
        throw new PgrstError(400, '23514', problems.map((problem) => `${problem.path}: ${problem.message}`).join('; '), null, 'Check the View spec with POST /api/views/validate (docs/RESOURCES.md#view).');
      }
      const columns = viewTable.columns?.(spec) ?? {};
      const names = Object.keys(columns);
      await client.query(`UPDATE views SET ${names.map((name, index) => `${name} = $${index + 2}`).join(', ')} WHERE id = $1`, [row.id, ...Object.values(columns)]);
    }
    await onViewSaved(client, row.id);
  }
};
