import { formatRelative } from '@common/format';
import { BellRing, Pencil, Plus, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Page } from '@web/app/layout/page';
import { UnauthorizedPage } from '@web/app/pages/unauthorized-page';
import { useAccess } from '@web/app/session';
import { SourceBadge } from '@web/features/settings/resources/source-badge';
import { useUrlParams } from '@web/lib/use-url-params';
import { DataTable, sortingToParams, usePersistedPageSize, type ColumnDef, type SortingState } from '@web/ui/data-table';
import { Button } from '@web/ui/primitives/button';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { useFormatDate } from '@web/ui/primitives/date-time';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { IconButton } from '@web/ui/primitives/icon-button';
import { Loading } from '@web/ui/primitives/loading';
import { Switch } from '@web/ui/primitives/switch';
import { SearchBox } from '@web/ui/search-box';
import { resolveTimeRange, TimeRangePicker, writeTimeRangeParams } from '@web/ui/time-range';
import { useDeleteRule, useRangeCounts, useRules, useSetRuleDisabled } from '../api/rules';
import type { RuleSummary } from '../api/schema';
import { RuleStatusBadge } from '../components/badges';
import { NotificationTabs } from '../components/notification-tabs';
import { recipientText, waitingDescription } from '../model/format';
import { rulePath } from '../paths';
import { RuleEditor } from './rule-editor';
import { applyRulesChange, parseRulesFilters, sortRules } from './rules-filters';

/** A rule with its counts over the chosen range. */
type ListedRule = RuleSummary & { range: { sent: number; failed: number; pending: number; last_sent: string | null } };

export const isUiRule = (rule: { source?: string | null | undefined }) => (rule.source ?? 'UI') === 'UI';

/** Spec §2 /notifications: the rules, their recipients, status and sends over a time range. */
export default function RulesPage() {
  const { ready, can } = useAccess();
  if (!ready || !can('notifications', 'read')) return <Page title="Notifications">{ready ? <UnauthorizedPage /> : <Loading />}</Page>;
  return <Rules canWrite={can('notifications', 'write')} />;
}

function Rules({ canWrite }: { canWrite: boolean }) {
  const [params, setParams] = useUrlParams();
  const filters = useMemo(() => parseRulesFilters(params), [params]);
  const [storedSize] = usePersistedPageSize();
  const pageSize = filters.pageSize ?? storedSize;
  const rules = useRules(filters.search);
  // Resolved once per range choice (and per refresh, through the query's key).
  const [refreshedAt, setRefreshedAt] = useState(() => Date.now());
  const resolved = useMemo(() => {
    try {
      return resolveTimeRange(filters.range, new Date(refreshedAt));
    } catch (error) {
      console.warn(error);
      return null;
    }
  }, [filters.range, refreshedAt]);
  const counts = useRangeCounts(resolved);
  const toggle = useSetRuleDisabled();
  const remove = useDeleteRule();
  const [deleting, setDeleting] = useState<RuleSummary | null>(null);

  const listed = useMemo((): ListedRule[] => {
    const byId = new Map((counts.data ?? []).map((row) => [row.notification_id, row]));
    return (rules.data ?? []).map((rule) => {
      const found = byId.get(rule.id);
      return { ...rule, range: { sent: found?.sent ?? 0, failed: found?.failed ?? 0, pending: found?.pending ?? 0, last_sent: found?.last_sent ?? null } };
    });
  }, [rules.data, counts.data]);
  const sorted = useMemo(
    () => sortRules(listed.map((rule) => ({ ...rule, sent: rule.range.sent, failed: rule.range.failed, pending: rule.range.pending, last_sent: rule.last_sent })), filters.sortBy, filters.sortOrder),
    [listed, filters.sortBy, filters.sortOrder],
  );
  const page = sorted.slice(filters.pageIndex * pageSize, (filters.pageIndex + 1) * pageSize);
  const openEditor = (edit: string | undefined) => setParams((current) => applyRulesChange(current, { edit }));

  const formatDate = useFormatDate();
  const columns = useMemo((): ColumnDef<ListedRule>[] => {
    const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();
    return [
      {
        id: 'name',
        header: 'Name',
        cell: ({ row: { original } }) => (
          <span className="flex flex-col">
            <Link to={rulePath(original.id)} className="whitespace-nowrap font-medium text-blue-700 hover:underline">
              {original.name}
            </Link>
            <span className="text-xs text-slate-500">{original.namespace}</span>
          </span>
        ),
      },
      { id: 'status', header: 'Status', cell: ({ row: { original } }) => <RuleStatusBadge status={original.status} error={original.error ?? waitingDescription(original.waiting_for)} /> },
      { id: 'sent', header: 'Sent', cell: ({ row: { original } }) => <span className="tabular-nums">{original.range.sent}</span> },
      { id: 'failed', header: 'Failed', cell: ({ row: { original } }) => <span className={original.range.failed > 0 ? 'tabular-nums text-red-700' : 'tabular-nums'}>{original.range.failed}</span> },
      { id: 'pending', header: 'Pending', cell: ({ row: { original } }) => <span className="tabular-nums">{original.range.pending}</span> },
      {
        id: 'last_sent',
        header: 'Last sent',
        cell: ({ row: { original } }) =>
          original.last_sent ? (
            <time dateTime={original.last_sent} title={formatDate(original.last_sent, 'timestamp')}>
              {formatRelative(original.last_sent)} ago
            </time>
          ) : (
            <span className="text-slate-400">Never</span>
          ),
      },
      {
        id: 'recipient',
        header: 'Recipient',
        enableSorting: false,
        cell: ({ row: { original } }) => {
          const text = [recipientText(original), ...original.waiting_for.map((item) => `${item.ref} (waiting)`)].filter(Boolean).join(', ');
          return (
            <span className="block max-w-xs truncate" title={text}>
              {text}
            </span>
          );
        },
      },
      { id: 'events', header: 'Events', enableSorting: false, cell: ({ row: { original } }) => <span className="font-mono text-xs">{original.events.join(', ')}</span> },
      { id: 'source', header: 'Source', cell: ({ row: { original } }) => (isUiRule(original) ? 'UI' : <SourceBadge source={original.source ?? ''} />) },
      {
        id: 'enabled',
        header: 'Enabled',
        enableSorting: false,
        cell: ({ row: { original } }) => (
          <span onClick={stop} onKeyDown={stop} role="presentation">
            <Switch
              label={`Enable ${original.name}`}
              hideLabel
              checked={!original.disabled}
              disabled={!canWrite || (toggle.isPending && toggle.variables.id === original.id)}
              onCheckedChange={(checked) => toggle.mutate({ id: original.id, disabled: !checked })}
            />
          </span>
        ),
      },
      {
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        enableSorting: false,
        cell: ({ row: { original } }) => (
          <span className="flex justify-end gap-1" onClick={stop} onKeyDown={stop} role="presentation">
            <IconButton label={canWrite && isUiRule(original) ? `Edit ${original.name}` : `View ${original.name}`} icon={<Pencil className="size-4" aria-hidden="true" />} onClick={() => openEditor(original.id)} />
            {canWrite && isUiRule(original) ? <IconButton label={`Delete ${original.name}`} icon={<Trash2 className="size-4" aria-hidden="true" />} onClick={() => setDeleting(original)} /> : null}
          </span>
        ),
      },
    ];
    // openEditor only writes the URL (setParams is stable).
  }, [canWrite, toggle.isPending, toggle.variables, formatDate]);

  const sorting: SortingState = [{ id: filters.sortBy, desc: filters.sortOrder === 'desc' }];
  const empty = !rules.isLoading && !rules.error && filters.search === '' && (rules.data?.length ?? 0) === 0;
  const error = rules.error ?? counts.error;
  const newButton = canWrite ? (
    <Button variant="primary" size="sm" onClick={() => openEditor('new')}>
      <Plus className="size-4" aria-hidden="true" />
      New rule
    </Button>
  ) : null;

  return (
    <Page
      title="Notifications"
      extra={empty ? null : newButton}
      onRefresh={() => {
        setRefreshedAt(Date.now());
        void rules.refetch();
      }}
      refreshing={rules.isFetching || counts.isFetching}
    >
      <div className="flex flex-col gap-3">
        <NotificationTabs active="rules" />
        <div role="search" aria-label="Rule filters" className="flex flex-wrap items-center gap-3">
          <SearchBox label="Search rules" placeholder="Name" value={filters.search} onCommit={(q) => setParams((current) => applyRulesChange(current, { q: q || undefined }))} />
          <span className="text-sm text-slate-500">Counts over</span>
          <TimeRangePicker value={filters.range} onChange={(next) => setParams((current) => applyRulesChange(writeTimeRangeParams(current, next), { pageIndex: undefined }))} />
        </div>
        {error ? (
          <p role="alert" className="text-sm text-red-600">
            {error.message}
          </p>
        ) : null}
        {empty ? (
          <div className="rounded-lg border border-slate-200 bg-white">
            <EmptyState
              icon={<BellRing className="size-5" aria-hidden="true" />}
              title="No notification rules yet"
              description="A rule sends a message to a person, a team or a channel when an event happens: a check fails, a config turns unhealthy, an incident is created."
              action={newButton ?? undefined}
            />
          </div>
        ) : (
          <DataTable
            aria-label="Notification rules"
            data={page}
            columns={columns}
            getRowId={(row) => row.id}
            isLoading={rules.isLoading}
            emptyText="No rules match this search"
            manualSorting
            sorting={sorting}
            onSortingChange={(next) => setParams((current) => applyRulesChange(current, { sortBy: undefined, sortOrder: undefined, ...sortingToParams(next) }))}
            pagination={{
              pageIndex: filters.pageIndex,
              pageSize,
              totalRows: sorted.length,
              onChange: (next) => setParams((current) => applyRulesChange(current, { pageIndex: String(next.pageIndex), pageSize: String(next.pageSize) })),
            }}
          />
        )}
      </div>
      {filters.edit ? <RuleEditor ruleId={filters.edit === 'new' ? undefined : filters.edit} canWrite={canWrite} onClose={() => openEditor(undefined)} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title="Delete Notification"
        description={`Are you sure you want to delete ${deleting?.name ?? ''}?`}
        busy={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate({ id: deleting.id, name: deleting.name }, { onSuccess: () => setDeleting(null) });
        }}
      />
    </Page>
  );
}
