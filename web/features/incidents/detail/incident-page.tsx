import { INCIDENT_SEVERITIES, INCIDENT_STATUSES, INCIDENT_TYPES, incidentLabel } from '@common/incidents';
import { useQueryClient } from '@tanstack/react-query';
import { ChevronLeft, Pencil } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Page } from '@web/app/layout/page';
import { useAccess } from '@web/app/session';
import { FilterSelect } from '@web/ui/filter-select';
import { toast } from '@web/lib/toast';
import { Button } from '@web/ui/primitives/button';
import { DateTime } from '@web/ui/primitives/date-time';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Field, TextAreaField } from '@web/ui/primitives/field';
import { Loading } from '@web/ui/primitives/loading';
import { incidentKeys, useHypotheses, useIncident, useIncidentWrite, type IncidentRow } from '../api';
import { IncidentStatusBadge, SeverityBadge } from '../components/badges';
import { Hypotheses } from './hypotheses';
import { PeoplePanel } from './people-panel';
import { Timeline } from './timeline';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const options = (values: readonly string[]) => values.map((value) => ({ value, label: incidentLabel(value) }));

/** Title and description, edited in place (Save / Cancel). */
function Summary({ incident, canWrite }: { incident: IncidentRow; canWrite: boolean }) {
  const write = useIncidentWrite(incident.id);
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(incident.title);
  const [description, setDescription] = useState(incident.description ?? '');
  const [error, setError] = useState<string>();
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim()) {
      setError('Title is required');
      return;
    }
    write.mutate(
      { table: 'incidents', method: 'update', id: incident.id, values: { title: title.trim(), description: description.trim() || null } },
      { onSuccess: () => { setEditing(false); toast.success('Incident updated successfully'); }, onError: (failure) => toast.error(failure) },
    );
  };
  if (editing) {
    return (
      <form onSubmit={save} noValidate className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <Field label="Title" markRequired value={title} onChange={(event) => { setTitle(event.target.value); setError(undefined); }} {...(error ? { error } : {})} />
        <TextAreaField label="Description" rows={5} value={description} onChange={(event) => setDescription(event.target.value)} />
        <div className="flex justify-end gap-2">
          <Button onClick={() => { setEditing(false); setTitle(incident.title); setDescription(incident.description ?? ''); setError(undefined); }}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={write.isPending}>{write.isPending ? 'Saving' : 'Save'}</Button>
        </div>
      </form>
    );
  }
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex items-start gap-3">
        <h2 className="min-w-0 flex-1 text-lg font-semibold text-slate-900">{incident.title}</h2>
        {canWrite ? (
          <Button size="sm" variant="ghost" onClick={() => { setTitle(incident.title); setDescription(incident.description ?? ''); setEditing(true); }}>
            <Pencil className="size-3.5" aria-hidden="true" />
            Edit
          </Button>
        ) : null}
      </div>
      {incident.description ? <p className="whitespace-pre-wrap text-sm text-slate-700">{incident.description}</p> : <p className="text-sm text-slate-400">No description.</p>}
    </div>
  );
}

/** Status, severity and type: selects for who may change them, badges for everyone else. */
function Controls({ incident, canWrite }: { incident: IncidentRow; canWrite: boolean }) {
  const write = useIncidentWrite(incident.id);
  const set = (column: 'status' | 'severity' | 'type', value: string) =>
    write.mutate({ table: 'incidents', method: 'update', id: incident.id, values: { [column]: value } }, { onError: (error) => toast.error(error) });
  if (!canWrite) {
    return (
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <IncidentStatusBadge status={incident.status} />
        <SeverityBadge severity={incident.severity} />
        <span className="text-slate-600">{incidentLabel(incident.type)}</span>
      </div>
    );
  }
  return (
    <div role="group" aria-label="Incident status" className="flex flex-wrap items-center gap-3">
      <FilterSelect label="Status" value={incident.status} options={options(INCIDENT_STATUSES)} onChange={(value) => set('status', value)} />
      <FilterSelect label="Severity" value={incident.severity} options={options(INCIDENT_SEVERITIES)} onChange={(value) => set('severity', value)} />
      <FilterSelect label="Type" value={incident.type} options={options(INCIDENT_TYPES)} onChange={(value) => set('type', value)} />
    </div>
  );
}

function Dates({ incident }: { incident: IncidentRow }) {
  const rows: Array<[string, string | null]> = [
    ['Created', incident.created_at],
    ['Investigating', incident.investigating_at],
    ['Mitigated', incident.mitigated_at],
    ['Resolved', incident.resolved_at],
    ['Closed', incident.closed_at],
  ];
  return (
    <dl className="flex flex-col gap-1 text-sm">
      {rows
        .filter(([, value]) => value)
        .map(([name, value]) => (
          <div key={name} className="flex gap-2">
            <dt className="w-28 text-slate-500">{name}</dt>
            <dd>
              <DateTime value={value} />
            </dd>
          </div>
        ))}
      <div className="flex gap-2">
        <dt className="w-28 text-slate-500">Created by</dt>
        <dd>{incident.creator?.name || incident.creator?.email || 'the system'}</dd>
      </div>
    </dl>
  );
}

/** Spec §2 /incidents/{id}: the incident with its people, hypotheses, evidence, comments and timeline. */
export default function IncidentPage() {
  const { id = '' } = useParams();
  const valid = UUID.test(id);
  const incident = useIncident(valid ? id : '');
  const hypotheses = useHypotheses(valid ? id : '');
  const access = useAccess();
  const client = useQueryClient();
  const canWrite = access.can('incident', 'write');
  const data = incident.data;
  const title = data ? `${data.incident_id} ${data.title}` : 'Incident';

  return (
    <Page
      title={title}
      onRefresh={() => void client.invalidateQueries({ queryKey: incidentKeys.detail(id) })}
      refreshing={incident.isFetching || hypotheses.isFetching}
      extra={
        <Link to="/incidents" className="inline-flex items-center gap-1 text-sm font-medium text-blue-700 hover:underline">
          <ChevronLeft className="size-4" aria-hidden="true" />
          Incidents
        </Link>
      }
    >
      {!valid || (incident.data === null && !incident.isFetching) ? (
        <EmptyState title="No details found" description={`There is no incident ${id}.`} action={<Link to="/incidents" className="text-blue-700 hover:underline">All incidents</Link>} />
      ) : incident.error ? (
        <p role="alert" className="text-sm text-red-600">{incident.error.message}</p>
      ) : !data ? (
        <Loading className="py-16" />
      ) : (
        <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="flex min-w-0 flex-col gap-5">
            <Summary key={data.id} incident={data} canWrite={canWrite} />
            <Controls incident={data} canWrite={canWrite} />
            {hypotheses.error ? <p role="alert" className="text-sm text-red-600">{hypotheses.error.message}</p> : null}
            {hypotheses.data ? <Hypotheses incidentId={data.id} hypotheses={hypotheses.data} /> : <Loading />}
          </div>
          <aside className="flex flex-col gap-5">
            <div className="rounded-lg border border-slate-200 bg-white p-4">
              <PeoplePanel incident={data} />
            </div>
            <div className="rounded-lg border border-slate-200 bg-white p-4">
              <Dates incident={data} />
            </div>
            <div className="rounded-lg border border-slate-200 bg-white p-4">
              <Timeline incidentId={data.id} />
            </div>
          </aside>
        </div>
      )}
    </Page>
  );
}
