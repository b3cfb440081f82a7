import { Trash2 } from 'lucide-react';
import { useFormContext, useWatch } from 'react-hook-form';
import { Field } from '@web/ui/primitives/field';
import { IconButton } from '@web/ui/primitives/icon-button';
import { checkForm, isVisible } from '../model/check-forms';
import type { CanaryFormValues } from '../model/form-values';
import type { CheckTypeInfo } from '../queries';
import { CheckFieldInput } from './check-field-input';
import { CheckIcon } from '@web/ui/check-icon';

export interface CheckCardProps {
  index: number;
  /** The check's number among the checks of its type ('HTTP check 2'). */
  number: number;
  type: string;
  info: CheckTypeInfo | undefined;
  readOnly: boolean;
  onRemove: () => void;
  /** The server's live messages by form path ('checks.0.fields.url'), shown on touched fields. */
  live: ReadonlyMap<string, string>;
}

/** One check of the canary: its name and description, then its type's fields (spec §3). */
export function CheckCard({ index, number, type, info, readOnly, onRemove, live }: CheckCardProps) {
  const { control, register, getFieldState, formState } = useFormContext<CanaryFormValues>();
  const values = useWatch({ control, name: `checks.${index}.fields` });
  const rest = useWatch({ control, name: `checks.${index}.rest` });
  const title = `${info?.label ?? type} check ${number}`;
  const form = checkForm(type);
  const shown = (path: 'name' | 'description') => {
    const state = getFieldState(`checks.${index}.${path}`, formState);
    return state.error?.message ?? (state.isTouched || formState.isSubmitted ? live.get(`checks.${index}.${path}`) : undefined);
  };
  const locked = (form ?? []).filter((field) => Object.hasOwn(rest, field.name));
  return (
    <fieldset aria-label={title} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-slate-50/60 p-4">
      <legend className="sr-only">{title}</legend>
      <div className="flex items-center gap-2">
        <CheckIcon icon={info?.icon} type={info?.type} className="size-4 text-blue-600" />
        <h3 className="flex-1 text-sm font-semibold text-slate-900">{title}</h3>
        {readOnly ? null : <IconButton label={`Remove ${title}`} icon={<Trash2 className="size-4" aria-hidden="true" />} onClick={onRemove} />}
      </div>
      <div className="grid gap-3 md:grid-cols-2">
        <Field label="Check name" required markRequired disabled={readOnly} error={shown('name')} {...register(`checks.${index}.name`)} />
        <Field label="Description" disabled={readOnly} error={shown('description')} {...register(`checks.${index}.description`)} />
      </div>
      {form ? (
        <div className="grid gap-3 md:grid-cols-2">
          {form
            .filter((field) => !Object.hasOwn(rest, field.name) && isVisible(field, values))
            .map((field) => (
              <div key={field.name} className={field.kind === 'textarea' || field.kind === 'pairs' || field.kind === 'codes' ? 'md:col-span-2' : undefined}>
                <CheckFieldInput control={control} index={index} field={field} disabled={readOnly} live={live.get(`checks.${index}.fields.${field.name}`)} />
              </div>
            ))}
        </div>
      ) : (
        <p className="text-sm text-slate-600">The form has no fields for {info?.label ?? type} checks: edit this check&apos;s fields in Code.</p>
      )}
      {locked.length > 0 ? (
        <p role="note" className="text-xs text-slate-600">
          Written in a way this form cannot show, so kept as it is; edit in Code: {locked.map((field) => field.label).join(', ')}.
        </p>
      ) : null}
    </fieldset>
  );
}
