import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { connectionType } from '@common/connections';
import { Page } from '@web/app/layout/page';
import { UnauthorizedPage } from '@web/app/pages/unauthorized-page';
import { useAccess } from '@web/app/session';
import { SourceBadge } from '@web/features/settings/resources/source-badge';
import { toast } from '@web/lib/toast';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { Loading } from '@web/ui/primitives/loading';
import { ConnectionForm } from './connection-form';
import { TypeIcon, typeLabel } from './columns';
import { formToPatch, type FormProblems } from './form';
import { CONNECTIONS_PATH } from './paths';
import { useConnection, useDeleteConnection, useUpdateConnection } from './queries';
import { saveErrorProblems } from './save-errors';
import type { ConnectionRow } from './schema';
import { TestPanel } from './test-panel';

/** /settings/connections/{id}: the connection's form (Update, Delete) and its Test. */
export default function ConnectionDetailPage() {
  const { id = '' } = useParams();
  const { ready, can } = useAccess();
  if (!ready || !can('connections', 'read')) return <Page title="Connections">{ready ? <UnauthorizedPage /> : <Loading />}</Page>;
  return <ConnectionDetail key={id} id={id} />;
}

function ConnectionDetail({ id }: { id: string }) {
  const query = useConnection(id);
  const row = query.data ?? null;
  const content = query.isLoading ? (
    <Loading />
  ) : row ? (
    // Keyed by id only: the refetch after a save must not remount the form before it returns to the list.
    <Editor key={row.id} row={row} />
  ) : (
    <p role="alert" className="text-sm text-red-600">
      {query.error?.message ?? 'No connection found: it may have been deleted.'}
    </p>
  );
  return (
    <Page title="Connections" onRefresh={() => void query.refetch()} refreshing={query.isFetching}>
      <nav aria-label="Breadcrumb" className="mb-4 flex items-center gap-2 text-sm text-slate-600">
        <Link to={CONNECTIONS_PATH} className="text-blue-700 hover:underline">
          Connections
        </Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page" className="flex items-center gap-1.5 font-medium text-slate-900">
          {row ? <TypeIcon type={row.type} /> : null}
          {row?.name ?? ''}
        </span>
        {row ? <span className="text-slate-500">({typeLabel(row.type)}, namespace {row.namespace})</span> : null}
        {row?.source && row.source !== 'UI' ? <SourceBadge source={row.source} /> : null}
      </nav>
      {content}
    </Page>
  );
}

function Editor({ row }: { row: ConnectionRow }) {
  const navigate = useNavigate();
  const { can } = useAccess();
  const def = connectionType(row.type);
  const toList = () => void navigate(CONNECTIONS_PATH);
  const update = useUpdateConnection(row.id, toList);
  const remove = useDeleteConnection(row.id, row.name, toList);
  const [confirming, setConfirming] = useState(false);
  const [serverProblems, setServerProblems] = useState<FormProblems>({});
  const linked = row.source && row.source !== 'UI' ? row.source : undefined;
  const readOnly = linked !== undefined || !can('connections', 'update');
  const onDelete = linked === undefined && can('connections', 'delete') ? () => setConfirming(true) : undefined;

  if (!def) {
    return (
      <p role="alert" className="text-sm text-red-600">
        This connection's type, "{row.type}", is not known to this console, so it cannot be shown as a form.
      </p>
    );
  }
  return (
    <>
      {linked ? (
        <p role="note" className="mb-4 max-w-2xl rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900">
          This connection comes from {linked} and is read-only here: change it where it is defined.
        </p>
      ) : null}
      <ConnectionForm
        def={def}
        row={row}
        readOnly={readOnly}
        saving={update.isPending}
        serverProblems={serverProblems}
        onBack={toList}
        onDelete={onDelete}
        onSubmit={(values, initial) => {
          setServerProblems({});
          update.mutate(formToPatch(def, initial, values), {
            onError: (error) => {
              const problems = saveErrorProblems(def, error);
              if (problems) setServerProblems(problems);
              else toast.error(error);
            },
          });
        }}
        extra={(dirty) => <TestPanel id={row.id} dirty={dirty} />}
      />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete Connection"
        description={`Are you sure you want to delete ${row.name}?`}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </>
  );
}
