import { Pencil, Play, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Page } from '@web/app/layout/page';
import { useAccess } from '@web/app/session';
import { TabBar } from '@web/features/settings/resources/resource-tabs';
import { SourceBadge } from '@web/features/settings/resources/source-badge';
import { patchSearchParams, pickOption, readSearchParams } from '@web/lib/url-state';
import { useUrlParams } from '@web/lib/use-url-params';
import { Button } from '@web/ui/primitives/button';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { useDeletePlaybook, usePlaybook } from '../api/playbooks';
import { useRuns } from '../api/runs';
import type { Playbook } from '../api/schema';
import { PlaybookIcon, playbookTitle } from '../components/badges';
import { RunsTable } from '../components/runs-table';
import { PlaybookEditor } from '../editor/playbook-editor';
import { playbookRunsPath, PLAYBOOKS_PATH } from '../paths';
import { RunDialog } from '../run/run-dialog';
import { SpecSummary } from './spec-summary';

const TABS = ['overview', 'edit'] as const;
const RECENT_RUNS = 10;

export const isUiPlaybook = (playbook: Pick<Playbook, 'source'>) => (playbook.source ?? 'UI') === 'UI';

function RecentRuns({ id }: { id: string }) {
  const runs = useRuns({ playbook: id, pageIndex: 0, pageSize: RECENT_RUNS });
  return (
    <section aria-label="Recent runs" className="flex flex-col gap-2">
      <div className="flex items-center justify-between">
        <h2 className="text-sm font-semibold text-slate-900">Recent runs</h2>
        <Link to={playbookRunsPath(id)} className="text-sm text-blue-700 hover:underline">
          All runs
        </Link>
      </div>
      {runs.error ? <p role="alert" className="text-sm text-red-600">{runs.error.message}</p> : null}
      <RunsTable rows={runs.data?.rows ?? []} isLoading={runs.isPending} hidePlaybook emptyText="No runs yet" />
    </section>
  );
}

/** Spec §2 job history links here: /playbooks/{id} — the playbook, its recent runs, Run, and its editor (?tab=edit). */
export default function PlaybookPage() {
  const { id = '' } = useParams();
  const { can } = useAccess();
  const navigate = useNavigate();
  const [params, setParams] = useUrlParams();
  const tab = pickOption(readSearchParams(params).tab, TABS, 'overview');
  const playbook = usePlaybook(id);
  const remove = useDeletePlaybook();
  const [running, setRunning] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const data = playbook.data;
  const canRun = can('playbook_runs', 'playbook:run');
  const editable = data ? isUiPlaybook(data) && can('playbooks', 'update') : false;
  const canDelete = data ? isUiPlaybook(data) && can('playbooks', 'delete') : false;
  const setTab = (next: string) => setParams((current) => patchSearchParams(current, { tab: next, mode: undefined }, { tab: 'overview' }));

  return (
    <Page
      title={data ? playbookTitle(data) : 'Playbook'}
      onRefresh={() => void playbook.refetch()}
      refreshing={playbook.isFetching}
      extra={
        data ? (
          <div className="flex items-center gap-2">
            {canRun ? (
              <Button size="sm" variant="primary" onClick={() => setRunning(true)}>
                <Play className="size-4" aria-hidden="true" />
                Run
              </Button>
            ) : null}
            {editable && tab !== 'edit' ? (
              <Button size="sm" onClick={() => setTab('edit')}>
                <Pencil className="size-4" aria-hidden="true" />
                Edit
              </Button>
            ) : null}
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
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm text-slate-600">
          <Link to={PLAYBOOKS_PATH} className="text-blue-700 hover:underline">
            Playbooks
          </Link>
          <span aria-hidden="true" className="text-slate-400">/</span>
          <span aria-current="page" className="font-medium text-slate-900">{data ? playbookTitle(data) : id}</span>
        </nav>
        {playbook.isPending ? <Loading /> : null}
        {playbook.error ? <p role="alert" className="text-sm text-red-600">{playbook.error.message}</p> : null}
        {!playbook.isPending && data === null ? <EmptyState title="Playbook not found" description={<Link to={PLAYBOOKS_PATH} className="text-blue-700 hover:underline">Back to the playbooks</Link>} /> : null}
        {data ? (
          <>
            <header className="flex flex-wrap items-center gap-3">
              <PlaybookIcon icon={data.icon} className="size-7" />
              <div className="min-w-0">
                <p className="font-mono text-xs text-slate-500">
                  {data.namespace}/{data.name}
                </p>
                {data.description ? <p className="text-sm text-slate-700">{data.description}</p> : null}
              </div>
              {data.category ? <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{data.category}</span> : null}
              {isUiPlaybook(data) ? null : <SourceBadge source={data.source ?? ''} />}
            </header>
            {data.error ? <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">{data.error}</p> : null}
            <TabBar label="Playbook" tabs={[{ id: 'overview', label: 'Overview' }, { id: 'edit', label: editable ? 'Edit' : 'Spec' }]} value={tab} onValueChange={setTab}>
              {tab === 'overview' ? (
                <div className="flex flex-col gap-6">
                  <SpecSummary spec={data.spec ?? {}} />
                  <RecentRuns id={data.id} />
                </div>
              ) : (
                <div className="flex flex-col gap-3">
                  {isUiPlaybook(data) ? null : <p className="text-sm text-slate-600">This playbook comes from {data.source}; it is read-only here: change it where it is defined.</p>}
                  <PlaybookEditor key={data.id} playbook={data} readOnly={!editable} onBack={() => setTab('overview')} onDelete={canDelete ? () => setConfirming(true) : undefined} onSaved={() => undefined} />
                </div>
              )}
            </TabBar>
          </>
        ) : null}
      </div>
      {running && data ? <RunDialog playbook={data} onClose={() => setRunning(false)} /> : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete Playbook"
        description={`Are you sure you want to delete ${data?.name ?? ''}? Its runs are kept.`}
        busy={remove.isPending}
        onConfirm={() => {
          if (data) remove.mutate({ id: data.id, name: data.name }, { onSuccess: () => void navigate(PLAYBOOKS_PATH) });
        }}
      />
    </Page>
  );
}
