import { ExternalLink, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Page } from '@web/app/layout/page';
import { viewIcon } from '@web/app/layout/sidebar-views';
import { useAccess } from '@web/app/session';
import { TabBar } from '@web/features/settings/resources/resource-tabs';
import { SourceBadge } from '@web/features/settings/resources/source-badge';
import { ViewContent } from '@web/features/views/view-content';
import { patchSearchParams, pickOption, readSearchParams } from '@web/lib/url-state';
import { useUrlParams } from '@web/lib/use-url-params';
import { buttonBase, Button } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { isUiView, viewTitle } from '../api/schema';
import { useDeleteView, useViewRow } from '../api/views';
import { ViewEditor } from '../editor/view-editor';
import { savedListPath, VIEW_SETTINGS_PATH, viewPagePath } from '../paths';
import { ViewsBreadcrumb } from './breadcrumb';

const TABS = ['edit', 'preview'] as const;

/**
 * /settings/views/{id}: one view's editor. A view from a file or an agent is shown read-only with the
 * reason; Delete asks first (spec §5: delete confirmation is required for resources).
 */
export default function ViewSettingsPage() {
  const { id = '' } = useParams();
  const { can } = useAccess();
  const navigate = useNavigate();
  const view = useViewRow(id);
  const remove = useDeleteView();
  const [confirming, setConfirming] = useState(false);
  const [params, setParams] = useUrlParams();
  const tab = pickOption(readSearchParams(params).tab, TABS, 'edit');
  const setTab = (next: string) => setParams((current) => patchSearchParams(current, { tab: next }, { tab: 'edit' }));
  const data = view.data;
  const fromUi = data ? isUiView(data) : false;
  const editable = fromUi && can('views', 'update');
  const canDelete = fromUi && can('views', 'delete');
  const Icon = viewIcon(data?.icon);

  return (
    <Page
      title={data ? viewTitle(data) : 'View'}
      onRefresh={() => void view.refetch()}
      refreshing={view.isFetching}
      extra={
        data ? (
          <div className="flex items-center gap-2">
            <Link to={viewPagePath(data.id)} className={cn(buttonBase, 'h-8 gap-1.5 border border-slate-300 bg-white px-3 text-sm text-slate-800 hover:bg-slate-50')}>
              <ExternalLink className="size-4" aria-hidden="true" />
              Open view
            </Link>
            {canDelete ? (
              <Button size="sm" variant="danger" onClick={() => setConfirming(true)}>
                <Trash2 className="size-4" aria-hidden="true" />
                Delete
              </Button>
            ) : null}
          </div>
        ) : null
      }
    >
      <div className="flex flex-col gap-4">
        <ViewsBreadcrumb current={data ? data.name : id} />
        {view.isPending ? <Loading /> : null}
        {view.error ? (
          <p role="alert" className="text-sm text-red-600">
            {view.error.message}
          </p>
        ) : null}
        {!view.isPending && data === null ? (
          <EmptyState
            title="View not found"
            description={
              <Link to={VIEW_SETTINGS_PATH} className="text-blue-700 hover:underline">
                Back to the views
              </Link>
            }
          />
        ) : null}
        {data ? (
          <>
            <header className="flex flex-wrap items-center gap-3">
              <Icon className="size-6 text-slate-500" aria-hidden="true" />
              <p className="font-mono text-xs text-slate-500">
                {data.namespace}/{data.name}
              </p>
              {fromUi ? null : <SourceBadge source={data.source ?? ''} />}
            </header>
            {fromUi ? null : (
              <p role="note" className="rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900">
                This view comes from {data.source}; it is read-only here: change it where it is defined.
              </p>
            )}
            {fromUi && !editable ? <p className="text-sm text-slate-600">You may read this view but not change it.</p> : null}
            {data.error ? (
              <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
                {data.error}
              </p>
            ) : null}
            <TabBar label="View" tabs={[{ id: 'edit', label: editable ? 'Edit' : 'Spec' }, { id: 'preview', label: 'Preview' }]} value={tab} onValueChange={setTab}>
              {tab === 'preview' ? (
                <div className="flex flex-col gap-3">
                  <p className="text-xs text-slate-500">The view as saved; changes in the editor show here once saved.</p>
                  <ViewContent viewId={data.id} embedded />
                </div>
              ) : (
                <ViewEditor
                  key={data.id}
                  view={data}
                  readOnly={!editable}
                  onBack={() => void navigate(VIEW_SETTINGS_PATH)}
                  onDelete={canDelete ? () => setConfirming(true) : undefined}
                  onSaved={(saved) => void navigate(savedListPath(saved))}
                />
              )}
            </TabBar>
          </>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete View"
        description={`Are you sure you want to delete ${data?.name ?? ''}?`}
        busy={remove.isPending}
        onConfirm={() => {
          if (data) remove.mutate({ id: data.id, name: data.name }, { onSuccess: () => void navigate(VIEW_SETTINGS_PATH) });
        }}
      />
    </Page>
  );
}
