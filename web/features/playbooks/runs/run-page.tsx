import { Ban, CheckCheck, RotateCcw } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Page } from '@web/app/layout/page';
import { useAccess, useSession } from '@web/app/session';
import { patchSearchParams, readSearchParams } from '@web/lib/url-state';
import { useUrlParams } from '@web/lib/use-url-params';
import { Button } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { DateTime } from '@web/ui/primitives/date-time';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { PersonCell } from '@web/ui/person-cell';
import { useApprovals, useApproveRun, useCancelRun, useRerun, useRun, useRunActions, useRunSpec } from '../api/runs';
import type { PlaybookRun, RunAction } from '../api/schema';
import { playbookTitle, RunStatusBadge } from '../components/badges';
import { Duration, ResourceLink } from '../components/run-parts';
import { approversOf, isApprover, type Approvers } from '../model/approvers';
import { isFinalStatus } from '../model/status';
import { playbookPath, PLAYBOOKS_PATH, RUNS_PATH, runPath } from '../paths';
import { ActionResult } from './action-result';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-sm text-slate-900">{children}</dd>
    </div>
  );
}

function Parameters({ values }: { values: Record<string, unknown> }) {
  const entries = Object.entries(values);
  if (entries.length === 0) return null;
  return (
    <section aria-label="Parameters" className="flex flex-col gap-2">
      <h2 className="text-sm font-semibold text-slate-900">Parameters</h2>
      <dl className="grid max-w-3xl grid-cols-[max-content_1fr] gap-x-4 gap-y-1 rounded-md border border-slate-200 bg-white p-3 text-sm">
        {entries.map(([name, value]) => (
          <div key={name} className="contents">
            <dt className="font-mono text-xs text-slate-500">{name}</dt>
            <dd className="break-words font-mono text-xs text-slate-900">{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function ActionList({ actions, selected, onSelect }: { actions: readonly RunAction[]; selected: string | undefined; onSelect: (id: string) => void }) {
  return (
    <ul aria-label="Actions" className="flex flex-col divide-y divide-slate-100 rounded-md border border-slate-200 bg-white">
      {actions.map((action) => (
        <li key={action.id}>
          <button
            type="button"
            aria-current={action.id === selected ? 'true' : undefined}
            onClick={() => onSelect(action.id)}
            className={cn('flex w-full flex-col gap-1 px-3 py-2 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-600', action.id === selected && 'bg-blue-50')}
          >
            <span className="flex items-center justify-between gap-2">
              <span className="truncate font-medium text-slate-900">{action.name}</span>
              <RunStatusBadge status={action.status} />
            </span>
            <span className="flex gap-3 text-xs text-slate-500">
              {action.type ? <span>{action.type}</span> : null}
              <Duration start={action.start_time} end={action.end_time} />
              {action.retry_count ? <span>Retry {action.retry_count}</span> : null}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

function Actions({ run }: { run: PlaybookRun }) {
  const actions = useRunActions(run);
  const [params, setParams] = useUrlParams();
  const chosen = readSearchParams(params).action;
  const list = actions.data ?? [];
  // The chosen action (?action=), else the latest attempt that failed, else the last one.
  const selected = list.find((action) => action.id === chosen) ?? [...list].reverse().find((action) => action.status === 'failed') ?? list[list.length - 1];
  if (actions.isPending) return <Loading />;
  if (actions.error) return <p role="alert" className="text-sm text-red-600">{actions.error.message}</p>;
  if (list.length === 0) {
    return <p className="text-sm text-slate-600">{isFinalStatus(run.status) ? 'No actions ran.' : run.status === 'pending_approval' ? 'The actions run once the run is approved.' : 'No action has started yet.'}</p>;
  }
  return (
    <div className="grid gap-4 lg:grid-cols-[20rem_1fr]">
      <ActionList actions={list} selected={selected?.id} onSelect={(id) => setParams((current) => patchSearchParams(current, { action: id }))} />
      {selected ? (
        <section aria-label={`Action ${selected.name}`} className="flex min-w-0 flex-col gap-3 rounded-md border border-slate-200 bg-white p-4">
          <div className="flex flex-wrap items-center gap-3">
            <h3 className="font-semibold text-slate-900">{selected.name}</h3>
            <RunStatusBadge status={selected.status} />
            <span className="text-xs text-slate-500">
              <DateTime value={selected.start_time} /> · <Duration start={selected.start_time} end={selected.end_time} />
              {selected.retry_count ? ` · retry ${selected.retry_count}` : ''}
            </span>
          </div>
          <ActionResult action={selected} />
        </section>
      ) : null}
    </div>
  );
}

function Approvals({ run }: { run: PlaybookRun }) {
  const approvals = useApprovals(run.id, run.status === 'pending_approval');
  const list = approvals.data ?? [];
  if (list.length === 0) return null;
  return (
    <section aria-label="Approvals" className="flex flex-col gap-2">
      <h2 className="text-sm font-semibold text-slate-900">Approvals</h2>
      <ul className="flex flex-col gap-1 text-sm">
        {list.map((approval) => (
          <li key={approval.id} className="flex items-center gap-2">
            <PersonCell name={approval.person?.name ?? approval.person_id ?? approval.team_id ?? ''} email={approval.person?.email} avatar={approval.person?.avatar} />
            <DateTime value={approval.created_at} className="text-xs text-slate-500" />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The run this one runs again (POST /run/rerun records it as request {trigger: 'rerun', run_id}). */
function rerunOf(run: Pick<PlaybookRun, 'request'>): string | undefined {
  const request = run.request;
  return request?.trigger === 'rerun' && typeof request.run_id === 'string' && request.run_id !== '' ? request.run_id : undefined;
}

function listOf(approvers: Approvers): string {
  const names = [...approvers.people, ...approvers.teams.map((team) => `team ${team}`)];
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1] ?? ''}`;
}

/** Who the run waits for, and whether that is the person looking. */
function pendingText(approvers: Approvers, named: boolean | undefined, known: boolean): string {
  if (named === true) return 'This run waits for approval: you are one of its approvers.';
  const who = known ? listOf(approvers) : '';
  return `This run waits for approval${who ? ` by ${who}` : ' by one of its approvers'}.`;
}

/** Spec §2 /playbooks/runs/{id}: a run as it happens (polled until final), its actions and their results. */
export default function RunPage() {
  const { id = '' } = useParams();
  const { can } = useAccess();
  const navigate = useNavigate();
  const run = useRun(id);
  const approve = useApproveRun();
  const cancel = useCancelRun();
  const rerun = useRerun();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const data = run.data;
  const canRun = can('playbook_runs', 'playbook:run');
  const session = useSession();
  const user = session.status === 'ready' ? session.user : undefined;
  const pending = data?.status === 'pending_approval';
  // Approve is offered to those the server would let approve: the permission, and being a named
  // approver (or possibly one, through a team the server checks). Unreadable approvers leave it to the server.
  const runSpec = useRunSpec(id, pending);
  const approvers = approversOf(runSpec.data);
  const named = runSpec.isError ? undefined : runSpec.isSuccess && user ? isApprover(approvers, user) : false;
  const canApprove = (can('playbooks', 'playbook:approve') || can('playbook_runs', 'playbook:approve')) && named !== false;
  const title = data?.playbook ? `Run of ${playbookTitle(data.playbook)}` : 'Playbook run';
  const final = data ? isFinalStatus(data.status) : true;

  return (
    <Page
      title={title}
      onRefresh={() => void run.refetch()}
      refreshing={run.isFetching}
      extra={
        data ? (
          <div className="flex items-center gap-2">
            {data.status === 'pending_approval' && canApprove ? (
              <Button size="sm" variant="primary" disabled={approve.isPending} onClick={() => approve.mutate(data.id)}>
                <CheckCheck className="size-4" aria-hidden="true" />
                {approve.isPending ? 'Approving…' : 'Approve'}
              </Button>
            ) : null}
            {!final && canRun ? (
              <Button size="sm" variant="danger" onClick={() => setConfirmCancel(true)}>
                <Ban className="size-4" aria-hidden="true" />
                Cancel run
              </Button>
            ) : null}
            {final && canRun ? (
              <Button size="sm" disabled={rerun.isPending} onClick={() => rerun.mutate(data.id, { onSuccess: (answer) => void navigate(runPath(answer.run_id)) })}>
                <RotateCcw className="size-4" aria-hidden="true" />
                {rerun.isPending ? 'Starting…' : 'Re-run'}
              </Button>
            ) : null}
          </div>
        ) : null
      }
    >
      <div className="flex flex-col gap-5">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm text-slate-600">
          <Link to={PLAYBOOKS_PATH} className="text-blue-700 hover:underline">
            Playbooks
          </Link>
          <span aria-hidden="true" className="text-slate-400">/</span>
          <Link to={RUNS_PATH} className="text-blue-700 hover:underline">
            Runs
          </Link>
          <span aria-hidden="true" className="text-slate-400">/</span>
          <span aria-current="page" className="font-mono text-xs text-slate-900">{id}</span>
        </nav>
        {run.isPending ? <Loading /> : null}
        {run.error ? (
          <p role="alert" className="text-sm text-red-600">
            {run.error.message}
          </p>
        ) : null}
        {!run.isPending && data === null ? <EmptyState title="Run not found" description={<Link to={RUNS_PATH} className="text-blue-700 hover:underline">Back to the runs</Link>} /> : null}
        {data ? (
          <>
            <dl aria-label="Run" className="grid gap-4 rounded-md border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4">
              <Fact label="Status">
                <span aria-label={`Status: ${data.status}`} role="status">
                  <RunStatusBadge status={data.status} />
                </span>
              </Fact>
              <Fact label="Playbook">
                {data.playbook ? (
                  <Link to={playbookPath(data.playbook.id)} className="text-blue-700 hover:underline">
                    {playbookTitle(data.playbook)}
                  </Link>
                ) : (
                  data.playbook_id
                )}
              </Fact>
              <Fact label="Resource">
                <ResourceLink run={data} />
              </Fact>
              <Fact label="Run by">{data.person ? <PersonCell name={data.person.name ?? ''} email={data.person.email} avatar={data.person.avatar} /> : data.request?.trigger ? String(data.request.trigger) : 'System'}</Fact>
              <Fact label="Created">
                <DateTime value={data.created_at} />
              </Fact>
              <Fact label="Started">
                <DateTime value={data.start_time} empty="—" />
              </Fact>
              <Fact label="Ended">
                <DateTime value={data.end_time} empty="—" />
              </Fact>
              <Fact label="Duration">
                <Duration start={data.start_time} end={data.end_time} />
              </Fact>
              {rerunOf(data) ? (
                <Fact label="Re-run of">
                  <Link to={runPath(rerunOf(data) ?? '')} className="font-mono text-xs text-blue-700 hover:underline">
                    {rerunOf(data)}
                  </Link>
                </Fact>
              ) : null}
              {data.parent_id ? (
                <Fact label="Parent run">
                  <Link to={runPath(data.parent_id)} className="font-mono text-xs text-blue-700 hover:underline">
                    {data.parent_id}
                  </Link>
                </Fact>
              ) : null}
            </dl>
            {data.error ? (
              <p role="alert" className="whitespace-pre-wrap rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
                {data.error}
              </p>
            ) : null}
            {pending ? (
              <p role="note" aria-label="Pending approval" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
                {pendingText(approvers, named, runSpec.isSuccess)}
              </p>
            ) : null}
            <Parameters values={data.parameters ?? {}} />
            <Approvals run={data} />
            <section aria-label="Run actions" className="flex flex-col gap-2">
              <h2 className="text-sm font-semibold text-slate-900">Actions</h2>
              <Actions run={data} />
            </section>
          </>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirmCancel}
        onOpenChange={setConfirmCancel}
        title="Cancel run"
        description="Stop this run? Actions under way are stopped and the rest do not run."
        confirmLabel="Cancel run"
        busyLabel="Cancelling…"
        busy={cancel.isPending}
        onConfirm={() => {
          if (data) cancel.mutate(data.id, { onSuccess: () => setConfirmCancel(false) });
        }}
      />
    </Page>
  );
}
