import { BellPlus, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { ResourceTabProps } from '@web/features/settings/resources/types';
import { valueToText } from '@web/features/settings/resources/values';
import { DataTable, type ColumnDef } from '@web/ui/data-table';
import { Button } from '@web/ui/primitives/button';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { IconButton } from '@web/ui/primitives/icon-button';
import { AddChannelDialog } from './add-channel-dialog';
import { CHANNELS_EXPLANATION, describeChannel, NO_CHANNELS_TEXT, teamChannels, sameChannel, type Channel, type ChannelView } from './channels';
import { useNotificationConnections, useSaveTeamChannels } from './queries';

interface ChannelRow {
  index: number;
  channel: Channel;
  view: ChannelView;
}

/**
 * The Notifications tab of a team: where a Notification addressed to the team goes (spec.notifications,
 * docs/NOTIFICATIONS.md "Rules"). Adding or removing a channel rewrites only that key of the spec.
 */
export default function NotificationsTab({ id, row, access, linked }: ResourceTabProps) {
  const teamName = valueToText(row.name);
  const channels = teamChannels(row.spec);
  const editable = access.update && linked === undefined;
  const connections = useNotificationConnections();
  const save = useSaveTeamChannels(id);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<ChannelRow | null>(null);
  const rows: ChannelRow[] = channels.map((channel, index) => ({ index, channel, view: describeChannel(channel, connections.data) }));

  // Stable between renders: a new cell function would mount its cell again (and lose a click in flight).
  const columns = useMemo(() => {
    const list: ColumnDef<ChannelRow>[] = [
      { id: 'kind', header: 'Type', accessorFn: (channel) => channel.view.kindLabel },
      { id: 'channel', header: 'Channel', accessorFn: (channel) => channel.view.text, cell: ({ row: { original } }) => <span className="break-all">{original.view.text}</span> },
      {
        id: 'properties',
        header: 'Properties',
        enableSorting: false,
        accessorFn: (channel) => channel.view.properties.map(([key, value]) => `${key}=${value}`).join(', '),
        cell: ({ row: { original } }) =>
          original.view.properties.length === 0 ? (
            <span className="text-slate-400">—</span>
          ) : (
            <ul className="flex flex-wrap gap-1">
              {original.view.properties.map(([key, value]) => (
                <li key={key} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
                  {key}={value}
                </li>
              ))}
            </ul>
          ),
      },
    ];
    if (editable) {
      list.push({
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        enableSorting: false,
        cell: ({ row: { original } }) => (
          <IconButton
            label={`Remove ${original.view.text}`}
            icon={<Trash2 className="size-4" aria-hidden="true" />}
            onClick={(event) => {
              event.stopPropagation();
              setRemoving(original);
            }}
          />
        ),
      });
    }
    return list;
  }, [editable]);

  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm text-slate-600">{CHANNELS_EXPLANATION}</p>
        {editable ? (
          <Button variant="primary" size="sm" onClick={() => setAdding(true)}>
            <BellPlus className="size-4" aria-hidden="true" />
            Add channel
          </Button>
        ) : null}
      </div>
      {linked !== undefined ? (
        <p className="text-sm text-slate-600">
          This team is managed by {linked}: its notification channels are read-only here; change them where the team is defined.
        </p>
      ) : null}
      <DataTable aria-label="Notification channels" data={rows} columns={columns} getRowId={(channel) => String(channel.index)} emptyText={NO_CHANNELS_TEXT} />
      {adding ? (
        <AddChannelDialog
          teamName={teamName}
          existing={channels}
          connections={connections}
          saving={save.isPending}
          onAdd={(channel) => save.mutate((current) => (current.some((other) => sameChannel(other, channel)) ? current : [...current, channel]), { onSuccess: () => setAdding(false) })}
          onClose={() => setAdding(false)}
        />
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove channel"
        description={removing ? `Are you sure you want to remove ${removing.view.text} from the notification channels of ${teamName}?` : ''}
        confirmLabel="Remove"
        busyLabel="Removing…"
        busy={save.isPending}
        onConfirm={() => {
          if (!removing) return;
          const gone = removing.channel;
          // The spec is read again before the write: the channel is found by its value, not its place.
          save.mutate(
            (current) => {
              const at = current.findIndex((channel) => sameChannel(channel, gone));
              return at === -1 ? current : current.filter((_, index) => index !== at);
            },
            { onSuccess: () => setRemoving(null) },
          );
        }}
      />
    </div>
  );
}
