import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { PairsInput } from '@web/features/canaries/editor/pairs-input';
import { Field, TextAreaField } from '@web/ui/primitives/field';
import { FormActions } from './form-actions';
import { formSchema, initialValues, pairsToText, textToPairs, type ResourceValues } from './form-values';
import type { ResourceField, ResourceRow } from './types';

const CODE_HINT = 'YAML or JSON';

export interface ResourceFormProps {
  fields: readonly ResourceField[];
  row: ResourceRow | null;
  saving: boolean;
  /** Linked rows and people without write access see the values without inputs to change them. */
  readOnly?: boolean;
  onSubmit: (values: ResourceValues) => void;
  onBack: () => void;
  onDelete?: () => void;
  /** Code fields labelled '{label} (YAML)' (spec §2 Topology form: 'Spec (YAML)'), with no format hint. */
  yamlLabels?: boolean;
  /** Another action bar in place of Back / Save or Update / Delete. */
  actions?: React.ReactNode;
}

/** The edit form of a registered resource (spec §2): Back, Save or Update, and Delete when the row exists. */
export function ResourceForm({ fields, row, saving, readOnly = false, onSubmit, onBack, onDelete, yamlLabels = false, actions }: ResourceFormProps) {
  const existing = row !== null;
  // Spec §5: messages appear once a field is touched (blur), then follow every change.
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
          label: yamlLabels && field.kind === 'code' ? `${field.label} (YAML)` : field.label,
          required: field.required,
          markRequired: field.required,
          // An example in an empty read-only field would read like a value.
          placeholder: readOnly ? undefined : field.placeholder,
          hint: field.hint ?? (field.kind === 'code' && !yamlLabels ? CODE_HINT : undefined),
          disabled: readOnly || (existing && field.immutable),
          error: errors[field.name]?.message,
          ...form.register(field.name),
        };
        if (field.kind === 'code') return <TextAreaField key={field.name} monospace rows={12} spellCheck={false} {...props} />;
        return field.kind === 'textarea' ? <TextAreaField key={field.name} {...props} /> : <Field key={field.name} {...props} />;
      })}
      {actions ?? <FormActions onBack={onBack} existing={Boolean(existing)} readOnly={readOnly} saving={saving} onDelete={onDelete} />}
    </form>
  );
}
