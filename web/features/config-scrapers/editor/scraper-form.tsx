import { Plus } from 'lucide-react';
import { Controller, useFieldArray, useFormContext } from 'react-hook-form';
import { SCHEDULE_PRESETS } from '@common/constants';
import { PairsInput } from '@web/features/canaries/editor/pairs-input';
import { ScheduleField } from '@web/features/canaries/editor/schedule-field';
import { CheckIcon } from '@web/ui/check-icon';
import { Button } from '@web/ui/primitives/button';
import { DropdownMenu, DropdownMenuItem } from '@web/ui/primitives/dropdown-menu';
import { Field } from '@web/ui/primitives/field';
import { newEntry, type ScraperFormValues } from '../model/form-values';
import type { ScraperTypeInfo } from '../model/scraper-types';
import { EntryCard } from './entry-card';

/** What a custom schedule may be (server/features/catalog/spec.ts: @hourly by default, at least 30 s apart). */
export const SCRAPER_SCHEDULE_HINT = 'A cron line, @every <duration>, or @never to run it only on demand (Run Now); blank: @hourly';

export interface ScraperFormProps {
  types: readonly ScraperTypeInfo[];
  /** Spec §5: name and namespace cannot be edited once the scraper exists. */
  existing: boolean;
  readOnly: boolean;
  /** The server's live messages by form path, shown on fields once touched. */
  live: ReadonlyMap<string, string>;
}

/** The Form tab: the scraper's name, namespace, labels and schedule, then its sources: the entries of the spec by type (add and remove). */
export function ScraperForm({ types, existing, readOnly, live }: ScraperFormProps) {
  const { control, register, getFieldState, formState } = useFormContext<ScraperFormValues>();
  const entries = useFieldArray({ control, name: 'entries' });
  const shown = (path: 'name' | 'namespace') => {
    const state = getFieldState(path, formState);
    return state.error?.message ?? (state.isTouched || formState.isSubmitted ? live.get(path) : undefined);
  };
  const counts = new Map<string, number>();
  return (
    <div className="flex flex-col gap-5">
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Name" required markRequired disabled={existing || readOnly} error={shown('name')} placeholder={existing || readOnly ? undefined : 'e.g. app-settings'} {...register('name')} />
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
              presets={SCHEDULE_PRESETS.scraper}
              hint={SCRAPER_SCHEDULE_HINT}
              error={fieldState.error?.message ?? (fieldState.isTouched || formState.isSubmitted ? live.get('schedule') : undefined)}
            />
          )}
        />
      </div>
      <section aria-label="Sources" className="flex flex-col gap-3">
        <h2 className="text-sm font-semibold text-slate-900">Sources</h2>
        {entries.fields.length === 0 ? <p className="text-sm text-slate-600">Nothing to scrape yet: add a source.</p> : null}
        {entries.fields.map((entry, index) => {
          const number = (counts.get(entry.type) ?? 0) + 1;
          counts.set(entry.type, number);
          return (
            <EntryCard
              key={entry.id}
              index={index}
              number={number}
              type={entry.type}
              info={types.find((type) => type.type === entry.type)}
              readOnly={readOnly}
              onRemove={() => entries.remove(index)}
              live={live}
            />
          );
        })}
        {readOnly ? null : (
          <div>
            <DropdownMenu
              align="start"
              label="Source types"
              trigger={
                <Button size="sm">
                  <Plus className="size-4" aria-hidden="true" />
                  Add source
                </Button>
              }
            >
              {types.map((type) => (
                <DropdownMenuItem key={type.type} onSelect={() => entries.append(newEntry(type.type))}>
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
