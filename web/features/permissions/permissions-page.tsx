import { Plus, ShieldQuestion } from 'lucide-react';
import { useMemo } from 'react';
import { useAccess } from '@web/app/session';
import { DataTable, readStoredPageSize, sortingToParams, type SortingState } from '@web/ui/data-table';
import { Button } from '@web/ui/primitives/button';
import { Loading } from '@web/ui/primitives/loading';
import { Dialog } from '@web/ui/primitives/dialog';
import { QueryPage } from '@web/ui/query-page';
import { useUrlParams } from '@web/lib/use-url-params';
import { readOnlyReason } from './cells';
import { CheckAccessDialog } from './check-access-dialog';
import { permissionColumns } from './columns';
import { PermissionFilterBar } from './filter-bar';
import { applyFilterChange, applyViewChange, dialogParam, parseOpenDialog, parsePermissionFilters, type OpenDialog } from './filters';
import { PermissionDialog } from './permission-dialog';
import { usePermission, usePermissions } from './queries';
import type { Permission } from './schema';

export default function PermissionsPage() {
  const [params, setParams] = useUrlParams();
  const filters = useMemo(() => parsePermissionFilters(params), [params]);
  const pageSize = filters.pageSize ?? readStoredPageSize();
  const permissions = usePermissions({ ...filters, pageSize });
  const rows = permissions.data?.rows ?? [];
  const dialog = parseOpenDialog(params);
  const access = useAccess();
  // Spec §6: adding needs write on permissions; the rows themselves are the rbac object's.
  const canWrite = access.can('permissions', 'write') && access.can('rbac', 'write');

  const open = (next: OpenDialog) => setParams((current) => applyViewChange(current, { dialog: dialogParam(next) }));
  const close = () => open({ kind: 'none' });
  const sorting: SortingState = [{ id: filters.sortBy, desc: filters.sortOrder === 'desc' }];

  return (
    <QueryPage
      title="Permissions"
      query={permissions}
      extra={
        <div className="ml-auto flex items-center gap-2">
          <Button size="sm" onClick={() => open({ kind: 'check' })}>
            <ShieldQuestion className="size-4" aria-hidden="true" />
            Check access
          </Button>
          {canWrite ? (
            <Button variant="primary" size="sm" onClick={() => open({ kind: 'add' })}>
              <Plus className="size-4" aria-hidden="true" />
              Add permission
            </Button>
          ) : null}
        </div>
      }
      toolbar={<PermissionFilterBar filters={filters} onChange={(patch) => setParams((current) => applyFilterChange(current, patch))} />}
    >
      <DataTable
        aria-label="Permissions"
        data={rows}
        columns={permissionColumns}
        getRowId={(row) => row.id}
        isLoading={permissions.isLoading}
        manualSorting
        sorting={sorting}
        onSortingChange={(next) => {
          // Removing the sort returns to the default order (newest first); removing it from there, which
          // would change nothing, goes oldest first.
          const removedDefault = next.length === 0 && filters.sortBy === 'created_at' && filters.sortOrder === 'desc';
          const { sortBy, sortOrder } = removedDefault ? { sortBy: 'created_at', sortOrder: 'asc' } : sortingToParams(next);
          setParams((current) => applyViewChange(current, { sortBy, sortOrder, pageIndex: undefined }));
        }}
        onRowClick={(row) => open({ kind: 'edit', id: row.id })}
        pagination={{
          pageIndex: filters.pageIndex,
          pageSize,
          totalRows: permissions.data?.total ?? 0,
          onChange: (next) => setParams((current) => applyViewChange(current, { pageIndex: String(next.pageIndex), pageSize: String(next.pageSize) })),
        }}
      />
      {dialog.kind === 'add' && canWrite ? <PermissionDialog key="add" permission={null} onClose={close} /> : null}
      {dialog.kind === 'edit' ? <EditDialog id={dialog.id} fromPage={rows.find((row) => row.id === dialog.id)} canWrite={canWrite} onClose={close} /> : null}
      {dialog.kind === 'check' ? <CheckAccessDialog onClose={close} onOpenPermission={(id) => open({ kind: 'edit', id })} /> : null}
    </QueryPage>
  );
}

const NO_WRITE = 'You may read permissions but not change them: that needs write access to rbac and permissions.';

/** The row of an edit link: from the page when it is there, else fetched (a shared link, a check result). */
function EditDialog({ id, fromPage, canWrite, onClose }: { id: string; fromPage: Permission | undefined; canWrite: boolean; onClose: () => void }) {
  const permission = usePermission(id, fromPage);
  if (permission.data) {
    const reason = readOnlyReason(permission.data) ?? (canWrite ? undefined : NO_WRITE);
    return <PermissionDialog key={`${permission.data.id}-${permission.data.updated_at}`} permission={permission.data} readOnlyReason={reason} onClose={onClose} />;
  }
  return (
    <Dialog open onOpenChange={(next) => !next && onClose()} title="Permission" size="small">
      {permission.isLoading ? <Loading /> : <p className="text-sm text-slate-700">{permission.error ? permission.error.message : 'No details found'}</p>}
    </Dialog>
  );
}
