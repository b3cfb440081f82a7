import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useDisplayPreferences } from '@web/lib/preferences';
import { formatDate } from '@common/format/date';
import { DataTable, type ColumnDef } from '@web/ui/data-table';
import { Button } from '@web/ui/primitives/button';
import { QueryPage } from '../components/query-page';
import { PropertyDialog } from './property-dialog';
import { useProperties } from './queries';
import type { Property } from './schema';

type Editing = { kind: 'closed' } | { kind: 'add' } | { kind: 'edit'; property: Property };

export default function FeatureFlagsPage() {
  const query = useProperties();
  const { dateFormat, timeZone } = useDisplayPreferences();
  const [editing, setEditing] = useState<Editing>({ kind: 'closed' });
  const columns: ColumnDef<Property>[] = [
    { accessorKey: 'name', header: 'Name' },
    { accessorKey: 'value', header: 'Value', cell: ({ row }) => <span className="font-mono text-xs">{row.original.value}</span> },
    {
      accessorKey: 'updated_at',
      header: 'Updated',
      cell: ({ row }) => formatDate(row.original.updated_at, dateFormat, timeZone),
    },
  ];
  return (
    <QueryPage
      title="Feature Flags"
      query={query}
      extra={
        <Button variant="primary" size="sm" onClick={() => setEditing({ kind: 'add' })}>
          <Plus className="size-4" aria-hidden="true" />
          Add Feature Flag
        </Button>
      }
    >
      <DataTable
        aria-label="Feature flags"
        data={query.data ?? []}
        columns={columns}
        getRowId={(row) => row.name}
        isLoading={query.isLoading}
        onRowClick={(property) => setEditing({ kind: 'edit', property })}
      />
      {editing.kind !== 'closed' ? (
        <PropertyDialog
          key={editing.kind === 'edit' ? editing.property.name : 'new'}
          open
          property={editing.kind === 'edit' ? editing.property : null}
          onClose={() => setEditing({ kind: 'closed' })}
        />
      ) : null}
    </QueryPage>
  );
}
