import { Plus } from 'lucide-react';
import { Link, useNavigate, useParams } from 'react-router';
import { formatDate } from '@common/format/date';
import NotFoundPage from '@web/app/pages/not-found-page';
import { useDisplayPreferences } from '@web/lib/preferences';
import { DataTable, type ColumnDef } from '@web/ui/data-table';
import { buttonBase } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { QueryPage } from '../components/query-page';
import { useResourceList } from './queries';
import { findResource, type SettingsResource } from './registry';
import { useResourceRegistry } from './registry-context';
import { rowId, valueToText, type ResourceRow } from './values';

export default function ResourceListPage() {
  const { table } = useParams();
  const resource = findResource(table, useResourceRegistry());
  // Only registered tables have pages (DESIGN §9: nothing is a stub).
  return resource ? <ResourceList resource={resource} /> : <NotFoundPage />;
}

function ResourceList({ resource }: { resource: SettingsResource }) {
  const query = useResourceList(resource);
  const navigate = useNavigate();
  const { dateFormat, timeZone } = useDisplayPreferences();
  const columns: ColumnDef<ResourceRow>[] = resource.columns.map((column) => ({
    id: column.key,
    header: column.header,
    accessorFn: (row) => valueToText(row[column.key]),
    cell: ({ row }) => (column.kind === 'date' ? formatDate(valueToText(row.original[column.key]), dateFormat, timeZone) : valueToText(row.original[column.key])),
  }));
  return (
    <QueryPage
      title={resource.label}
      query={query}
      extra={
        <Link to={`/settings/${resource.table}/new`} className={cn(buttonBase, 'h-8 gap-1.5 bg-blue-600 px-3 text-sm text-white hover:bg-blue-700')}>
          <Plus className="size-4" aria-hidden="true" />
          Add
        </Link>
      }
    >
      <DataTable
        aria-label={resource.label}
        data={query.data ?? []}
        columns={columns}
        getRowId={(row, index) => rowId(row) || String(index)}
        isLoading={query.isLoading}
        emptyText="No resources found"
        onRowClick={(row) => void navigate(`/settings/${resource.table}/${encodeURIComponent(rowId(row))}`)}
      />
    </QueryPage>
  );
}
