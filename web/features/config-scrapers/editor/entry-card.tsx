import { Trash2 } from 'lucide-react';
import { useFormContext, useWatch } from 'react-hook-form';
import { SpecFieldInput } from '@web/features/canaries/editor/check-field-input';
import { isVisible, type CheckField } from '@web/features/canaries/model/check-forms';
import { CheckIcon } from '@web/ui/check-icon';
import { IconButton } from '@web/ui/primitives/icon-button';
import { ENTRY_FORMS, MAPPING_FIELDS } from '../model/entry-forms';
import type { ScraperFormValues } from '../model/form-values';
import type { ScraperTypeInfo } from '../model/scraper-types';

export interface EntryCardProps {
  index: number;
  /** The entry's number among the entries of its type ('File source 2'). */
  number: number;
  type: string;
  info: ScraperTypeInfo | undefined;
  readOnly: boolean;
  onRemove: () => void;
  /** The server's live messages by form path ('entries.0.fields.paths'), shown on touched fields. */
  live: ReadonlyMap<string, string>;
}

const wide = (field: CheckField) => field.kind === 'textarea' || field.kind === 'pairs' || field.kind === 'lines';

/** One entry of the spec: its type's fields (spec §3: file path required…), then how results become items. */
export function EntryCard({ index, number, type, info, readOnly, onRemove, live }: EntryCardProps) {
  const { control } = useFormContext<ScraperFormValues>();
  const values = useWatch({ control, name: `entries.${index}.fields` });
  const rest = useWatch({ control, name: `entries.${index}.rest` });
  const title = `${info?.label ?? type} source ${number}`;
  const own = Object.hasOwn(ENTRY_FORMS, type) ? (ENTRY_FORMS[type] ?? []) : undefined;
  const shown = (fields: readonly CheckField[]) => fields.filter((field) => !Object.hasOwn(rest, field.name) && isVisible(field, values));
  const locked = [...(own ?? []), ...MAPPING_FIELDS].filter((field) => Object.hasOwn(rest, field.name));
  const input = (field: CheckField) => (
    <div key={field.name} className={wide(field) ? 'md:col-span-2' : undefined}>
      <SpecFieldInput control={control} name={`entries.${index}.fields.${field.name}`} field={field} disabled={readOnly} live={live.get(`entries.${index}.fields.${field.name}`)} />
    </div>
  );
  return (
    <fieldset aria-label={title} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-slate-50/60 p-4">
      <legend className="sr-only">{title}</legend>
      <div className="flex items-center gap-2">
        <CheckIcon icon={info?.icon} type={type} className="size-4 text-blue-600" />
        <h3 className="flex-1 text-sm font-semibold text-slate-900">{title}</h3>
        {readOnly ? null : <IconButton label={`Remove ${title}`} icon={<Trash2 className="size-4" aria-hidden="true" />} onClick={onRemove} />}
      </div>
      {own ? (
        <>
          <div className="grid gap-3 md:grid-cols-2">{shown(own).map(input)}</div>
          <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Items</h4>
          <div className="grid gap-3 md:grid-cols-2">{shown(MAPPING_FIELDS).map(input)}</div>
        </>
      ) : (
        <p className="text-sm text-slate-600">The form has no fields for {info?.label ?? type} sources: edit this entry in Code.</p>
      )}
      {locked.length > 0 ? (
        <p role="note" className="text-xs text-slate-600">
          Written in a way this form cannot show, so kept as it is; edit in Code: {locked.map((field) => field.label).join(', ')}.
        </p>
      ) : null}
      {Object.keys(rest).some((key) => !locked.some((field) => field.name === key)) ? (
        <p className="text-xs text-slate-500">
          Also set in Code: {Object.keys(rest).filter((key) => !locked.some((field) => field.name === key)).join(', ')}.
        </p>
      ) : null}
    </fieldset>
  );
}
