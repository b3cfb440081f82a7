import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { connectionType } from '@common/connections';
import { PairsInput } from '@web/features/canaries/editor/pairs-input';
import { Button } from '@web/ui/primitives/button';
import { Dialog } from '@web/ui/primitives/dialog';
import { Field } from '@web/ui/primitives/field';
import { Loading } from '@web/ui/primitives/loading';
import { RadioGroup } from '@web/ui/primitives/radio-group';
import { Select } from '@web/ui/primitives/select';
import { CHANNEL_KIND_LABELS, connectionValue, draftChannel, EMPTY_DRAFT, sameChannel, type Channel, type ChannelDraft, type ChannelKind, type DraftProblems, type NotificationConnection } from './channels';

export interface AddChannelDialogProps {
  teamName: string;
  /** The team's channels now: the same channel is not added twice. */
  existing: readonly Channel[];
  connections: UseQueryResult<NotificationConnection[]>;
  saving: boolean;
  onAdd: (channel: Channel) => void;
  onClose: () => void;
}

const KINDS: ChannelKind[] = ['connection', 'emails', 'url'];
const KIND_HINTS: Record<ChannelKind, string> = { connection: 'connection://namespace/name', emails: 'a@example.com, b@example.com', url: 'slack://token@channel' };

/** Adds one channel (a notification connection, email addresses or a shoutrrr URL) with its properties. */
export function AddChannelDialog({ teamName, existing, connections, saving, onAdd, onClose }: AddChannelDialogProps) {
  const [draft, setDraft] = useState<ChannelDraft>(EMPTY_DRAFT);
  // Problems show once Add was pressed, then follow the typing.
  const [submitted, setSubmitted] = useState(false);
  const [duplicate, setDuplicate] = useState(false);
  const result = draftChannel(draft);
  const problems: DraftProblems = submitted && 'problems' in result ? result.problems : {};
  const patch = (change: Partial<ChannelDraft>) => {
    setDuplicate(false);
    setDraft((current) => ({ ...current, ...change }));
  };

  const submit = () => {
    setSubmitted(true);
    if (!('channel' in result)) return;
    if (existing.some((channel) => sameChannel(channel, result.channel))) {
      setDuplicate(true);
      return;
    }
    onAdd(result.channel);
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Add a notification channel to ${teamName}`}
      size="small"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" disabled={saving} onClick={submit}>
            {saving ? 'Adding…' : 'Add'}
          </Button>
        </>
      }
    >
      <form
        className="flex flex-col gap-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <RadioGroup
          label="Send to"
          value={draft.kind}
          options={KINDS.map((kind) => ({ value: kind, label: CHANNEL_KIND_LABELS[kind], hint: KIND_HINTS[kind] }))}
          onValueChange={(kind) => patch({ kind })}
        />
        {draft.kind === 'connection' ? <ConnectionChoice connections={connections} value={draft.connection} error={problems.connection} onChange={(connection) => patch({ connection })} /> : null}
        {draft.kind === 'emails' ? (
          <Field
            label="Email addresses"
            markRequired
            required
            autoFocus
            placeholder="a@example.com, b@example.com"
            hint="Separated by commas."
            value={draft.emails}
            onChange={(event) => patch({ emails: event.target.value })}
            {...(problems.emails ? { error: problems.emails } : {})}
          />
        ) : null}
        {draft.kind === 'url' ? (
          <Field
            label="Service URL"
            markRequired
            required
            autoFocus
            autoComplete="off"
            spellCheck={false}
            placeholder="slack://token@channel"
            hint="A shoutrrr URL. It is kept in the team's spec; the list shows only its scheme and host."
            value={draft.url}
            onChange={(event) => patch({ url: event.target.value })}
            {...(problems.url ? { error: problems.url } : {})}
          />
        ) : null}
        <PairsInput label="Properties" item="Property" keyLabel="Key" value={draft.properties} onChange={(properties) => patch({ properties })} errorOf={(index) => problems.properties?.[index]} />
        {duplicate ? (
          <p role="alert" className="text-sm text-red-600">
            This channel is already in the list.
          </p>
        ) : null}
        {/* Enter in a field submits. */}
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}

function ConnectionChoice({ connections, value, error, onChange }: { connections: UseQueryResult<NotificationConnection[]>; value: string; error: string | undefined; onChange: (value: string) => void }) {
  if (connections.isLoading) return <Loading />;
  if (connections.error) {
    return (
      <p role="alert" className="text-sm text-red-600">
        {connections.error.message}
      </p>
    );
  }
  const list = connections.data ?? [];
  if (list.length === 0) return <p className="text-sm text-slate-600">No notification connections yet: add one in Settings → Connections.</p>;
  return (
    <div className="flex flex-col gap-1">
      <Select
        label="Connection"
        placeholder="Choose a connection"
        value={value}
        options={list.map((connection) => ({ value: connectionValue(connection), label: `${connection.namespace}/${connection.name} (${connectionType(connection.type)?.label ?? connection.type})` }))}
        onValueChange={onChange}
      />
      {error ? (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
