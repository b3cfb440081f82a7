import { FilterSelect } from '@web/ui/filter-select';
import type { ViewVariable } from '../api/schema';
import { isWaiting, shownValue, type Selection } from '../model/variables';

/**
 * One select per templating variable with the values the server resolved for the current selection.
 * A variable that depends on others waits (disabled) until they have values.
 */
export function VariablePickers({ variables, selection, onChange }: { variables: ViewVariable[]; selection: Selection; onChange: (key: string, value: string) => void }) {
  if (variables.length === 0) return null;
  return (
    <div role="group" aria-label="Variables" className="flex flex-wrap items-center gap-3">
      {variables.map((variable) => {
        const value = shownValue(variable, selection);
        const waiting = isWaiting(variable, variables, selection);
        const listed = variable.options && variable.options.length > 0 ? variable.options : variable.values.map((v) => ({ value: v, label: v }));
        const values = value !== '' && !listed.some((o) => o.value === value) ? [{ value, label: value }, ...listed] : listed;
        const options = [
          ...(value === '' ? [{ value: '', label: waiting ? 'Waiting for ' + (variable.dependsOn ?? []).join(', ') : variable.values.length === 0 ? 'No values' : 'Select…' }] : []),
          ...values,
        ];
        return (
          <FilterSelect
            key={variable.key}
            label={variable.label || variable.key}
            value={value}
            options={options}
            onChange={(next) => onChange(variable.key, next)}
            className={waiting ? 'opacity-60' : undefined}
          />
        );
      })}
    </div>
  );
}
