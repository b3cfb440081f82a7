import { ChevronDown } from 'lucide-react';
import { Popover } from '@web/ui/primitives/popover';
import { SEND_STATUSES, sendStatusLabel } from '../model/format';

/** Spec §9: a multi-select shows a count summary at 4 or more values. */
export function selectionSummary(values: readonly string[], label: (value: string) => string): string {
  if (values.length === 0) return 'All';
  if (values.length >= 4) return `${values.length} selected`;
  return values.map(label).join(', ');
}

/** The send-status filter: every status as a checkbox in a popover. */
export function StatusFilter({ value, onChange }: { value: readonly string[]; onChange: (next: string[]) => void }) {
  const toggle = (status: string, on: boolean) => onChange(SEND_STATUSES.filter((s) => (s === status ? on : value.includes(s))));
  return (
    <Popover
      label="Status filter"
      align="start"
      className="w-64 p-3"
      trigger={
        <button type="button" className="inline-flex h-8 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-700 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-600">
          <span className="text-slate-500">Status:</span>
          <span className="max-w-48 truncate">{selectionSummary(value, sendStatusLabel)}</span>
          <ChevronDown className="size-3.5" aria-hidden="true" />
        </button>
      }
    >
      <fieldset className="flex flex-col gap-1.5">
        <legend className="mb-1 text-xs font-medium text-slate-500">Show sends that are</legend>
        {SEND_STATUSES.map((status) => (
          <label key={status} className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={value.includes(status)} onChange={(event) => toggle(status, event.target.checked)} className="size-4 rounded border-slate-300" />
            {sendStatusLabel(status)}
          </label>
        ))}
        {value.length > 0 ? (
          <button type="button" onClick={() => onChange([])} className="mt-1 self-start text-xs text-blue-700 hover:underline">
            Clear
          </button>
        ) : null}
      </fieldset>
    </Popover>
  );
}
