import { Plus } from 'lucide-react';
import { Controller, useFieldArray, useFormContext } from 'react-hook-form';
import { Button } from '@web/ui/primitives/button';
import { DropdownMenu, DropdownMenuItem } from '@web/ui/primitives/dropdown-menu';
import { Field } from '@web/ui/primitives/field';
import { newCheck, type CanaryFormValues } from '../model/form-values';
import type { CheckTypeInfo } from '../queries';
import { CheckCard } from './check-card';
import { CheckIcon } from '@web/ui/check-icon';
import { PairsInput } from './pairs-input';
import { ScheduleField } from './schedule-field';

export interface CanaryFormProps {
  types: readonly CheckTypeInfo[];
  /** Spec §5: name and namespace cannot be edited once the canary exists. */
  existing: boolean;
  readOnly: boolean;
  /** The server's live messages by form path, shown on fields once touched. */
  live: ReadonlyMap<string, string>;
}

/** The Form tab: the canary's name, namespace, labels and schedule, then its checks (add and remove). */
export function CanaryForm({ types, existing, readOnly, live }: CanaryFormProps) {
  const { control, register, getFieldState, formState } = useFormContext<CanaryFormValues>();
  const checks = useFieldArray({ control, name: 'checks' });
  const shown = (path: 'name' | 'namespace') => {
    const state = getFieldState(path, formState);
    return state.error?.message ?? (state.isTouched || formState.isSubmitted ? live.get(path) : undefined);
  };
  const counts = new Map<string, number>();
  return (
    <div className="flex flex-col gap-5">
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Name" required markRequired disabled={existing || readOnly} error={shown('name')} placeholder={existing || readOnly ? undefined : 'e.g. web-frontend'} {...register('name')} />
        <Field label="Namespace" disabled={existing || readOnly} error={shown('namespace')} {...register('namespace')} />
        <Controller
          control={control}
          name="labels"
          render={({ field, fieldState }) => (
            <PairsInput
              label="Labels"
              item="Label"
              keyLabel="Key"
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              disabled={readOnly}
              errorOf={(index) => formState.errors.labels?.[index]?.name?.message ?? (index === 0 ? (fieldState.error?.message ?? live.get('labels')) : undefined)}
            />
          )}
        />
        <Controller
          control={control}
          name="schedule"
          render={({ field, fieldState }) => (
            <ScheduleField value={field.value} onChange={field.onChange} onBlur={field.onBlur} disabled={readOnly} error={fieldState.error?.message ?? (fieldState.isTouched || formState.isSubmitted ? live.get('schedule') : undefined)} />
          )}
        />
      </div>
      <section aria-label="Checks" className="flex flex-col gap-3">
        <h2 className="text-sm font-semibold text-slate-900">Checks</h2>
        {checks.fields.length === 0 ? <p className="text-sm text-slate-600">No checks yet: add one.</p> : null}
        {checks.fields.map((check, index) => {
          const number = (counts.get(check.type) ?? 0) + 1;
          counts.set(check.type, number);
          return (
            <CheckCard
              key={check.id}
              index={index}
              number={number}
              type={check.type}
              info={types.find((type) => type.type === check.type)}
              readOnly={readOnly}
              onRemove={() => checks.remove(index)}
              live={live}
            />
          );
        })}
        {readOnly ? null : (
          <div>
            <DropdownMenu
              align="start"
              label="Check types"
              trigger={
                <Button size="sm">
                  <Plus className="size-4" aria-hidden="true" />
                  Add check
                </Button>
              }
            >
              {types.map((type) => (
                <DropdownMenuItem key={type.type} onSelect={() => checks.append(newCheck(type.type))}>
                  <CheckIcon icon={type.icon} type={type.type} className="size-4 text-blue-600" />
                  {type.label}
                </DropdownMenuItem>
              ))}
            </DropdownMenu>
          </div>
        )}
      </section>
    </div>
  );
}
