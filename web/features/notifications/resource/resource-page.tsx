import { Link, useParams } from 'react-router';
import { Page } from '@web/app/layout/page';
import { UnauthorizedPage } from '@web/app/pages/unauthorized-page';
import { useAccess } from '@web/app/session';
import { Loading } from '@web/ui/primitives/loading';
import { useResourceName } from '../api/history';
import { SendHistory } from '../components/send-history';
import { resourceHref } from '../model/format';
import { NOTIFICATIONS_PATH } from '../paths';

/** Spec §2 /notifications/resource/{resourceId}: every send about one check, config item or component. */
export default function ResourceNotificationsPage() {
  const { ready, can } = useAccess();
  const { resourceId = '' } = useParams();
  const resource = useResourceName(resourceId);
  const name = resource.data?.name ?? resourceId;
  const href = resource.data ? resourceHref(resource.data.kind, resourceId) : undefined;
  if (!ready || !can('notifications', 'read')) return <Page title="Notifications">{ready ? <UnauthorizedPage /> : <Loading />}</Page>;
  return (
    <Page title={`Notifications of ${name}`} onRefresh={() => void resource.refetch()} refreshing={resource.isFetching}>
      <div className="flex flex-col gap-4">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm text-slate-600">
          <Link to={NOTIFICATIONS_PATH} className="text-blue-700 hover:underline">
            Notifications
          </Link>
          <span aria-hidden="true" className="text-slate-400">/</span>
          {href ? (
            <Link to={href} aria-current="page" className="font-medium text-blue-700 hover:underline">
              {name}
            </Link>
          ) : (
            <span aria-current="page" className="font-medium text-slate-900">{name}</span>
          )}
          {resource.data?.kind ? <span className="text-slate-500">({resource.data.kind})</span> : null}
        </nav>
        {resource.error ? <p role="alert" className="text-sm text-red-600">{resource.error.message}</p> : null}
        <SendHistory resourceId={resourceId} />
      </div>
    </Page>
  );
}
