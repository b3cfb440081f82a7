import { RESOURCE_SEARCH_DEBOUNCE_MS, TOAST_DURATION_MS } from '@common/constants';
import { INCIDENT_TYPES, incidentLabel, LINK_DEFAULTS, LINK_MESSAGES, SEVERITY_CHOICES, type IncidentSeverity, type IncidentType } from '@common/incidents';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast as sonner } from 'sonner';
import { useSession } from '@web/app/session';
import { toastErrorText } from '@web/lib/toast';
import { useDebouncedValue } from '@web/lib/use-debounced-value';
import { Button } from '@web/ui/primitives/button';
import { Dialog } from '@web/ui/primitives/dialog';
import { TextAreaField } from '@web/ui/primitives/field';
import { Select } from '@web/ui/primitives/select';
import { incidentKeys, linkEvidence, useHypothesisSearch, useIncidentSearch, type LinkRequest } from '../api';
import { CreatableCombobox, type ComboValue } from './creatable-combobox';

/** What is being attached: the evidence fields of spec §3 (Evidence link payload) and a line naming it. */
export interface EvidenceTarget {
  type: LinkRequest['evidence']['type'];
  /** What the dialog says is being linked ("check api", "change diff on api"). */
  summary: string;
  check_id?: string;
  config_id?: string;
  config_change_id?: string;
  config_analysis_id?: string;
  component_id?: string;
  /** What the user saw (a log excerpt, the time of a check result); the server adds its own snapshot. */
  evidence?: Record<string, unknown>;
}

interface Errors {
  incident?: string;
  hypothesis?: string;
  type?: string;
  severity?: string;
}

const NONE: ComboValue = { kind: 'none' };

/** Spec §5, field by field. */
export function linkFormErrors(incident: ComboValue, hypothesis: ComboValue, type: string, severity: string): Errors {
  const errors: Errors = {};
  if (incident.kind === 'none') errors.incident = LINK_MESSAGES.incident;
  if (incident.kind === 'new') {
    if (!severity) errors.severity = LINK_MESSAGES.severity;
    if (!type) errors.type = LINK_MESSAGES.type;
  }
  if (incident.kind === 'existing' && hypothesis.kind === 'none') errors.hypothesis = LINK_MESSAGES.hypothesis;
  return errors;
}

/**
 * The Link to Incident dialog (spec §2, §4, §5): choose or create the incident (type and severity only
 * when creating, defaults low and availability), choose or create the hypothesis (optional for a new
 * incident: it then takes the incident's title), a description; 'Link' / 'Linking..'. Afterwards the
 * dialog closes and resets, and the user goes to the incident with a toast at the top right.
 */
export function LinkDialog({ open, onOpenChange, target }: { open: boolean; onOpenChange: (open: boolean) => void; target: EvidenceTarget }) {
  const session = useSession();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [incident, setIncident] = useState<ComboValue>(NONE);
  const [hypothesis, setHypothesis] = useState<ComboValue>(NONE);
  const [type, setType] = useState<IncidentType>(LINK_DEFAULTS.type);
  const [severity, setSeverity] = useState<IncidentSeverity>(LINK_DEFAULTS.severity);
  const [description, setDescription] = useState('');
  const [incidentText, setIncidentText] = useState('');
  const [hypothesisText, setHypothesisText] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  const incidentTerm = useDebouncedValue(incidentText, RESOURCE_SEARCH_DEBOUNCE_MS);
  const incidents = useIncidentSearch(incidentTerm, open && incident.kind === 'none');
  const hypothesisTerm = useDebouncedValue(hypothesisText, RESOURCE_SEARCH_DEBOUNCE_MS);
  const existingIncident = incident.kind === 'existing' ? incident.option.id : '';
  const hypotheses = useHypothesisSearch(existingIncident, hypothesisTerm);

  const reset = () => {
    setIncident(NONE);
    setHypothesis(NONE);
    setType(LINK_DEFAULTS.type);
    setSeverity(LINK_DEFAULTS.severity);
    setDescription('');
    setErrors({});
    setBusy(false);
  };
  const close = (next: boolean) => {
    if (!next) reset();
    onOpenChange(next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Spec §6: without a signed-in person, submit does nothing.
    if (session.status !== 'ready' || !session.user) return;
    const found = linkFormErrors(incident, hypothesis, type, severity);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body: LinkRequest = {
      incident: incident.kind === 'existing' ? { id: incident.option.id } : { title: incident.kind === 'new' ? incident.text : '', type, severity },
      hypothesis: hypothesis.kind === 'existing' ? { id: hypothesis.option.id } : hypothesis.kind === 'new' ? { title: hypothesis.text } : {},
      evidence: {
        type: target.type,
        ...(description.trim() ? { description: description.trim() } : {}),
        ...(target.check_id ? { check_id: target.check_id } : {}),
        ...(target.config_id ? { config_id: target.config_id } : {}),
        ...(target.config_change_id ? { config_change_id: target.config_change_id } : {}),
        ...(target.config_analysis_id ? { config_analysis_id: target.config_analysis_id } : {}),
        ...(target.component_id ? { component_id: target.component_id } : {}),
        ...(target.evidence ? { evidence: target.evidence } : {}),
      },
    };
    setBusy(true);
    try {
      const result = await linkEvidence(body);
      await client.invalidateQueries({ queryKey: incidentKeys.all });
      close(false);
      sonner.success(`Linked to ${result.incident_number}`, { duration: TOAST_DURATION_MS, position: 'top-right' });
      void navigate(`/incidents/${result.incident_id}`);
    } catch (error) {
      // Spec §8: a failed evidence call resets the dialog (the error is shown, not lost).
      console.error('linking evidence failed', error);
      sonner.error(toastErrorText(error), { duration: TOAST_DURATION_MS, position: 'top-right' });
      setBusy(false);
    }
  };

  const creating = incident.kind === 'new';
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Link to Incident"
      description={`Attach ${target.summary} as evidence.`}
      size="small"
      footer={
        <>
          <Button onClick={() => close(false)}>Cancel</Button>
          <Button variant="primary" type="submit" form="link-to-incident" disabled={busy}>
            {busy ? 'Linking..' : 'Link'}
          </Button>
        </>
      }
    >
      <form id="link-to-incident" noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
        <CreatableCombobox
          label="Incident"
          markRequired
          value={incident}
          onChange={(next) => {
            setIncident(next);
            setHypothesis(NONE);
            setErrors((current) => ({ ...current, incident: undefined, hypothesis: undefined }));
          }}
          onSearch={setIncidentText}
          options={(incidents.data ?? []).map((row) => ({ id: row.id, label: `${row.incident_id} ${row.title}`, detail: `${incidentLabel(row.status)} · ${incidentLabel(row.severity)}` }))}
          loading={incidents.isFetching && !incidents.data}
          createLabel="Create incident"
          placeholder="Search incidents or type a new title"
          error={errors.incident}
        />
        {creating ? (
          <div className="grid grid-cols-2 gap-3">
            <div>
              <Select label="Type" value={type} options={INCIDENT_TYPES.map((value) => ({ value, label: incidentLabel(value) }))} onValueChange={setType} />
              {errors.type ? <p role="alert" className="mt-1 text-xs text-red-600">{errors.type}</p> : null}
            </div>
            <div>
              <Select label="Severity" value={severity} options={SEVERITY_CHOICES.map((value) => ({ value, label: incidentLabel(value) }))} onValueChange={setSeverity} />
              {errors.severity ? <p role="alert" className="mt-1 text-xs text-red-600">{errors.severity}</p> : null}
            </div>
          </div>
        ) : null}
        <CreatableCombobox
          label="Hypothesis"
          markRequired={incident.kind === 'existing'}
          value={hypothesis}
          onChange={(next) => {
            setHypothesis(next);
            setErrors((current) => ({ ...current, hypothesis: undefined }));
          }}
          onSearch={setHypothesisText}
          options={(hypotheses.data ?? []).map((row) => ({ id: row.id, label: row.title, detail: `${incidentLabel(row.type)} · ${row.status}` }))}
          loading={hypotheses.isFetching && !hypotheses.data}
          createLabel="Create hypothesis"
          placeholder={creating ? 'Leave blank to use the incident title' : incident.kind === 'existing' ? 'Search hypotheses or type a new one' : 'Choose the incident first'}
          error={errors.hypothesis}
        />
        <TextAreaField label="Description" rows={3} value={description} onChange={(event) => setDescription(event.target.value)} placeholder="What this evidence shows" />
      </form>
    </Dialog>
  );
}
