import { endOfDay, startOfDay } from 'date-fns';
import { CalendarDays } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { DayPicker, type DateRange } from 'react-day-picker';
import 'react-day-picker/style.css';
import { Button } from '../primitives/button';
import { absoluteRange, formatInputDate, INPUT_FORMAT, parseInputDate } from './absolute';
import type { AbsoluteTimeRange, ResolvedTimeRange } from './types';

export interface AbsoluteFormProps {
  initial?: ResolvedTimeRange | null;
  onApply: (value: AbsoluteTimeRange) => void;
}

/** From/To inputs with a calendar; Submit stays disabled until both are filled (spec §5). */
export function AbsoluteForm({ initial, onApply }: AbsoluteFormProps) {
  const [from, setFrom] = useState(initial ? formatInputDate(initial.from) : '');
  const [to, setTo] = useState(initial ? formatInputDate(initial.to) : '');
  const [calendar, setCalendar] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  const selected: DateRange | undefined = (() => {
    const start = parseInputDate(from);
    return start ? { from: start, to: parseInputDate(to) ?? undefined } : undefined;
  })();

  const pickDays = (range: DateRange | undefined) => {
    // Picking days means whole days: from the start of the first to the end of the last.
    setFrom(range?.from ? formatInputDate(startOfDay(range.from)) : '');
    setTo(range?.to ? formatInputDate(endOfDay(range.to)) : range?.from ? formatInputDate(endOfDay(range.from)) : '');
    setError(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const start = parseInputDate(from);
    const end = parseInputDate(to);
    if (!start || !end) return setError(`Dates must read ${INPUT_FORMAT.replace('yyyy', 'YYYY').replace('dd', 'DD')}`);
    if (start > end) return setError('From must be before To');
    setError(null);
    onApply(absoluteRange(start, end));
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-2" aria-label="Absolute time range">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Absolute time range</h3>
      {(['From', 'To'] as const).map((label) => (
        <div key={label} className="flex flex-col gap-1">
          <label htmlFor={`${id}-${label}`} className="text-xs text-slate-600">
            {label}
          </label>
          <input
            id={`${id}-${label}`}
            value={label === 'From' ? from : to}
            placeholder="YYYY-MM-DD HH:mm:ss"
            onChange={(event) => (label === 'From' ? setFrom : setTo)(event.target.value)}
            className="h-8 rounded-md border border-slate-300 px-2 font-mono text-xs"
          />
        </div>
      ))}
      <Button size="sm" variant="ghost" onClick={() => setCalendar((open) => !open)} aria-expanded={calendar} className="self-start">
        <CalendarDays className="size-4" aria-hidden="true" />
        {calendar ? 'Hide calendar' : 'Show calendar'}
      </Button>
      {calendar ? <DayPicker mode="range" selected={selected} onSelect={pickDays} numberOfMonths={1} className="text-xs" /> : null}
      {error ? (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
      <Button type="submit" size="sm" variant="primary" disabled={!from.trim() || !to.trim()}>
        Apply time range
      </Button>
    </form>
  );
}
