import { formatRelative } from '@common/format';
import { BookOpenCheck, LayoutGrid, List, Play, Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Page } from '@web/app/layout/page';
import { useAccess } from '@web/app/session';
import { patchSearchParams, pickOption, readSearchParams } from '@web/lib/url-state';
import { useUrlParams } from '@web/lib/use-url-params';
import { DataTable, type ColumnDef } from '@web/ui/data-table';
import { Button, buttonBase } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { SearchBox } from '@web/ui/search-box';
import { useLastRuns, usePlaybooks, type LastRun } from '../api/playbooks';
import type { Playbook } from '../api/schema';
import { PlaybookIcon, playbookTitle, RunStatusBadge } from '../components/badges';
import { NEW_PLAYBOOK_PATH, playbookPath, RUNS_PATH, runPath } from '../paths';
import { RunDialog } from '../run/run-dialog';

const VIEWS = ['cards', 'table'] as const;
const UNCATEGORIZED = 'Uncategorized';

/** Playbooks by category (categories by name, the unnamed last), each by title. */
export function groupByCategory(playbooks: readonly Playbook[]): Array<{ category: string; playbooks: Playbook[] }> {
  const groups = new Map<string, Playbook[]>();
  for (const playbook of playbooks) {
    const category = playbook.category?.trim() || UNCATEGORIZED;
    groups.set(category, [...(groups.get(category) ?? []), playbook]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === UNCATEGORIZED ? 1 : b === UNCATEGORIZED ? -1 : a.localeCompare(b)))
    .map(([category, items]) => ({ category, playbooks: items.sort((a, b) => playbookTitle(a).localeCompare(playbookTitle(b))) }));
}

function LastRunCell({ run }: { run: LastRun | undefined }) {
  if (!run) return <span className="text-xs text-slate-400">No recent runs</span>;
  return (
    <Link to={runPath(run.id)} className="inline-flex items-center gap-1.5 text-xs text-slate-600 hover:underline" aria-label={`Last run: ${run.status}, ${formatRelative(run.created_at)} ago`}>
      <RunStatusBadge status={run.status} />
      {formatRelative(run.created_at)} ago
    </Link>
  );
}

function PlaybookCard({ playbook, lastRun, canRun, onRun }: { playbook: Playbook; lastRun: LastRun | undefined; canRun: boolean; onRun: () => void }) {
  const title = playbookTitle(playbook);
  return (
    <li aria-label={title} className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex items-start gap-3">
        <PlaybookIcon icon={playbook.icon} className="mt-0.5 size-6 shrink-0" />
        <div className="min-w-0 flex-1">
          <Link to={playbookPath(playbook.id)} className="block truncate font-semibold text-slate-900 hover:text-blue-700 hover:underline">
            {title}
          </Link>
          <p className="truncate text-xs text-slate-500">
            {playbook.namespace}/{playbook.name}
          </p>
        </div>
        {canRun ? (
          <Button size="sm" variant="primary" onClick={onRun} aria-label={`Run ${title}`}>
            <Play className="size-3.5" aria-hidden="true" />
            Run
          </Button>
        ) : null}
      </div>
      {playbook.description ? <p className="line-clamp-2 text-sm text-slate-600">{playbook.description}</p> : null}
      {playbook.error ? (
        <p role="alert" className="text-xs text-red-700">
          {playbook.error}
        </p>
      ) : null}
      <div className="mt-auto pt-1">
        <LastRunCell run={lastRun} />
      </div>
    </li>
  );
}

/** Spec §2 /playbooks: the playbooks by category, as cards or a table, each with its last run and Run. */
export default function PlaybooksPage() {
  const { can } = useAccess();
  const navigate = useNavigate();
  const [params, setParams] = useUrlParams();
  const read = readSearchParams(params);
  const search = read.q ?? '';
  const view = pickOption(read.view, VIEWS, 'cards');
  const playbooks = usePlaybooks(search);
  const lastRuns = useLastRuns();
  const [running, setRunning] = useState<Playbook | null>(null);
  const canRun = can('playbook_runs', 'playbook:run');
  const canCreate = can('playbooks', 'create');
  const groups = useMemo(() => groupByCategory(playbooks.data ?? []), [playbooks.data]);
  const empty = !playbooks.isPending && !playbooks.error && search === '' && (playbooks.data?.length ?? 0) === 0;
  const newButton = canCreate ? (
    <Button variant="primary" size="sm" onClick={() => void navigate(NEW_PLAYBOOK_PATH)}>
      <Plus className="size-4" aria-hidden="true" />
      New playbook
    </Button>
  ) : null;

  const columns = useMemo(
    (): ColumnDef<Playbook>[] => [
      {
        id: 'title',
        header: 'Playbook',
        cell: ({ row: { original } }) => (
          <span className="flex items-center gap-2">
            <PlaybookIcon icon={original.icon} className="size-4" />
            <Link to={playbookPath(original.id)} className="font-medium text-blue-700 hover:underline">
              {playbookTitle(original)}
            </Link>
          </span>
        ),
      },
      { id: 'category', header: 'Category', cell: ({ row: { original } }) => original.category || <span className="text-slate-400">—</span> },
      { id: 'description', header: 'Description', enableSorting: false, cell: ({ row: { original } }) => <span className="block max-w-md truncate">{original.description ?? ''}</span> },
      { id: 'last', header: 'Last run', enableSorting: false, cell: ({ row: { original } }) => <LastRunCell run={lastRuns.data?.get(original.id)} /> },
      {
        id: 'run',
        header: () => <span className="sr-only">Run</span>,
        enableSorting: false,
        cell: ({ row: { original } }) =>
          canRun ? (
            <Button size="sm" onClick={() => setRunning(original)} aria-label={`Run ${playbookTitle(original)}`}>
              <Play className="size-3.5" aria-hidden="true" />
              Run
            </Button>
          ) : null,
      },
    ],
    [lastRuns.data, canRun],
  );

  return (
    <Page
      title="Playbooks"
      extra={
        <div className="flex items-center gap-2">
          {can('playbook_runs', 'read') ? (
            <Link to={RUNS_PATH} className={cn(buttonBase, 'h-8 border border-slate-300 bg-white px-3 text-sm text-slate-800 hover:bg-slate-50')}>
              Runs
            </Link>
          ) : null}
          {empty ? null : newButton}
        </div>
      }
      onRefresh={() => {
        void playbooks.refetch();
        void lastRuns.refetch();
      }}
      refreshing={playbooks.isFetching || lastRuns.isFetching}
    >
      <div className="flex flex-col gap-4">
        {empty ? null : (
          <div role="search" aria-label="Playbook filters" className="flex flex-wrap items-center gap-3">
            <SearchBox label="Search playbooks" placeholder="Name, title, description or category" value={search} onCommit={(q) => setParams((current) => patchSearchParams(current, { q }))} />
            <div role="group" aria-label="View" className="flex rounded-md border border-slate-300 bg-white p-0.5">
              {VIEWS.map((option) => {
                const Icon = option === 'cards' ? LayoutGrid : List;
                return (
                  <button
                    key={option}
                    type="button"
                    aria-pressed={view === option}
                    onClick={() => setParams((current) => patchSearchParams(current, { view: option }, { view: 'cards' }))}
                    className={cn('inline-flex h-7 items-center gap-1 rounded px-2 text-xs font-medium', view === option ? 'bg-slate-100 text-slate-900' : 'text-slate-600 hover:text-slate-900')}
                  >
                    <Icon className="size-3.5" aria-hidden="true" />
                    {option === 'cards' ? 'Cards' : 'Table'}
                  </button>
                );
              })}
            </div>
          </div>
        )}
        {playbooks.error ? (
          <p role="alert" className="text-sm text-red-600">
            {playbooks.error.message}
          </p>
        ) : null}
        {playbooks.isPending ? <Loading /> : null}
        {empty ? (
          <div className="rounded-lg border border-slate-200 bg-white">
            <EmptyState
              icon={<BookOpenCheck className="size-5" aria-hidden="true" />}
              title="No playbooks yet"
              description={
                <>
                  A playbook is a list of actions (scripts, HTTP calls, SQL, notifications) that people run by hand, on a config item, or on an event. Add one by applying a file of{' '}
                  <code className="rounded bg-slate-100 px-1">kind: Playbook</code> with <code className="rounded bg-slate-100 px-1">watchkeeper apply -f playbook.yaml</code>
                  {canCreate ? ', or write one in the editor.' : '.'}
                </>
              }
              action={newButton ?? undefined}
            />
          </div>
        ) : null}
        {!empty && playbooks.data && view === 'table' ? (
          <DataTable aria-label="Playbooks" data={playbooks.data} columns={columns} getRowId={(row) => row.id} emptyText="No playbooks match this search" />
        ) : null}
        {!empty && playbooks.data && view === 'cards' ? (
          groups.length === 0 ? (
            <EmptyState title="No playbooks match this search" />
          ) : (
            groups.map((group) => (
              <section key={group.category} aria-label={group.category} className="flex flex-col gap-2">
                <h2 className="text-sm font-semibold text-slate-700">{group.category}</h2>
                <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
                  {group.playbooks.map((playbook) => (
                    <PlaybookCard key={playbook.id} playbook={playbook} lastRun={lastRuns.data?.get(playbook.id)} canRun={canRun} onRun={() => setRunning(playbook)} />
                  ))}
                </ul>
              </section>
            ))
          )
        ) : null}
      </div>
      {running ? <RunDialog playbook={running} onClose={() => setRunning(null)} /> : null}
    </Page>
  );
}
