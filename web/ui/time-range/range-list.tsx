import { cn } from '../primitives/cn';

interface RangeListProps<T extends { type: string; display: string }> {
  title: string;
  ranges: readonly T[];
  current: T;
  onPick: (value: T) => void;
}

/** A titled column of ranges; the current one is marked pressed. */
export function RangeList<T extends { type: string; display: string }>({ title, ranges, current, onPick }: RangeListProps<T>) {
  return (
    <section className="flex min-w-40 flex-col gap-0.5" aria-label={title}>
      <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      {ranges.map((range) => {
        const active = range.display === current.display && range.type === current.type;
        return (
          <button
            key={`${range.type}-${range.display}`}
            type="button"
            aria-pressed={active}
            onClick={() => onPick(range)}
            className={cn('rounded px-2 py-1 text-left text-sm hover:bg-slate-100', active && 'bg-blue-50 font-medium text-blue-700')}
          >
            {range.display}
          </button>
        );
      })}
    </section>
  );
}
