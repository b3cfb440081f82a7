import { Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { CheckIcon } from '@web/ui/check-icon';
import { Button } from '@web/ui/primitives/button';
import { DropdownMenu, DropdownMenuItem } from '@web/ui/primitives/dropdown-menu';
import { Field } from '@web/ui/primitives/field';
import type { ResourceFormValues } from '../model/form-values';
import { PairsInput } from './pairs-input';
import { ScheduleField } from './schedule-field';
import type { PickableType } from './type-picker';

/**
 * The pieces every resource spec form shares (the canary form and the scraper form): the resource's own
 * fields, and its list of items by type with an Add menu.
 */

export interface ResourceFieldsProps {
  /** Spec §5: name and namespace cannot be edited once the resource exists. */
  existing: boolean;
  readOnly: boolean;
  /** The server's live messages by form path, shown on fields once touched. */
  live: ReadonlyMap<string, string>;
  namePlaceholder: string;
  /** The schedule presets and what a custom one may be; the resource schedule options by default. */
  schedulePresets?: readonly string[];
  scheduleHint?: string;
}

/** Name, namespace, labels and schedule, in a form whose values extend ResourceFormValues. */
export function ResourceFields({ existing, readOnly, live, namePlaceholder, schedulePresets, scheduleHint }: ResourceFieldsProps) {
  const { control, register, getFieldState, formState } = useFormContext<ResourceFormValues>();
  const shown = (path: 'name' | 'namespace') => {
    const state = getFieldState(path, formState);
    return state.error?.message ?? (state.isTouched || formState.isSubmitted ? live.get(path) : undefined);
  };
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Field label="Name" required markRequired disabled={existing || readOnly} error={shown('name')} placeholder={existing || readOnly ? undefined : namePlaceholder} {...register('name')} />
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
          <ScheduleField
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            disabled={readOnly}
            {...(schedulePresets ? { presets: schedulePresets } : {})}
            {...(scheduleHint ? { hint: scheduleHint } : {})}
            error={fieldState.error?.message ?? (fieldState.isTouched || formState.isSubmitted ? live.get('schedule') : undefined)}
          />
        )}
      />
    </div>
  );
}

export interface TypedListProps<T extends { id: string; type: string }> {
  /** The section's heading and name ('Checks'). */
  title: string;
  emptyText: string;
  /** The Add button ('Add check') and its menu's name ('Check types'). */
  addLabel: string;
  menuLabel: string;
  types: readonly PickableType[];
  readOnly: boolean;
  items: readonly T[];
  onAdd: (type: string) => void;
  /** One item's card; `number` counts the items of its type ('HTTP check 2'). */
  children: (item: T, index: number, number: number) => ReactNode;
}

/** The form's list of items by type (the checks of a canary, the sources of a scraper), with Add. */
export function TypedList<T extends { id: string; type: string }>({ title, emptyText, addLabel, menuLabel, types, readOnly, items, onAdd, children }: TypedListProps<T>) {
  const counts = new Map<string, number>();
  return (
    <section aria-label={title} className="flex flex-col gap-3">
      <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
      {items.length === 0 ? <p className="text-sm text-slate-600">{emptyText}</p> : null}
      {items.map((item, index) => {
        const number = (counts.get(item.type) ?? 0) + 1;
        counts.set(item.type, number);
        return children(item, index, number);
      })}
      {readOnly ? null : (
        <div>
          <DropdownMenu
            align="start"
            label={menuLabel}
            trigger={
              <Button size="sm">
                <Plus className="size-4" aria-hidden="true" />
                {addLabel}
              </Button>
            }
          >
            {types.map((type) => (
              <DropdownMenuItem key={type.type} onSelect={() => onAdd(type.type)}>
                <CheckIcon icon={type.icon} type={type.type} className="size-4 text-blue-600" />
                {type.label}
              </DropdownMenuItem>
            ))}
          </DropdownMenu>
        </div>
      )}
    </section>
  );
}
