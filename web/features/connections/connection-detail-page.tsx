import { Link, useParams } from 'react-router';
import { Page } from '@web/app/layout/page';
import { UnauthorizedPage } from '@web/app/pages/unauthorized-page';
import { useAccess } from '@web/app/session';
import { SourceBadge } from '@web/features/settings/resources/source-badge';
import { Loading } from '@web/ui/primitives/loading';
import { TypeIcon, typeLabel } from './columns';
import { ConnectionEditor } from './connection-editor';
import { CONNECTIONS_PATH } from './paths';
import { useConnection } from './queries';

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
    <ConnectionEditor key={row.id} row={row} listPath={CONNECTIONS_PATH} />
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
