import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { PairsInput } from '@web/features/canaries/editor/pairs-input';
import { formSchema, initialValues, pairsToText, textToPairs, type ResourceValues } from '@web/features/settings/resources/form-values';
import type { ResourceField } from '@web/features/settings/resources/registry';
import type { ResourceRow } from '@web/features/settings/resources/values';
import { Button } from '@web/ui/primitives/button';
import { Field, TextAreaField } from '@web/ui/primitives/field';

export interface SpecFormProps {
  fields: readonly ResourceField[];
  row: ResourceRow | null;
  saving: boolean;
  readOnly: boolean;
  onSubmit: (values: ResourceValues) => void;
  onCancel: () => void;
  onDelete: (() => void) | undefined;
}

/**
 * Spec §2 Topology form (and the log backend's, built the same way): the resource's fields (Name,
 * Namespace, Labels as a key-value list, Spec as YAML), Save or Update ('Saving' or 'Updating' while busy),
 * Cancel, and Delete when editing.
 */
export function SpecForm({ fields, row, saving, readOnly, onSubmit, onCancel, onDelete }: SpecFormProps) {
  const existing = row !== null;
  const form = useForm<ResourceValues>({ resolver: zodResolver(formSchema(fields)), mode: 'onTouched', defaultValues: initialValues(fields, row) });
  const { errors } = form.formState;
  return (
    <form onSubmit={(event) => void form.handleSubmit(onSubmit)(event)} noValidate className="flex max-w-2xl flex-col gap-4">
      {fields.map((field) => {
        if (field.kind === 'pairs') {
          return (
            <div key={field.name} className="flex flex-col gap-1">
              <Controller
                control={form.control}
                name={field.name}
                render={({ field: input }) => (
                  <PairsInput
                    label={field.label}
                    item={field.label.replace(/s$/, '')}
                    keyLabel="Key"
                    value={textToPairs(input.value)}
                    onChange={(pairs) => input.onChange(pairsToText(pairs))}
                    onBlur={input.onBlur}
                    disabled={readOnly || (existing && field.immutable)}
                  />
                )}
              />
              {errors[field.name]?.message ? (
                <p role="alert" className="text-xs text-red-600">
                  {errors[field.name]?.message}
                </p>
              ) : null}
            </div>
          );
        }
        const props = {
          label: field.kind === 'code' ? `${field.label} (YAML)` : field.label,
          required: field.required,
          markRequired: field.required,
          placeholder: readOnly ? undefined : field.placeholder,
          hint: field.hint,
          disabled: readOnly || (existing && field.immutable),
          error: errors[field.name]?.message,
          ...form.register(field.name),
        };
        if (field.kind === 'code') return <TextAreaField key={field.name} monospace rows={12} spellCheck={false} {...props} />;
        return field.kind === 'textarea' ? <TextAreaField key={field.name} {...props} /> : <Field key={field.name} {...props} />;
      })}
      <div className="flex items-center gap-2">
        {readOnly ? null : (
          <Button type="submit" variant="primary" disabled={saving}>
            {saving ? (existing ? 'Updating' : 'Saving') : existing ? 'Update' : 'Save'}
          </Button>
        )}
        <Button onClick={onCancel}>{readOnly ? 'Back' : 'Cancel'}</Button>
        {onDelete && !readOnly ? (
          <Button variant="danger" className="ml-auto" onClick={onDelete}>
            Delete
          </Button>
        ) : null}
      </div>
    </form>
  );
}
