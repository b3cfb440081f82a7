import { cn } from '@web/ui/primitives/cn';

export interface SummaryChipsProps {
  /** Changes by change type over every page (the answer's summary). */
  summary: Readonly<Record<string, number>>;
  /** The change type filter as the URL holds it. */
  selected: string | undefined;
  /** Filter by one change type, or clear the filter (undefined). */
  onSelect: (changeType: string | undefined) => void;
}

/** Counts by change type; a chip filters the feed to its type, and clicking the chosen one clears it. */
export function SummaryChips({ summary, selected, onSelect }: SummaryChipsProps) {
  const entries = Object.entries(summary);
  if (entries.length === 0) return null;
  return (
    <ul aria-label="Changes by type" className="flex flex-wrap gap-1.5">
      {entries.map(([type, count]) => {
        const active = selected === type;
        return (
          <li key={type}>
            <button
              type="button"
              aria-pressed={active}
              title={active ? `Show every change type` : `Show only ${type}`}
              onClick={() => onSelect(active ? undefined : type)}
              className={cn(
                'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset transition-colors focus-visible:outline-2 focus-visible:outline-blue-600',
                active ? 'bg-blue-600 text-white ring-blue-600' : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50',
              )}
            >
              <span>{type}</span>
              <span className={cn('tabular-nums', active ? 'text-blue-100' : 'text-slate-500')}>{count}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
