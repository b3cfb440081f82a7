import { Plus, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { ResourceEditorProps } from '@web/features/settings/resources/types';
import { FormActions } from '@web/features/settings/resources/form-actions';
import { answerProblems } from '@web/features/connections/form';
import { ApiError } from '@web/lib/api';
import { Button } from '@web/ui/primitives/button';
import { Field } from '@web/ui/primitives/field';
import { IconButton } from '@web/ui/primitives/icon-button';
import { PairsInput } from '@web/features/canaries/editor/pairs-input';
import { dataFormProblems, dataFormToWrite, initialDataForm, type DataForm, type DataPair, type DataProblems } from './data';

const inputClass =
  'w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm shadow-sm disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid=true]:border-red-500';

/** The problems of a refused save, by the form's parts (`name`, `data.<key>`, …). */
function serverProblems(error: unknown): DataProblems {
  if (!(error instanceof ApiError)) return {};
  if (error.status === 409) return { name: error.message };
  const out: DataProblems = {};
  for (const problem of answerProblems(error.data)) {
    const part = (['name', 'namespace', 'labels'] as const).find((candidate) => problem.path === candidate || problem.path.startsWith(`${candidate}.`)) ?? 'data';
    out[part] = out[part] ? `${out[part]}; ${problem.message}` : problem.message;
  }
  return out;
}

/**
 * The editor of a secret or a config map: name and namespace (fixed once created), the data as keys and
 * values, and labels. A secret's stored values are never shown: a stored key left blank keeps its value.
 */
export default function DataEditor({ resource, row, readOnly, saving, saveError, onSubmit, onBack, onDelete }: ResourceEditorProps) {
  const secret = resource.table === 'secrets';
  const existing = row !== null;
  const [form, setForm] = useState<DataForm>(() => initialDataForm(row, secret));
  const [problems, setProblems] = useState<DataProblems | null>(null);
  const shown: DataProblems = { ...serverProblems(saveError), ...(problems ?? {}) };
  const change = (next: DataForm) => {
    setForm(next);
    if (problems) setProblems(dataFormProblems(next, existing));
  };
  const setPair = (index: number, patch: Partial<DataPair>) => change({ ...form, data: form.data.map((pair, at) => (at === index ? { ...pair, ...patch } : pair)) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = dataFormProblems(form, existing);
    setProblems(found);
    if (Object.keys(found).length === 0) onSubmit(dataFormToWrite(form, existing));
  };

  return (
    <form onSubmit={submit} noValidate className="flex max-w-2xl flex-col gap-4">
      <div className="grid grid-cols-2 gap-4">
        <Field label="Name" markRequired required disabled={readOnly || existing} value={form.name} error={shown.name} onChange={(event) => change({ ...form, name: event.target.value })} />
        <Field
          label="Namespace"
          markRequired
          required
          disabled={readOnly || existing}
          value={form.namespace}
          error={shown.namespace}
          onChange={(event) => change({ ...form, namespace: event.target.value })}
        />
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-slate-700">Data</legend>
        {secret ? <p className="text-xs text-slate-500">Values are stored encrypted and never shown again; leave a stored key's value blank to keep it.</p> : null}
        {form.data.length === 0 ? <p className="text-xs text-slate-500">None</p> : null}
        {form.data.map((pair, index) => (
          <div key={index} className="flex items-center gap-2">
            <input
              aria-label={`Key ${index + 1}`}
              className={inputClass}
              value={pair.key}
              placeholder="Key"
              disabled={readOnly || pair.stored}
              onChange={(event) => setPair(index, { key: event.target.value })}
            />
            {secret ? (
              <input
                type="password"
                autoComplete="new-password"
                aria-label={`Value ${index + 1}`}
                className={inputClass}
                value={pair.value}
                placeholder={pair.stored ? 'Stored (unchanged)' : 'Value'}
                disabled={readOnly}
                onChange={(event) => setPair(index, { value: event.target.value })}
              />
            ) : (
              <textarea
                aria-label={`Value ${index + 1}`}
                rows={1}
                className={inputClass}
                value={pair.value}
                placeholder="Value"
                disabled={readOnly}
                onChange={(event) => setPair(index, { value: event.target.value })}
              />
            )}
            {readOnly ? null : (
              <IconButton
                label={`Remove key ${pair.key || index + 1}`}
                icon={<Trash2 className="size-4" aria-hidden="true" />}
                onClick={() => change({ ...form, data: form.data.filter((_, at) => at !== index) })}
              />
            )}
          </div>
        ))}
        {readOnly ? null : (
          <div>
            <Button size="sm" variant="ghost" onClick={() => change({ ...form, data: [...form.data, { key: '', value: '', stored: false }] })}>
              <Plus className="size-4" aria-hidden="true" />
              Add key
            </Button>
          </div>
        )}
        {shown.data ? (
          <p role="alert" className="text-xs text-red-600">
            {shown.data}
          </p>
        ) : null}
      </fieldset>
      <PairsInput
        label="Labels"
        item="Label"
        keyLabel="Key"
        value={form.labels.map((pair) => ({ name: pair.key, value: pair.value }))}
        disabled={readOnly}
        onChange={(pairs) => change({ ...form, labels: pairs.map((pair) => ({ key: pair.name, value: pair.value })) })}
      />
      {shown.labels ? (
        <p role="alert" className="text-xs text-red-600">
          {shown.labels}
        </p>
      ) : null}
      <FormActions onBack={onBack} existing={existing} readOnly={readOnly} saving={saving} onDelete={onDelete} />
    </form>
  );
}
