import { useState, type FormEvent, type ReactNode } from 'react';
import type { ConnectionField, ConnectionTypeDef } from '@common/connections';
import { FormActions } from '@web/features/settings/resources/form-actions';
import { Field, TextAreaField } from '@web/ui/primitives/field';
import { emptySecret, initialFormValues, validateForm, type ConnectionFormValues, type FormProblems } from './form';
import { useReferenceTargets } from './queries';
import type { ConnectionRow } from './schema';
import { SecretField } from './secret-field';

export interface ConnectionFormProps {
  def: ConnectionTypeDef;
  /** The stored connection, or null for a new one. */
  row: ConnectionRow | null;
  /** Linked rows (source other than UI) and people without write access see the values only. */
  readOnly: boolean;
  saving: boolean;
  /** Problems the server answered (400 details, a taken name), by form field. */
  serverProblems: FormProblems;
  onSubmit: (values: ConnectionFormValues, initial: ConnectionFormValues) => void;
  onBack: () => void;
  onDelete: (() => void) | undefined;
  /** Shown after the fields (the Test section of a stored connection); told whether the form has unsaved changes. */
  extra?: (dirty: boolean) => ReactNode;
}

const selectClass =
  'w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm shadow-sm disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid=true]:border-red-500';

/**
 * The form of one connection type (common/connections.ts): Name and Namespace first, then each field of
 * the type with its required mark and default. Checked on submit with the API's own rules.
 */
export function ConnectionForm({ def, row, readOnly, saving, serverProblems, onSubmit, onBack, onDelete, extra }: ConnectionFormProps) {
  const existing = row !== null;
  const [initial] = useState(() => initialFormValues(def, row));
  const [values, setValues] = useState(initial);
  const [problems, setProblems] = useState<FormProblems | null>(null);
  const targets = useReferenceTargets(!readOnly).data;
  const namespace = values.namespace.trim();
  const inNamespace = targets
    ? { secret: targets.secret.filter((item) => item.namespace === namespace), configmap: targets.configmap.filter((item) => item.namespace === namespace) }
    : undefined;
  // The form's own problems follow each change once a submit showed them; the server's stay until the next submit.
  const shown: FormProblems = { ...serverProblems, ...(problems ?? {}) };

  const update = (next: ConnectionFormValues) => {
    setValues(next);
    if (problems) setProblems(validateForm(def, next));
  };
  const setField = (key: string, text: string) => update({ ...values, fields: { ...values.fields, [key]: text } });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateForm(def, values);
    setProblems(found);
    if (Object.keys(found).length === 0) onSubmit(values, initial);
  };

  const renderField = (field: ConnectionField) => {
    const error = shown[field.key];
    if (field.input === 'secret') {
      return (
        <SecretField
          key={field.key}
          field={field}
          value={values.secrets[field.key] ?? emptySecret()}
          onChange={(secret) => update({ ...values, secrets: { ...values.secrets, [field.key]: secret } })}
          disabled={readOnly}
          error={error}
          targets={inNamespace}
          stored={initial.secrets[field.key]?.kept ?? false}
        />
      );
    }
    const text = values.fields[field.key] ?? '';
    const common = { label: field.label, markRequired: field.required, required: field.required, disabled: readOnly, error, hint: field.hint, placeholder: readOnly ? undefined : field.placeholder };
    if (field.input === 'checkbox') {
      return (
        <label key={field.key} className="flex items-center gap-2 text-sm font-medium text-slate-700">
          <input type="checkbox" className="size-4" checked={text === 'true'} disabled={readOnly} onChange={(event) => setField(field.key, event.target.checked ? 'true' : '')} />
          {field.label}
        </label>
      );
    }
    if (field.input === 'select') {
      return <SelectField key={field.key} field={field} value={text} disabled={readOnly} error={error} onChange={(next) => setField(field.key, next)} />;
    }
    if (field.input === 'textarea') return <TextAreaField key={field.key} {...common} rows={4} value={text} onChange={(event) => setField(field.key, event.target.value)} />;
    return (
      <Field
        key={field.key}
        {...common}
        type={field.input === 'number' ? 'number' : 'text'}
        inputMode={field.input === 'number' ? 'numeric' : undefined}
        min={field.input === 'number' ? 0 : undefined}
        value={text}
        onChange={(event) => setField(field.key, event.target.value)}
      />
    );
  };

  return (
    <form onSubmit={submit} noValidate className="flex max-w-2xl flex-col gap-4" aria-label={`${def.label} connection`}>
      <div className="grid grid-cols-2 gap-4">
        <Field
          label="Name"
          markRequired
          required
          disabled={readOnly || existing}
          placeholder={readOnly || existing ? undefined : 'e.g. production-db'}
          value={values.name}
          error={shown.name}
          onChange={(event) => update({ ...values, name: event.target.value })}
        />
        <Field
          label="Namespace"
          markRequired
          required
          disabled={readOnly || existing}
          value={values.namespace}
          error={shown.namespace}
          onChange={(event) => update({ ...values, namespace: event.target.value })}
        />
      </div>
      {def.fields.map(renderField)}
      {shown[''] ? (
        <p role="alert" className="text-sm text-red-600">
          {shown['']}
        </p>
      ) : null}
      {extra?.(JSON.stringify(values) !== JSON.stringify(initial))}
      <FormActions onBack={onBack} existing={existing} readOnly={readOnly} saving={saving} onDelete={onDelete} />
    </form>
  );
}

function SelectField({ field, value, disabled, error, onChange }: { field: ConnectionField; value: string; disabled: boolean; error: string | undefined; onChange: (value: string) => void }) {
  const id = `connection-field-${field.key}`;
  const options = field.options ?? [];
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-baseline gap-0.5">
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          {field.label}
        </label>
        {field.required ? (
          <span aria-hidden="true" className="text-sm text-red-600">
            *
          </span>
        ) : null}
      </div>
      <select
        id={id}
        className={selectClass}
        value={value}
        disabled={disabled}
        required={field.required}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        {/* A stored value this build does not offer is kept visible rather than silently replaced. */}
        {value !== '' && !options.includes(value) ? <option value={value}>{value}</option> : null}
        {field.required && value !== '' ? null : <option value="">—</option>}
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
