import { Plus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { ApiError } from '@web/lib/api';
import { toast } from '@web/lib/toast';
import { Button } from '@web/ui/primitives/button';
import { Dialog } from '@web/ui/primitives/dialog';
import { Field } from '@web/ui/primitives/field';
import { IconButton } from '@web/ui/primitives/icon-button';
import { agentNameError, propertiesFrom, type PropertyEntry } from './model';
import { useGenerateAgent } from './queries';
import type { GeneratedAgent } from './schema';

export interface AddAgentDialogProps {
  onClose: () => void;
  /** The agent and its one-time token: the page shows how to start it. */
  onGenerated: (agent: GeneratedAgent) => void;
}

/**
 * Add agent (spec §7 POST /agent/generate): a name and optional properties. The server creates the agent
 * (or reuses the one of that name, issuing a new token) and answers the command line and Helm values.
 */
export function AddAgentDialog({ onClose, onGenerated }: AddAgentDialogProps) {
  const generate = useGenerateAgent();
  const formId = useId();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | undefined>();
  const [entries, setEntries] = useState<PropertyEntry[]>([]);
  const nameError = serverError ?? (touched ? agentNameError(name) : undefined);
  const { properties, errors: propertyErrors } = propertiesFrom(entries);

  const setEntry = (index: number, patch: Partial<PropertyEntry>) => setEntries((list) => list.map((entry, i) => (i === index ? { ...entry, ...patch } : entry)));

  const submit = () => {
    setTouched(true);
    if (agentNameError(name) || propertyErrors.size > 0) return;
    const input = {
      name: name.trim(),
      ...(description.trim() ? { description: description.trim() } : {}),
      ...(Object.keys(properties).length > 0 ? { properties } : {}),
    };
    generate.mutate(input, {
      onSuccess: onGenerated,
      onError: (error) => {
        // A refused name is said at the field; anything else is a toast (spec §8).
        if (error instanceof ApiError && error.status === 400 && /\bname\b/.test(error.message)) setServerError(error.message);
        else toast.error(error);
      },
    });
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Add agent"
      description="An agent runs checks, scrapers and topologies close to the systems and pushes the results here."
      size="small"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" form={formId} variant="primary" disabled={generate.isPending}>
            {generate.isPending ? 'Creating…' : 'Create'}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Field
          label="Name"
          markRequired
          required
          autoComplete="off"
          value={name}
          error={nameError}
          hint="Lower-case letters, digits, dots and dashes, e.g. eu-west-1. Adding an existing name issues a new token for it; its earlier token stops working a few minutes later."
          onChange={(event) => {
            setName(event.target.value);
            setServerError(undefined);
          }}
          onBlur={() => setTouched(true)}
        />
        <Field label="Description" maxLength={1024} value={description} onChange={(event) => setDescription(event.target.value)} />
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-700">Properties</legend>
          {entries.length === 0 ? <p className="text-xs text-slate-500">Optional key/value pairs kept with the agent, such as its region or cluster.</p> : null}
          {entries.map((entry, index) => (
            // Rows have no identity of their own; their position is it.
            <div key={index} className="flex flex-col gap-1">
              <div className="flex items-center gap-2">
                <input
                  aria-label={`Property ${index + 1} key`}
                  placeholder="key"
                  value={entry.key}
                  aria-invalid={propertyErrors.has(index) ? true : undefined}
                  onChange={(event) => setEntry(index, { key: event.target.value })}
                  className="w-40 rounded-md border border-slate-300 px-3 py-1.5 text-sm aria-[invalid=true]:border-red-500"
                />
                <input
                  aria-label={`Property ${index + 1} value`}
                  placeholder="value"
                  value={entry.value}
                  onChange={(event) => setEntry(index, { value: event.target.value })}
                  className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-1.5 text-sm"
                />
                <IconButton label={`Remove property ${index + 1}`} icon={<Trash2 className="size-4" aria-hidden="true" />} onClick={() => setEntries((list) => list.filter((_, i) => i !== index))} />
              </div>
              {propertyErrors.has(index) ? (
                <p role="alert" className="text-xs text-red-600">
                  {propertyErrors.get(index)}
                </p>
              ) : null}
            </div>
          ))}
          <div>
            <Button size="sm" onClick={() => setEntries((list) => [...list, { key: '', value: '' }])}>
              <Plus className="size-4" aria-hidden="true" />
              Add property
            </Button>
          </div>
        </fieldset>
      </form>
    </Dialog>
  );
}
