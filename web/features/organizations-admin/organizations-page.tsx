import { Building2, Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Page } from '@web/app/layout/page';
import { UnauthorizedPage } from '@web/app/pages/unauthorized-page';
import { useAccess } from '@web/app/session';
import { useUrlParams } from '@web/lib/use-url-params';
import { useUrlSearch } from '@web/lib/use-url-search';
import { DataTable, sortingToParams, type SortingState } from '@web/ui/data-table';
import { QueryPage } from '@web/ui/query-page';
import { Button } from '@web/ui/primitives/button';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Field } from '@web/ui/primitives/field';
import { Loading } from '@web/ui/primitives/loading';
import { organizationColumns } from './columns';
import { applyOrganizationsChange, parseOrganizationsFilters, visibleOrganizations } from './filters';
import { MembersSheet } from './members-sheet';
import { OrganizationDialog } from './organization-dialog';
import { useDeleteOrganization, useOrganizations, useOrganizationsAccess } from './queries';
import type { Organization } from './schema';

/** /settings/organizations: hosted mode's organizations, their backends and members (docs/HOSTED.md item 6). */
export default function OrganizationsPage() {
  const { ready } = useAccess();
  const manages = useOrganizationsAccess();
  // A platform administrator manages the organizations whatever their role in the organization they work
  // in; an organization's admin its own. The route guard asked the session the same (routes.ts); the
  // server's answer decides, so nobody is shown a page whose every request would answer 403.
  const allowed = !manages.data || manages.data.platform_admin || manages.data.organization_id !== null;
  if (!ready || manages.isLoading) return <Page title="Organizations"><Loading /></Page>;
  if (!allowed) return <Page title="Organizations"><UnauthorizedPage /></Page>;
  return <Organizations platform={manages.data?.platform_admin} />;
}

/**
 * `platform`: whether the person is a platform administrator (undefined when the server did not say):
 * creating, changing and deleting organizations is theirs; an organization's admin sees its own
 * organization and manages its members (the server decides either way).
 */
function Organizations({ platform }: { platform: boolean | undefined }) {
  const [params, setParams] = useUrlParams();
  const filters = useMemo(() => parseOrganizationsFilters(params), [params]);
  const organizations = useOrganizations();
  const remove = useDeleteOrganization();
  const { can } = useAccess();
  const canCreate = platform ?? can('identities', 'create');
  const [deleting, setDeleting] = useState<Organization | null>(null);
  const change = (patch: Parameters<typeof applyOrganizationsChange>[1]) => setParams((current) => applyOrganizationsChange(current, patch));

  const [search, setSearch] = useUrlSearch(filters.search, (q) => setParams((current) => applyOrganizationsChange(current, { q })));

  const all = organizations.data ?? [];
  const rows = useMemo(() => visibleOrganizations(all, filters), [all, filters]);
  const columns = useMemo(
    () =>
      organizationColumns({
        canUpdate: platform ?? can('identities', 'update'),
        canDelete: platform ?? can('identities', 'delete'),
        onEdit: (organization) => setParams((current) => applyOrganizationsChange(current, { edit: organization.id })),
        onMembers: (organization) => setParams((current) => applyOrganizationsChange(current, { members: organization.id })),
        onDelete: setDeleting,
      }),
    [can, platform, setParams],
  );
  const sorting: SortingState = [{ id: filters.sortBy, desc: filters.sortOrder === 'desc' }];
  const onSortingChange = (next: SortingState) => change(sortingToParams(next));
  const editing = filters.edit === 'new' ? undefined : all.find((row) => row.id === filters.edit);
  const membersOf = all.find((row) => row.id === filters.members);
  const createButton = canCreate ? (
    <Button variant="primary" size="sm" onClick={() => change({ edit: 'new' })}>
      <Plus className="size-4" aria-hidden="true" />
      New organization
    </Button>
  ) : null;

  return (
    <QueryPage
      title="Organizations"
      query={organizations}
      extra={createButton}
      toolbar={
        <div role="search" aria-label="Organization filters" className="max-w-sm">
          <Field label="Search" placeholder="Name, external ID or backend" type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        </div>
      }
    >
      {!organizations.isLoading && all.length === 0 && !organizations.error ? (
        <EmptyState
          icon={<Building2 className="size-5" aria-hidden="true" />}
          title="No organizations yet"
          description="Organizations appear here when people sign in through the provider with an organization claim, or when you create one."
          action={createButton}
        />
      ) : (
        <DataTable
          aria-label="Organizations"
          data={rows}
          columns={columns}
          getRowId={(row) => row.id}
          isLoading={organizations.isLoading}
          emptyText="No organization matches the search"
          manualSorting
          sorting={sorting}
          onSortingChange={onSortingChange}
        />
      )}
      {filters.edit === 'new' && canCreate ? <OrganizationDialog organization={undefined} onClose={() => change({ edit: undefined })} /> : null}
      {editing ? <OrganizationDialog key={editing.id} organization={editing} onClose={() => change({ edit: undefined })} /> : null}
      {membersOf ? <MembersSheet organization={membersOf} onClose={() => change({ members: undefined })} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete ${deleting?.name ?? ''}?`}
        description="Its members lose access to it and people working in it choose an organization again. Its backend is not touched."
        busy={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting, { onSettled: () => setDeleting(null) });
        }}
      />
    </QueryPage>
  );
}
