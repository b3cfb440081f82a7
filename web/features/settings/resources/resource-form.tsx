import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '@web/ui/primitives/button';
import { Field, TextAreaField } from '@web/ui/primitives/field';
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
        return field.kind === 'textarea' ? <TextAreaField key={field.name} monospace {...props} /> : <Field key={field.name} {...props} />;
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
