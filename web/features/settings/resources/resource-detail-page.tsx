import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Page } from '@web/app/layout/page';
import NotFoundPage from '@web/app/pages/not-found-page';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { Loading } from '@web/ui/primitives/loading';
import { useDeleteResource, useResource, useSaveResource } from './queries';
import { findResource, type SettingsResource } from './registry';
import { useResourceRegistry } from './registry-context';
import { ResourceForm } from './resource-form';
import { valuesToWrite, valueToText, type ResourceValues } from './values';

/** The id segment that opens an empty form instead of an existing row. */
export const NEW_ID = 'new';

export default function ResourceDetailPage() {
  const { table, id } = useParams();
  const resource = findResource(table, useResourceRegistry());
  if (!resource || !id) return <NotFoundPage />;
  return <ResourceDetail key={`${resource.table}/${id}`} resource={resource} id={id === NEW_ID ? null : id} />;
}

function ResourceDetail({ resource, id }: { resource: SettingsResource; id: string | null }) {
  const navigate = useNavigate();
  const listPath = `/settings/${resource.table}`;
  const query = useResource(resource, id);
  const save = useSaveResource(resource, id);
  const remove = useDeleteResource(resource, id ?? '');
  const [confirming, setConfirming] = useState(false);
  const row = query.data ?? null;
  const name = id === null ? 'New' : valueToText(row?.[resource.titleKey ?? 'name']) || id;
  // Spec §2: after saving, the user returns to the list.
  const submit = (values: ResourceValues) => save.mutate(valuesToWrite(resource.fields, values, id !== null), { onSuccess: () => void navigate(listPath) });

  return (
    <Page title={resource.label}>
      <nav aria-label="Breadcrumb" className="mb-4 flex items-center gap-2 text-sm text-slate-600">
        <Link to={listPath} className="text-blue-700 hover:underline">
          {resource.label}
        </Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page" className="font-medium text-slate-900">
          {name}
        </span>
      </nav>
      {id !== null && query.isLoading ? (
        <Loading />
      ) : id !== null && !row ? (
        <p role="alert">{query.error?.message ?? 'No resources found'}</p>
      ) : (
        <ResourceForm
          fields={resource.fields}
          row={row}
          saving={save.isPending}
          onSubmit={submit}
          onBack={() => void navigate(listPath)}
          onDelete={id !== null ? () => setConfirming(true) : undefined}
        />
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Delete ${resource.label}`}
        description={`Are you sure you want to delete ${name}?`}
        busy={remove.isPending}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => void navigate(listPath) })}
      />
    </Page>
  );
}
