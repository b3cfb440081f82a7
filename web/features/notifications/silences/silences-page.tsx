import { formatDate } from '@common/format';
import { BellOff, Plus, Trash2, TimerOff } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Page } from '@web/app/layout/page';
import { UnauthorizedPage } from '@web/app/pages/unauthorized-page';
import { useAccess } from '@web/app/session';
import { useDisplayPreferences } from '@web/lib/preferences';
import { DataTable, type ColumnDef } from '@web/ui/data-table';
import { Badge } from '@web/ui/primitives/badge';
import { buttonBase } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { DateTime } from '@web/ui/primitives/date-time';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { IconButton } from '@web/ui/primitives/icon-button';
import { Loading } from '@web/ui/primitives/loading';
import type { Silence } from '../api/schema';
import { useDeleteSilence, useEndSilence, useSilences, useSilenceTargets, type Target } from '../api/silences';
import { NotificationTabs } from '../components/notification-tabs';
import { resourceHref, SILENCE_STATE, silenceState, untilText } from '../model/format';
import { ADD_SILENCE_PATH } from '../paths';

const isUi = (silence: Silence) => (silence.source ?? 'UI') === 'UI';

/** What a silence mutes, in words: its resource (linked), its CEL filter, its selectors. */
export function silenceSubject(silence: Silence, targets: ReadonlyMap<string, Target> | undefined) {
  const parts: Array<{ key: string; node: ReactNode }> = [];
  for (const [kind, id] of [['check', silence.check_id], ['config', silence.config_id], ['component', silence.component_id], ['canary', silence.canary_id]] as const) {
    if (!id) continue;
    const target = targets?.get(id);
    const href = resourceHref(kind, id);
    const name = target?.name ?? id;
    parts.push({
      key: kind,
      node: (
        <span>
          <span className="text-slate-500">{kind} </span>
          {href ? (
            <Link to={href} className="text-blue-700 hover:underline">
              {name}
            </Link>
          ) : (
            name
          )}
        </span>
      ),
    });
  }
  if (silence.filter) parts.push({ key: 'filter', node: <code className="text-xs">{silence.filter}</code> });
  for (const [index, selector] of (silence.selectors ?? []).entries()) {
    const text = Object.entries(selector)
      .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('|') : String(value)}`)
      .join(' ');
    parts.push({ key: `selector-${index}`, node: <code className="text-xs">{text}</code> });
  }
  return parts;
}

function Until({ until }: { until: string | null }) {
  const { dateFormat, timeZone } = useDisplayPreferences();
  return <span className="whitespace-nowrap">{untilText(until, (date) => formatDate(date, dateFormat, timeZone))}</span>;
}

/** Spec §2 /notifications/silences: the silences, what they mute and until when. */
export default function SilencesPage() {
  const { ready, can } = useAccess();
  if (!ready || !can('notifications', 'read')) return <Page title="Silences">{ready ? <UnauthorizedPage /> : <Loading />}</Page>;
  return <Silences canWrite={can('notifications', 'write')} />;
}

function AddLink() {
  return (
    <Link to={ADD_SILENCE_PATH} className={cn(buttonBase, 'h-8 gap-1.5 bg-blue-600 px-3 text-sm text-white hover:bg-blue-700')}>
      <Plus className="size-4" aria-hidden="true" />
      Add silence
    </Link>
  );
}

function Silences({ canWrite }: { canWrite: boolean }) {
  const silences = useSilences();
  const targets = useSilenceTargets(silences.data);
  const end = useEndSilence();
  const remove = useDeleteSilence();
  const [deleting, setDeleting] = useState<Silence | null>(null);
  const [ending, setEnding] = useState<Silence | null>(null);
  const label = (silence: Silence) => silence.description || silence.name || 'this silence';

  const columns = useMemo((): ColumnDef<Silence>[] => [
    {
      id: 'description',
      header: 'Description',
      cell: ({ row: { original } }) => (
        <span className="flex flex-col">
          <span className="text-slate-900">{original.description || original.name || '—'}</span>
          {original.error ? <span className="text-xs text-red-700">{original.error}</span> : null}
        </span>
      ),
    },
    {
      id: 'subject',
      header: 'Silences',
      cell: ({ row: { original } }) => (
        <span className="flex flex-col gap-0.5">
          {silenceSubject(original, targets.data).map((part) => (
            <span key={part.key}>{part.node}</span>
          ))}
        </span>
      ),
    },
    { id: 'from', header: 'From', cell: ({ row: { original } }) => <DateTime value={original.from} className="whitespace-nowrap" /> },
    { id: 'until', header: 'Until', cell: ({ row: { original } }) => <Until until={original.until} /> },
    { id: 'recursive', header: 'Recursive', cell: ({ row: { original } }) => (original.recursive ? 'Yes' : 'No') },
    { id: 'created_by', header: 'Created by', cell: ({ row: { original } }) => original.created_by_person?.name ?? original.source ?? '' },
    {
      id: 'state',
      header: 'State',
      cell: ({ row: { original } }) => {
        const state = SILENCE_STATE[silenceState(original)];
        return <Badge tone={state.tone}>{state.label}</Badge>;
      },
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row: { original } }) =>
        canWrite && isUi(original) ? (
          <span className="flex justify-end gap-1">
            {silenceState(original) === 'active' ? (
              <IconButton label={`End ${label(original)} now`} icon={<TimerOff className="size-4" aria-hidden="true" />} onClick={() => setEnding(original)} />
            ) : null}
            <IconButton label={`Delete ${label(original)}`} icon={<Trash2 className="size-4" aria-hidden="true" />} onClick={() => setDeleting(original)} />
          </span>
        ) : null,
    },
  ], [canWrite, targets.data]);

  const empty = !silences.isLoading && !silences.error && (silences.data?.length ?? 0) === 0;
  return (
    <Page title="Silences" extra={canWrite && !empty ? <AddLink /> : null} onRefresh={() => void silences.refetch()} refreshing={silences.isFetching}>
      <div className="flex flex-col gap-3">
        <NotificationTabs active="silences" />
        {silences.error ? (
          <p role="alert" className="text-sm text-red-600">
            {silences.error.message}
          </p>
        ) : null}
        {empty ? (
          <div className="rounded-lg border border-slate-200 bg-white">
            <EmptyState
              icon={<BellOff className="size-5" aria-hidden="true" />}
              title="No silences"
              description="A silence holds back the notifications about a resource (and, recursively, what is below it) or those matching a filter, for a while or indefinitely."
              action={canWrite ? <AddLink /> : undefined}
            />
          </div>
        ) : (
          <DataTable aria-label="Silences" data={silences.data ?? []} columns={columns} getRowId={(row) => row.id} isLoading={silences.isLoading} />
        )}
      </div>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title="Delete Silence"
        description={`Are you sure you want to delete ${deleting ? label(deleting) : ''}?`}
        busy={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) });
        }}
      />
      <ConfirmDialog
        open={ending !== null}
        onOpenChange={(open) => (open ? undefined : setEnding(null))}
        title="End Silence"
        description={`End ${ending ? label(ending) : ''} now? Notifications it holds back are sent again from now on.`}
        confirmLabel="End now"
        busyLabel="Ending…"
        busy={end.isPending}
        onConfirm={() => {
          if (ending) end.mutate(ending.id, { onSuccess: () => setEnding(null) });
        }}
      />
    </Page>
  );
}
