import { childHypothesisType, HYPOTHESIS_STATUSES, incidentLabel, type HypothesisType } from '@common/incidents';
import { Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useAccess } from '@web/app/session';
import { FilterSelect } from '@web/ui/filter-select';
import { toast } from '@web/lib/toast';
import { Button } from '@web/ui/primitives/button';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { DateTime } from '@web/ui/primitives/date-time';
import { IconButton } from '@web/ui/primitives/icon-button';
import { useIncidentWrite, type Evidence, type Hypothesis, type PersonRef } from '../api';
import { HypothesisStatusBadge } from '../components/badges';
import { EvidenceView } from './evidence-view';

const who = (person: PersonRef | undefined) => person?.name || person?.email || 'someone';

/** A one-line form: a text box and a button; empty text is refused with a message. */
function InlineForm({ label, button, onSubmit, busy, placeholder, multiline = false }: { label: string; button: string; onSubmit: (text: string) => Promise<void>; busy: boolean; placeholder?: string; multiline?: boolean }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      setError(`${label} is required`);
      return;
    }
    void onSubmit(text.trim()).then(() => setText(''), () => undefined);
  };
  const control = 'w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm shadow-sm aria-[invalid=true]:border-red-500';
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-1">
      <div className="flex items-start gap-2">
        {multiline ? (
          <textarea aria-label={label} aria-invalid={error ? true : undefined} rows={2} placeholder={placeholder} value={text} onChange={(event) => { setText(event.target.value); setError(undefined); }} className={control} />
        ) : (
          <input aria-label={label} aria-invalid={error ? true : undefined} placeholder={placeholder} value={text} onChange={(event) => { setText(event.target.value); setError(undefined); }} className={control} />
        )}
        <Button type="submit" size="sm" disabled={busy}>
          {button}
        </Button>
      </div>
      {error ? <p role="alert" className="text-xs text-red-600">{error}</p> : null}
    </form>
  );
}

function EvidenceItem({ evidence, incidentId, canWrite }: { evidence: Evidence; incidentId: string; canWrite: boolean }) {
  const write = useIncidentWrite(incidentId);
  const [confirming, setConfirming] = useState(false);
  const update = (values: Record<string, unknown>) => write.mutate({ table: 'evidences', method: 'update', id: evidence.id, values }, { onError: (error) => toast.error(error) });
  return (
    <li aria-label={`${incidentLabel(evidence.type)} evidence`} className="flex flex-col gap-2 rounded-md border border-slate-200 bg-white p-3">
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
        <span className="rounded bg-slate-100 px-1.5 py-0.5 font-medium text-slate-700">{incidentLabel(evidence.type)}</span>
        <span>
          attached by {who(evidence.created_by)} <DateTime value={evidence.created_at} />
        </span>
        <span className="ml-auto flex items-center gap-3">
          <label className="inline-flex items-center gap-1">
            <input type="checkbox" checked={evidence.definition_of_done} disabled={!canWrite || write.isPending} onChange={(event) => update({ definition_of_done: event.target.checked })} />
            Definition of done
          </label>
          {evidence.definition_of_done ? (
            <label className="inline-flex items-center gap-1">
              <input type="checkbox" checked={evidence.done} disabled={!canWrite || write.isPending} onChange={(event) => update({ done: event.target.checked })} />
              Done
            </label>
          ) : null}
          {canWrite ? <IconButton label="Remove evidence" icon={<Trash2 className="size-3.5" aria-hidden="true" />} onClick={() => setConfirming(true)} /> : null}
        </span>
      </div>
      {evidence.description ? <p className="text-sm text-slate-800">{evidence.description}</p> : null}
      <EvidenceView evidence={evidence} />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Remove evidence?"
        description="The evidence and its snapshot are removed from this hypothesis."
        confirmLabel="Remove"
        busyLabel="Removing…"
        busy={write.isPending}
        onConfirm={() =>
          write.mutate(
            { table: 'evidences', method: 'delete', id: evidence.id },
            { onSuccess: () => { setConfirming(false); toast.success('Evidence deleted successfully'); }, onError: (error) => toast.error(error) },
          )
        }
      />
    </li>
  );
}

interface NodeProps {
  hypothesis: Hypothesis;
  all: readonly Hypothesis[];
  incidentId: string;
}

/** One hypothesis: status (changeable), its evidence, comments, and its children (factor → solution). */
function HypothesisNode({ hypothesis, all, incidentId }: NodeProps) {
  const access = useAccess();
  const canWrite = access.can('incident', 'write');
  const canEvidence = access.can('evidences', 'write');
  const canComment = access.can('comments', 'create');
  const write = useIncidentWrite(incidentId);
  const [confirming, setConfirming] = useState(false);
  const children = all.filter((candidate) => candidate.parent_id === hypothesis.id);
  const childType = childHypothesisType(hypothesis.type as HypothesisType);
  const add = (table: 'hypotheses' | 'comments', values: Record<string, unknown>) =>
    new Promise<void>((resolve, reject) =>
      write.mutate({ table, method: 'insert', values }, { onSuccess: () => resolve(), onError: (error) => { toast.error(error); reject(error); } }),
    );

  return (
    <li aria-label={`${incidentLabel(hypothesis.type)}: ${hypothesis.title}`} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-slate-50 p-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-xs font-medium uppercase tracking-wide text-slate-500">{incidentLabel(hypothesis.type)}</span>
        <h3 className="text-sm font-semibold text-slate-900">{hypothesis.title}</h3>
        <HypothesisStatusBadge status={hypothesis.status} />
        <span className="text-xs text-slate-500">by {who(hypothesis.created_by)}</span>
        <span className="ml-auto flex items-center gap-2">
          {canWrite ? (
            <FilterSelect
              label="Status"
              value={hypothesis.status}
              options={HYPOTHESIS_STATUSES.map((value) => ({ value, label: incidentLabel(value) }))}
              onChange={(status) => write.mutate({ table: 'hypotheses', method: 'update', id: hypothesis.id, values: { status } }, { onError: (error) => toast.error(error) })}
            />
          ) : null}
          {canWrite ? <IconButton label={`Delete hypothesis ${hypothesis.title}`} icon={<Trash2 className="size-4" aria-hidden="true" />} onClick={() => setConfirming(true)} /> : null}
        </span>
      </div>

      <section aria-label="Evidence" className="flex flex-col gap-2">
        {hypothesis.evidences.length > 0 ? (
          <ul className="flex flex-col gap-2">
            {hypothesis.evidences.map((evidence) => (
              <EvidenceItem key={evidence.id} evidence={evidence} incidentId={incidentId} canWrite={canEvidence} />
            ))}
          </ul>
        ) : (
          <p className="text-xs text-slate-500">No evidence yet. Attach a check, config, change or insight from its page with “Attach as Evidence”.</p>
        )}
      </section>

      <section aria-label="Comments" className="flex flex-col gap-2">
        {hypothesis.comments.length > 0 ? (
          <ul className="flex flex-col gap-2">
            {hypothesis.comments.map((comment) => (
              <li key={comment.id} className="rounded-md border border-slate-200 bg-white px-3 py-2 text-sm">
                <div className="mb-1 text-xs text-slate-500">
                  <span className="font-medium text-slate-700">{who(comment.created_by)}</span> <DateTime value={comment.created_at} />
                </div>
                <p className="whitespace-pre-wrap text-slate-800">{comment.comment}</p>
              </li>
            ))}
          </ul>
        ) : null}
        {canComment ? <InlineForm label="Comment" button="Comment" multiline placeholder="Add a comment" busy={write.isPending} onSubmit={(comment) => add('comments', { incident_id: incidentId, hypothesis_id: hypothesis.id, comment })} /> : null}
      </section>

      {children.length > 0 ? (
        <ul aria-label={`Below ${hypothesis.title}`} className="ml-4 flex flex-col gap-3 border-l-2 border-slate-200 pl-4">
          {children.map((child) => (
            <HypothesisNode key={child.id} hypothesis={child} all={all} incidentId={incidentId} />
          ))}
        </ul>
      ) : null}
      {canWrite && childType ? (
        <InlineForm
          label={`New ${childType}`}
          button={`Add ${childType}`}
          placeholder={childType === 'factor' ? 'A contributing factor' : 'A solution'}
          busy={write.isPending}
          onSubmit={(title) => add('hypotheses', { incident_id: incidentId, parent_id: hypothesis.id, type: childType, title })}
        />
      ) : null}

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Delete ${hypothesis.title}?`}
        description="The hypothesis goes with everything below it: its factors, solutions, evidence and comments."
        busy={write.isPending}
        onConfirm={() =>
          write.mutate(
            { table: 'hypotheses', method: 'delete', id: hypothesis.id },
            { onSuccess: () => { setConfirming(false); toast.success('Hypothesis deleted successfully'); }, onError: (error) => toast.error(error) },
          )
        }
      />
    </li>
  );
}

/** The hypothesis tree of an incident, with 'Add hypothesis' for a new root. */
export function Hypotheses({ incidentId, hypotheses }: { incidentId: string; hypotheses: readonly Hypothesis[] }) {
  const access = useAccess();
  const write = useIncidentWrite(incidentId);
  const roots = hypotheses.filter((hypothesis) => hypothesis.parent_id === null);
  return (
    <section aria-labelledby="hypotheses-heading" className="flex flex-col gap-3">
      <h2 id="hypotheses-heading" className="text-sm font-semibold text-slate-900">
        Hypotheses <span className="font-normal text-slate-500">({hypotheses.length})</span>
      </h2>
      {roots.length > 0 ? (
        <ul className="flex flex-col gap-3">
          {roots.map((root) => (
            <HypothesisNode key={root.id} hypothesis={root} all={hypotheses} incidentId={incidentId} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-500">No hypotheses yet: what could be causing this?</p>
      )}
      {access.can('incident', 'write') ? (
        <InlineForm
          label="New hypothesis"
          button="Add hypothesis"
          placeholder="What could be causing this?"
          busy={write.isPending}
          onSubmit={(title) =>
            new Promise<void>((resolve, reject) =>
              write.mutate({ table: 'hypotheses', method: 'insert', values: { incident_id: incidentId, title, type: 'root' } }, { onSuccess: () => resolve(), onError: (error) => { toast.error(error); reject(error); } }),
            )
          }
        />
      ) : null}
    </section>
  );
}
