import { useId, useState } from 'react';
import { CUSTOM_DURATION, DURATION_CHOICES, parseDuration, type DurationChoice } from './duration-filter';

function isChoice(value: string): value is DurationChoice {
  return DURATION_CHOICES.some((choice) => choice === value);
}

/**
 * The History tab's duration filter (spec §5): a choice of minimum durations, or a custom value applied
 * on Enter or when leaving the field. An invalid custom value shows the spec's error and changes nothing.
 */
export function DurationFilterField({ onChange }: { onChange: (minDuration: number) => void }) {
  const id = useId();
  const [choice, setChoice] = useState<DurationChoice>('All');
  const [custom, setCustom] = useState('');
  const [error, setError] = useState<string>();
  const applyCustom = () => {
    const parsed = parseDuration(custom);
    if ('error' in parsed) setError(parsed.error);
    else {
      setError(undefined);
      onChange(parsed.ms);
    }
  };
  return (
    <div className="flex flex-wrap items-start gap-2">
      <label htmlFor={`${id}-choice`} className="mt-2 text-xs font-medium text-slate-600">
        Duration
      </label>
      <select
        id={`${id}-choice`}
        value={choice}
        onChange={(event) => {
          const next = event.target.value;
          if (!isChoice(next)) return;
          setChoice(next);
          setError(undefined);
          if (next !== CUSTOM_DURATION) {
            const parsed = parseDuration(next);
            onChange('ms' in parsed ? parsed.ms : 0);
          }
        }}
        className="h-8 rounded-md border border-slate-300 bg-white px-2 text-sm"
      >
        {DURATION_CHOICES.map((value) => (
          <option key={value} value={value}>
            {value === 'All' ? 'All' : value === CUSTOM_DURATION ? 'Custom…' : `≥ ${value}`}
          </option>
        ))}
      </select>
      {choice === CUSTOM_DURATION ? (
        <div className="flex flex-col gap-1">
          <input
            aria-label="Custom duration"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            placeholder="e.g. 250ms or 2s"
            value={custom}
            onChange={(event) => setCustom(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') applyCustom();
            }}
            onBlur={() => (custom.trim() ? applyCustom() : undefined)}
            className="h-8 w-36 rounded-md border border-slate-300 px-2 text-sm aria-[invalid=true]:border-red-500"
          />
          {error ? (
            <p id={`${id}-error`} role="alert" className="text-xs text-red-600">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
