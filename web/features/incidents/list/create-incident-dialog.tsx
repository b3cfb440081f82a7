import { INCIDENT_TYPES, incidentLabel, LINK_DEFAULTS, SEVERITY_CHOICES, type IncidentSeverity, type IncidentType } from '@common/incidents';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '@web/lib/toast';
import { Button } from '@web/ui/primitives/button';
import { Dialog } from '@web/ui/primitives/dialog';
import { Field, TextAreaField } from '@web/ui/primitives/field';
import { Select } from '@web/ui/primitives/select';
import { useIncidentWrite } from '../api';

/** 'New incident': title, description, type and severity; the incident opens (status open) on its page. */
export function CreateIncidentDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate();
  const write = useIncidentWrite();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [type, setType] = useState<IncidentType>(LINK_DEFAULTS.type);
  const [severity, setSeverity] = useState<IncidentSeverity>(LINK_DEFAULTS.severity);
  const [error, setError] = useState<string>();

  const close = () => {
    setTitle('');
    setDescription('');
    setType(LINK_DEFAULTS.type);
    setSeverity(LINK_DEFAULTS.severity);
    setError(undefined);
    onOpenChange(false);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim()) {
      setError('Title is required');
      return;
    }
    write.mutate(
      { table: 'incidents', method: 'insert', values: { title: title.trim(), description: description.trim() || null, type, severity } },
      {
        onSuccess: (created) => {
          close();
          toast.success('Incident created');
          if (created) void navigate(`/incidents/${created.id}`);
        },
        onError: (failure) => toast.error(failure),
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title="New incident"
      size="small"
      footer={
        <>
          <Button onClick={close}>Cancel</Button>
          <Button variant="primary" type="submit" form="create-incident" disabled={write.isPending}>
            {write.isPending ? 'Creating' : 'Create'}
          </Button>
        </>
      }
    >
      <form id="create-incident" noValidate onSubmit={submit} className="flex flex-col gap-4">
        <Field
          label="Title"
          markRequired
          required
          autoFocus
          value={title}
          onChange={(event) => {
            setTitle(event.target.value);
            setError(undefined);
          }}
          {...(error ? { error } : {})}
        />
        <TextAreaField label="Description" rows={4} value={description} onChange={(event) => setDescription(event.target.value)} />
        <div className="grid grid-cols-2 gap-3">
          <Select label="Type" value={type} options={INCIDENT_TYPES.map((value) => ({ value, label: incidentLabel(value) }))} onValueChange={setType} />
          <Select label="Severity" value={severity} options={SEVERITY_CHOICES.map((value) => ({ value, label: incidentLabel(value) }))} onValueChange={setSeverity} />
        </div>
      </form>
    </Dialog>
  );
}
