import { UserPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Page } from '@web/app/layout/page';
import { UnauthorizedPage } from '@web/app/pages/unauthorized-page';
import { useAccess, useSession } from '@web/app/session';
import { QueryPage } from '@web/ui/query-page';
import { useUrlParams } from '@web/lib/use-url-params';
import { DataTable, sortingToParams, usePersistedPageSize, type SortingState } from '@web/ui/data-table';
import { Button } from '@web/ui/primitives/button';
import { Field } from '@web/ui/primitives/field';
import { Loading } from '@web/ui/primitives/loading';
import { userColumns } from './columns';
import { applyUsersChange, parseUsersFilters } from './filters';
import { InviteDialog } from './invite-dialog';
import { InviteResultDialog } from './invite-result-dialog';
import { useUsers } from './queries';
import type { InviteResult } from './schema';
import { useUrlSearch } from '@web/lib/use-url-search';
import { UserActionDialog, type UserAction } from './user-actions';

/** /settings/users: people who can sign in, their roles, teams and state (spec §2, §3 Person, §6). */
export default function UsersPage() {
  const { ready, can } = useAccess();
  // The route guard says the same; this keeps the page honest wherever it is mounted.
  if (!ready || !can('identities', 'read')) return <Page title="Users">{ready ? <UnauthorizedPage /> : <Loading />}</Page>;
  return <Users />;
}

function Users() {
  const [params, setParams] = useUrlParams();
  const filters = useMemo(() => parseUsersFilters(params), [params]);
  const [storedSize] = usePersistedPageSize();
  const pageSize = filters.pageSize ?? storedSize;
  const users = useUsers({ search: filters.search, sortBy: filters.sortBy, sortOrder: filters.sortOrder, pageIndex: filters.pageIndex, pageSize });
  const session = useSession();
  const selfId = session.status === 'ready' ? session.user?.id : undefined;
  const { can } = useAccess();
  const permissions = { create: can('identities', 'create'), update: can('identities', 'update'), delete: can('identities', 'delete') };
  const [action, setAction] = useState<UserAction | null>(null);
  // The code is a secret: the result lives in memory only, never in the URL.
  const [invited, setInvited] = useState<InviteResult | null>(null);
  const columns = useMemo(
    () => userColumns({ selfId, can: { update: permissions.update, delete: permissions.delete }, onAction: setAction }),
    [selfId, permissions.update, permissions.delete],
  );

  const [search, setSearch] = useUrlSearch(filters.search, (q) => setParams((current) => applyUsersChange(current, { q })));

  const sorting: SortingState = [{ id: filters.sortBy, desc: filters.sortOrder === 'desc' }];
  const onSortingChange = (next: SortingState) => {
    const { sortBy, sortOrder } = sortingToParams(next);
    setParams((current) => applyUsersChange(current, { sortBy, sortOrder }));
  };

  return (
    <QueryPage
      title="Users"
      query={users}
      extra={
        permissions.create ? (
          <Button variant="primary" size="sm" onClick={() => setParams((current) => applyUsersChange(current, { invite: '1' }))}>
            <UserPlus className="size-4" aria-hidden="true" />
            Invite user
          </Button>
        ) : null
      }
      toolbar={
        <div role="search" aria-label="User filters" className="max-w-sm">
          <Field label="Search" placeholder="Name or email" type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        </div>
      }
    >
      <DataTable
        aria-label="Users"
        data={users.data?.rows ?? []}
        columns={columns}
        getRowId={(row) => row.id}
        isLoading={users.isLoading}
        manualSorting
        sorting={sorting}
        onSortingChange={onSortingChange}
        pagination={{
          pageIndex: filters.pageIndex,
          pageSize,
          totalRows: users.data?.total ?? 0,
          onChange: (next) => setParams((current) => applyUsersChange(current, { pageIndex: String(next.pageIndex), pageSize: String(next.pageSize) })),
        }}
      />
      {filters.invite && permissions.create ? (
        <InviteDialog
          onClose={() => setParams((current) => applyUsersChange(current, { invite: undefined }))}
          onInvited={(result) => {
            setInvited(result);
            setParams((current) => applyUsersChange(current, { invite: undefined }));
          }}
        />
      ) : null}
      {invited ? <InviteResultDialog result={invited} onClose={() => setInvited(null)} /> : null}
      <UserActionDialog action={action} onClose={() => setAction(null)} />
    </QueryPage>
  );
}
