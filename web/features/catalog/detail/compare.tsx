import { formatDate } from '@common/format/date';
import { useId } from 'react';
import { DiffView } from '@web/features/catalog-activity/changes/diff-view';
import { useDisplayPreferences } from '@web/lib/preferences';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { useChangeDiff } from '../api/tabs';
import type { ChangeOption } from '../api/schema';

/** How a change reads in the picker: when, what kind, which paths. */
export function changeLabel(change: ChangeOption, dateText: string): string {
  return [dateText, change.change_type, change.summary].filter(Boolean).join(' · ');
}

export interface ComparePickerProps {
  changes: readonly ChangeOption[];
  value: string | undefined;
  onChange: (changeId: string | undefined) => void;
  disabled?: boolean;
}

/** 'Compare with': the current config, or one of the item's earlier changes (newest first). */
export function ComparePicker({ changes, value, onChange, disabled }: ComparePickerProps) {
  const id = useId();
  const { dateFormat, timeZone } = useDisplayPreferences();
  // A change from a shared link that is not among the listed ones stays selected.
  const known = value === undefined || changes.some((change) => change.id === value);
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        Compare with
      </label>
      <select
        id={id}
        value={value ?? ''}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value || undefined)}
        className="h-8 max-w-96 rounded-md border border-slate-300 bg-white px-2 text-sm disabled:opacity-50"
      >
        <option value="">{changes.length === 0 ? 'No earlier changes' : 'Current config (no comparison)'}</option>
        {changes.map((change) => (
          <option key={change.id} value={change.id}>
            {changeLabel(change, formatDate(change.created_at, dateFormat, timeZone))}
          </option>
        ))}
        {known ? null : <option value={value}>Change {value}</option>}
      </select>
    </div>
  );
}

/** The chosen change's stored diff (the config before it against the config it made). */
export function ChangeDiffPanel({ changeId }: { changeId: string }) {
  const change = useChangeDiff(changeId);
  const { dateFormat, timeZone } = useDisplayPreferences();
  if (change.isLoading) return <Loading />;
  if (change.error) {
    return (
      <p role="alert" className="text-sm text-red-600">
        {change.error.message}
      </p>
    );
  }
  if (!change.data) return <EmptyState title="No details found" description="This change is no longer kept." />;
  const { diff } = change.data;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-slate-600">
        What changed at <span className="font-medium text-slate-900">{formatDate(change.data.created_at, dateFormat, timeZone)}</span> ({change.data.change_type}
        {change.data.summary ? `: ${change.data.summary}` : ''}): removed lines are red, added lines green.
      </p>
      {diff ? <DiffView diff={diff} label="Change diff" /> : <EmptyState title="No details found" description="This change has no diff (it was reported, not computed)." />}
    </div>
  );
}
