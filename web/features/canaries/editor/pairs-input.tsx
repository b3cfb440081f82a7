import { Plus, Trash2 } from 'lucide-react';
import { Button } from '@web/ui/primitives/button';
import { IconButton } from '@web/ui/primitives/icon-button';

export interface Pair {
  name: string;
  value: string;
}

export interface PairsInputProps {
  /** The list's name, e.g. 'Labels'; each input is named after it ('Label 1 key'). */
  label: string;
  /** One item's name, e.g. 'Label'. */
  item: string;
  keyLabel: string;
  value: readonly Pair[];
  onChange: (value: Pair[]) => void;
  onBlur?: () => void;
  disabled?: boolean;
  /** The message of a row's key, e.g. 'This field is required' for a value without a key. */
  errorOf?: (index: number) => string | undefined;
}

const inputClass =
  'w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm shadow-sm disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid=true]:border-red-500';

/** A key-value list (labels, headers, environment): rows of two inputs, added and removed one by one. */
export function PairsInput({ label, item, keyLabel, value, onChange, onBlur, disabled = false, errorOf }: PairsInputProps) {
  const update = (index: number, patch: Partial<Pair>) => onChange(value.map((pair, at) => (at === index ? { ...pair, ...patch } : pair)));
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-700">{label}</legend>
      {value.length === 0 ? <p className="text-xs text-slate-500">None</p> : null}
      {value.map((pair, index) => {
        const error = errorOf?.(index);
        const errorId = error ? `${label}-${index}-error`.replace(/\s+/g, '-') : undefined;
        return (
          <div key={index} className="flex flex-col gap-1">
            <div className="flex items-center gap-2">
              <input
                aria-label={`${item} ${index + 1} ${keyLabel.toLowerCase()}`}
                className={inputClass}
                value={pair.name}
                disabled={disabled}
                placeholder={keyLabel}
                aria-invalid={error ? true : undefined}
                aria-describedby={errorId}
                onChange={(event) => update(index, { name: event.target.value })}
                onBlur={onBlur}
              />
              <input
                aria-label={`${item} ${index + 1} value`}
                className={inputClass}
                value={pair.value}
                disabled={disabled}
                placeholder="Value"
                onChange={(event) => update(index, { value: event.target.value })}
                onBlur={onBlur}
              />
              {disabled ? null : (
                <IconButton label={`Remove ${item.toLowerCase()} ${index + 1}`} icon={<Trash2 className="size-4" aria-hidden="true" />} onClick={() => onChange(value.filter((_, at) => at !== index))} />
              )}
            </div>
            {error ? (
              <p id={errorId} role="alert" className="text-xs text-red-600">
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
      {disabled ? null : (
        <div>
          <Button size="sm" variant="ghost" onClick={() => onChange([...value, { name: '', value: '' }])}>
            <Plus className="size-4" aria-hidden="true" />
            Add {item.toLowerCase()}
          </Button>
        </div>
      )}
    </fieldset>
  );
}
