import { UserPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Page } from '@web/app/layout/page';
import { UnauthorizedPage } from '@web/app/pages/unauthorized-page';
import { useAccess, useSession } from '@web/app/session';
import { QueryPage } from '@web/ui/query-page';
import { useUrlParams } from '@web/lib/use-url-params';
import { DataTable, sortingToParams, usePersistedPageSize, type SortingState } from '@web/ui/data-table';
import { Button, buttonBase } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
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
  const sessionUser = session.status === 'ready' ? session.user : undefined;
  const selfId = sessionUser?.id;
  const { can } = useAccess();
  // Hosted mode (docs/HOSTED.md "Roles per organization"): the roles shown and changed are those of the
  // organization worked in, which its admins and platform administrators change (the server's rule).
  const current = sessionUser?.hosted?.organization;
  const organization = useMemo(() => (current ? { id: current.id, name: current.name } : undefined), [current]);
  const platformAdmin = sessionUser?.platformAdmin === true;
  const organizationAdmin = sessionUser?.hosted?.role === 'admin';
  // In an organization an account (its state, its existence) is every organization's its person belongs to:
  // a platform administrator's to change; the organization's admin removes members from it instead.
  const permissions = organization
    ? {
        create: false,
        invite: platformAdmin || (organizationAdmin && can('identities', 'read')),
        roles: platformAdmin || (organizationAdmin && can('identities', 'update')),
        update: platformAdmin,
        delete: platformAdmin,
      }
    : { create: can('identities', 'create'), invite: false, roles: can('identities', 'update'), update: can('identities', 'update'), delete: can('identities', 'delete') };
  const [action, setAction] = useState<UserAction | null>(null);
  // The code is a secret: the result lives in memory only, never in the URL.
  const [invited, setInvited] = useState<InviteResult | null>(null);
  const columns = useMemo(
    () => userColumns({ selfId, can: { roles: permissions.roles, update: permissions.update, delete: permissions.delete }, organization, onAction: setAction }),
    [selfId, permissions.roles, permissions.update, permissions.delete, organization],
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
        ) : organization && permissions.invite ? (
          // Hosted mode: people sign in through the provider and join an organization as its members.
          <Link
            className={cn(buttonBase, 'h-8 gap-1.5 bg-blue-600 px-3 text-sm text-white shadow-sm hover:bg-blue-700')}
            to={`/settings/organizations?members=${encodeURIComponent(organization.id)}`}
          >
            <UserPlus className="size-4" aria-hidden="true" />
            Invite to {organization.name}
          </Link>
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
      <UserActionDialog action={action} organization={organization} onClose={() => setAction(null)} />
    </QueryPage>
  );
}
