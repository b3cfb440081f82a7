import { assertSpecCapabilities } from '../../platform/auth/capabilities';
import { rowNameIssues } from '../../platform/names';
import { asPgrstRefusal, PgrstError } from '../errors';
import { registeredAfterWrite } from '../hooks';
import type { RelationDef } from '../registry';

/** The views feature's check of a written view (its postgrestHooks). */
const viewWriteHook = registeredAfterWrite('views');

const fk = (relation: string, column: string, target: string) => ({ name: `${relation}_${column}_fkey`, target, columns: [[column, 'id']] as const });

const VIEW_COLUMNS = [
  'id', 'name', 'namespace', 'labels', 'spec', 'source', 'title', 'icon', 'ordinal', 'sidebar', 'mcp', 'error', 'created_by', 'updated_by', 'created_at', 'updated_at', 'deleted_at',
];

const SUMMARY_COLUMNS = [
  'id', 'name', 'namespace', 'title', 'icon', 'ordinal', 'sidebar', 'mcp', 'labels', 'source', 'error', 'column_count', 'panel_count', 'query_count',
  'created_by', 'created_at', 'updated_at', 'last_ran',
];

/**
 * Views (migration 0020), spec §6 resource `views` (§7 Views: /views GET, POST, PATCH, DELETE, and
 * /views_summary). Writes here are checked as /api/views checks them (the spec whole, in the write's
 * transaction: viewWriteHook); views from files are not changed here. Reads return the views the caller may
 * read (rowScope: a permission selecting views by name or namespace allows or denies those rows). Each
 * view's rows are the engine's own relation `view_<namespace>_<name>`.
 */
export const viewRelations: RelationDef[] = [
  {
    name: 'views',
    rbac: 'views',
    rowScope: 'view',
    readable: VIEW_COLUMNS,
    primaryKey: ['id'],
    insertable: ['id', 'name', 'namespace', 'labels', 'spec'],
    updatable: ['labels', 'spec'],
    deletable: true,
    writableWhere: { column: 'source', equals: 'UI' },
    insertDefaults: { created_by: (actor) => actor?.id, updated_by: (actor) => actor?.id ?? null, source: () => 'UI' },
    updateDefaults: { updated_by: (actor) => actor?.id ?? null },
    softDelete: true,
    notNull: ['id', 'name', 'namespace', 'labels', 'spec', 'source', 'title', 'sidebar', 'mcp', 'created_at', 'updated_at'],
    relationships: [fk('views', 'created_by', 'people')],
    afterWrite: async (client, write) => {
      // Names are valid UTF-8 and DNS-1123 (docs/RESOURCES.md "Names"), as POST /api/views and apply check them.
      if (write.method === 'POST') {
        const issues = write.changes.flatMap((change) => (change.new ? rowNameIssues(change.new) : []));
        if (issues.length > 0) {
          throw new PgrstError(400, '23514', issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '), null, 'A view name is a DNS-1123 subdomain and its namespace a DNS-1123 label (docs/RESOURCES.md#names).');
        }
      }
      // Capabilities (docs/SECURITY.md): a view's sql queries and connections need their author to hold them.
      for (const change of write.changes) {
        const row = change.new;
        if (row && (row.deleted_at === null || row.deleted_at === undefined)) {
          await asPgrstRefusal(() => assertSpecCapabilities(client, write.actor, row.spec, typeof row.namespace === 'string' ? row.namespace : 'default'));
        }
      }
      await viewWriteHook(client, write);
    },
  },
  {
    name: 'views_summary',
    rbac: 'views',
    rowScope: 'view',
    readable: SUMMARY_COLUMNS,
    primaryKey: ['id'],
    notNull: ['id', 'name', 'namespace', 'title', 'sidebar', 'mcp', 'labels', 'source', 'column_count', 'panel_count', 'query_count', 'created_at', 'updated_at'],
    relationships: [fk('views_summary', 'created_by', 'people')],
  },
];
