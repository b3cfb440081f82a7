import { AlertTriangle } from 'lucide-react';
import { ConfigIcon } from '@web/features/catalog/components/config-icon';
import { Skeleton } from '@web/ui/primitives/skeleton';
import { useRefreshView, useViewAnswer } from './api/view';
import { ViewPanelCard } from './components/panels/view-panel';
import { RefreshControl } from './components/refresh-age';
import { VariablePickers } from './components/variable-pickers';
import { pick, useSelection, useTableState, useTableStateReader } from './components/view-state';
import { ViewTable } from './components/view-table';
import type { Selection } from './model/variables';

export interface ViewContentProps {
  viewId: string;
  /** The selected variables; with `onVariablesChange` the caller holds them (a view page keeps them in the URL). */
  variables?: Selection;
  onVariablesChange?: (next: Selection) => void;
  /** Drawn inside another page (a section, the catalog tab, an application report, a preview): smaller header, table state in memory. */
  embedded?: boolean;
}

function ViewSkeleton() {
  return (
    <div role="status" aria-label="Loading view" className="flex flex-col gap-3">
      <Skeleton className="h-6 w-56" />
      <div className="flex gap-3">
        <Skeleton className="h-32 flex-1" />
        <Skeleton className="h-32 flex-1" />
        <Skeleton className="h-32 flex-1" />
      </div>
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

/**
 * One view (issue 22): POST /api/view/{id} with the variables, then its header and refresh age, variable
 * pickers, panels, the table (rows through /api/db) and its sections (embedded views). Loading shows a
 * skeleton; a failure shows the server's message or 'HTTP {status}: {text}' (spec §7), never a blank
 * page; a failed last refresh is a banner above the rows it left.
 */
export function ViewContent({ viewId, variables, onVariablesChange, embedded = false }: ViewContentProps) {
  const [selection, setSelection] = useSelection(variables, onVariablesChange);
  const answer = useViewAnswer(viewId, selection, useTableStateReader(embedded));
  const refresh = useRefreshView(viewId, selection);
  const view = answer.data;
  const [tableState, setTableState] = useTableState(embedded, view?.columns ?? [], view?.sort);

  if (answer.isPending) return <ViewSkeleton />;
  if (!view) {
    return (
      <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
        {answer.error?.message ?? 'An error occurred'}
      </p>
    );
  }
  const title = view.title || view.name;
  const Heading = embedded ? 'h3' : 'h2';
  const refreshing = refresh.isPending || view.refreshing;
  return (
    <div className="flex flex-col gap-4" aria-busy={answer.isFetching}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Heading className={embedded ? 'flex items-center gap-2 text-sm font-semibold text-slate-900' : 'flex items-center gap-2 text-lg font-semibold text-slate-900'}>
          {view.icon ? <ConfigIcon type={view.icon} className="size-5" /> : null}
          {title}
        </Heading>
        <RefreshControl ageSeconds={view.ageSeconds} refreshedAt={view.refreshedAt} receivedAt={answer.dataUpdatedAt} refreshing={refreshing} onRefresh={() => refresh.mutate()} />
      </div>
      {answer.error ? (
        <p role="alert" className="text-sm text-red-600">
          {answer.error.message}
        </p>
      ) : null}
      {refresh.error ? (
        <p role="alert" className="text-sm text-red-600">
          {refresh.error.message}
        </p>
      ) : null}
      {view.error ? (
        <div role="alert" className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <div>
            <p className="font-medium">The last refresh failed{view.rows.length > 0 || (view.totalRows ?? 0) > 0 ? '; the rows below are from the refresh before it' : ''}.</p>
            <p className="break-words">{view.error}</p>
          </div>
        </div>
      ) : null}
      <VariablePickers variables={view.variables} selection={selection} onChange={(key, value) => setSelection(pick(selection, key, value, view.variables))} />
      {view.panels.length > 0 ? (
        <div className="flex flex-wrap gap-3">
          {view.panels.map((panel) => (
            <ViewPanelCard key={panel.name} panel={panel} />
          ))}
        </div>
      ) : null}
      {view.table && view.requestFingerprint && view.columns.length > 0 ? (
        <ViewTable
          title={title}
          table={view.table}
          fingerprint={view.requestFingerprint}
          columns={view.columns}
          refreshedAt={view.refreshedAt}
          state={tableState}
          onStateChange={(next) => setTableState(next)}
        />
      ) : null}
      {view.sections.map((section) => (
        <section key={section.id ?? `${section.namespace}/${section.name}`} aria-label={section.title || section.name || 'Section'} className="flex flex-col gap-2 border-t border-slate-200 pt-4">
          {section.id ? (
            <ViewContent viewId={section.id} embedded />
          ) : (
            <p role="alert" className="text-sm text-red-600">
              {section.title ? `${section.title}: ` : ''}view {section.namespace}/{section.name} not found
            </p>
          )}
        </section>
      ))}
    </div>
  );
}
