import { zodResolver } from '@hookform/resolvers/zod';
import { useId, type ComponentProps } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@web/ui/primitives/button';
import { Field, inputClass } from '../components/field';
import type { ResourceField } from './registry';
import { formSchema, initialValues, type ResourceRow, type ResourceValues } from './values';

export interface ResourceFormProps {
  fields: readonly ResourceField[];
  row: ResourceRow | null;
  saving: boolean;
  onSubmit: (values: ResourceValues) => void;
  onBack: () => void;
  onDelete?: () => void;
}

function TextArea({ label, error, ...props }: { label: string; error?: string } & ComponentProps<'textarea'>) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea id={id} rows={8} aria-invalid={error ? true : undefined} className={`${inputClass} font-mono text-xs`} {...props} />
      {error ? (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The edit form of a registered resource: Back, Save or Update, and Delete when the row exists. */
export function ResourceForm({ fields, row, saving, onSubmit, onBack, onDelete }: ResourceFormProps) {
  const existing = row !== null;
  const form = useForm<ResourceValues>({ resolver: zodResolver(formSchema(fields)), mode: 'onTouched', defaultValues: initialValues(fields, row) });
  const { errors } = form.formState;
  return (
    <form onSubmit={(event) => void form.handleSubmit(onSubmit)(event)} noValidate className="flex max-w-2xl flex-col gap-4">
      {fields.map((field) => {
        const props = {
          label: field.label,
          placeholder: field.placeholder,
          disabled: existing && field.immutable,
          error: errors[field.name]?.message,
          ...form.register(field.name),
        };
        return field.kind === 'textarea' ? <TextArea key={field.name} {...props} /> : <Field key={field.name} {...props} />;
      })}
      <div className="flex items-center gap-2">
        <Button onClick={onBack}>Back</Button>
        <Button type="submit" variant="primary" disabled={saving}>
          {saving ? (existing ? 'Updating' : 'Saving') : existing ? 'Update' : 'Save'}
        </Button>
        {onDelete ? (
          <Button variant="danger" className="ml-auto" onClick={onDelete}>
            Delete
          </Button>
        ) : null}
      </div>
    </form>
  );
}
