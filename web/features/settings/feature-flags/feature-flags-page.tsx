import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useAccess } from '@web/app/session';
import { useDisplayPreferences } from '@web/lib/preferences';
import { formatDate } from '@common/format/date';
import { DataTable, type ColumnDef } from '@web/ui/data-table';
import { Button } from '@web/ui/primitives/button';
import { QueryPage } from '@web/ui/query-page';
import { PropertyDialog } from './property-dialog';
import { useProperties } from './queries';
import type { Property } from './schema';

type Editing = { kind: 'closed' } | { kind: 'add' } | { kind: 'edit'; property: Property };

export default function FeatureFlagsPage() {
  const query = useProperties();
  const { dateFormat, timeZone } = useDisplayPreferences();
  const [editing, setEditing] = useState<Editing>({ kind: 'closed' });
  // Spec §6: readers see the flags; only writers get Add, and the editor opens only for those who may change flags.
  const { can } = useAccess();
  const canCreate = can('feature_flags', 'create');
  const canUpdate = can('feature_flags', 'update');
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
        canCreate ? (
          <Button variant="primary" size="sm" onClick={() => setEditing({ kind: 'add' })}>
            <Plus className="size-4" aria-hidden="true" />
            Add Feature Flag
          </Button>
        ) : null
      }
    >
      <DataTable
        aria-label="Feature flags"
        data={query.data ?? []}
        columns={columns}
        getRowId={(row) => row.name}
        isLoading={query.isLoading}
        {...(canUpdate ? { onRowClick: (property: Property) => setEditing({ kind: 'edit', property }) } : {})}
      />
      {editing.kind !== 'closed' ? (
        <PropertyDialog
          key={editing.kind === 'edit' ? editing.property.name : 'new'}
          open
          property={editing.kind === 'edit' ? editing.property : null}
          onClose={() => setEditing({ kind: 'closed' })}
          canDelete={can('feature_flags', 'delete')}
        />
      ) : null}
    </QueryPage>
  );
}
