import { Filter } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useDebouncedValue } from '@web/lib/use-debounced-value';
import { cn } from '@web/ui/primitives/cn';
import { Popover } from '@web/ui/primitives/popover';
import { useColumnValues } from '../api/view';
import type { ViewColumn } from '../api/schema';
import { filterKind } from '../model/table-state';

/** Spec §9: a multi-select shows a count summary at 4 or more values. */
export function selectionSummary(values: readonly string[]): string {
  if (values.length === 0) return 'All';
  if (values.length >= 4) return `${values.length} selected`;
  return values.join(', ');
}

const columnLabel = (column: ViewColumn) => column.label || column.name;

function TextFilter({ column, value, onChange }: { column: ViewColumn; value: string; onChange: (next: string[]) => void }) {
  const [text, setText] = useState(value);
  // Spec §9 search box debounce: 400 ms.
  const debounced = useDebouncedValue(text, 400);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (debounced !== value) onChange(debounced === '' ? [] : [debounced]);
    // Only a settled new text is written; `value` following the URL must not write back.
  }, [debounced]);
  return (
    <label className="flex flex-col gap-1 text-xs text-slate-600">
      {columnLabel(column)} contains
      <input
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        className="h-8 w-56 rounded-md border border-slate-300 px-2 text-sm text-slate-900"
      />
    </label>
  );
}

function MultiFilter({ column, values, onChange, table, fingerprint, open }: { column: ViewColumn; values: string[]; onChange: (next: string[]) => void; table: string; fingerprint: string; open: boolean }) {
  const options = useColumnValues(table, fingerprint, column.name, open);
  // The boxes answer at once; the URL (a router transition) catches up after.
  const [picked, setPicked] = useState(values);
  const valuesKey = values.join('\u0000');
  // Keyed by content: an empty selection is a new array each render.
  useEffect(() => setPicked(valuesKey === '' ? [] : valuesKey.split('\u0000')), [valuesKey]);
  const all = [...new Set([...(options.data ?? []), ...picked])];
  const toggle = (option: string, on: boolean) => {
    const next = on ? [...picked, option] : picked.filter((v) => v !== option);
    setPicked(next);
    onChange(next);
  };
  return (
    <fieldset className="flex max-h-72 w-60 flex-col gap-1.5 overflow-y-auto">
      <legend className="mb-1 text-xs font-medium text-slate-500">Show rows whose {columnLabel(column)} is</legend>
      {options.isPending ? <p className="text-xs text-slate-500">loading data...</p> : null}
      {options.error ? <p role="alert" className="text-xs text-red-600">{options.error.message}</p> : null}
      {options.data && all.length === 0 ? <p className="text-xs text-slate-500">No options found</p> : null}
      {all.map((option) => (
        <label key={option} className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={picked.includes(option)} onChange={(event) => toggle(option, event.target.checked)} className="size-4 rounded border-slate-300" />
          <span className="truncate">{option}</span>
        </label>
      ))}
      {picked.length > 0 ? (
        <button
          type="button"
          onClick={() => {
            setPicked([]);
            onChange([]);
          }} className="mt-1 self-start text-xs text-blue-700 hover:underline">
          Clear
        </button>
      ) : null}
    </fieldset>
  );
}

/** One column's filter in the table's filter bar: text 'contains', or a multiselect of its values (column `filter`). */
export function ColumnFilter({ column, values, onChange, table, fingerprint }: { column: ViewColumn; values: string[]; onChange: (next: string[]) => void; table: string; fingerprint: string }) {
  const kind = filterKind(column);
  const [open, setOpen] = useState(false);
  if (kind === 'none') return null;
  const active = values.length > 0;
  return (
    <span onFocus={() => setOpen(true)} onPointerEnter={() => setOpen(true)}>
      <Popover
        label={`Filter ${columnLabel(column)}`}
        align="start"
        className="p-3"
        trigger={
          <button
            type="button"
            aria-label={`Filter ${columnLabel(column)}: ${selectionSummary(values)}`}
            className={cn(
              'inline-flex h-8 items-center gap-1.5 rounded-md border bg-white px-2.5 text-sm shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-600',
              active ? 'border-blue-300 text-blue-800' : 'border-slate-300 text-slate-700',
            )}
          >
            <Filter className="size-3.5" aria-hidden="true" />
            <span className="text-slate-500">{columnLabel(column)}:</span>
            <span className="max-w-40 truncate">{kind === 'text' && active ? `"${values[0] ?? ''}"` : selectionSummary(values)}</span>
          </button>
        }
      >
        {kind === 'text' ? (
          <TextFilter column={column} value={values[0] ?? ''} onChange={onChange} />
        ) : (
          <MultiFilter column={column} values={values} onChange={onChange} table={table} fingerprint={fingerprint} open={open} />
        )}
      </Popover>
    </span>
  );
}
