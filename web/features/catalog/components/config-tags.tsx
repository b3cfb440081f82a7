import { useState } from 'react';
import { sortLabelKeys } from '@web/features/health/detail/check-header';
import { Badge } from '@web/ui/primitives/badge';
import { cn } from '@web/ui/primitives/cn';

/** Key-value pairs in spec §3 Tag display order: account, namespace, name first, then alphabetically. */
export function orderedPairs(map: Readonly<Record<string, string>>): [string, string][] {
  return sortLabelKeys(Object.keys(map)).map((key) => [key, map[key] ?? '']);
}

export interface KeyValueListProps {
  /** The list's accessible name, e.g. 'Tags'. */
  label: string;
  values: Readonly<Record<string, string>>;
  /** Pairs shown before '+N more'; all when not given. */
  limit?: number;
  tone?: 'neutral' | 'info';
  className?: string;
}

/** Tags or labels as badges, ordered per spec §3; a long list folds behind '+N more'. */
export function KeyValueList({ label, values, limit, tone = 'neutral', className }: KeyValueListProps) {
  const [expanded, setExpanded] = useState(false);
  const pairs = orderedPairs(values);
  if (pairs.length === 0) return null;
  const shown = expanded || limit === undefined ? pairs : pairs.slice(0, limit);
  const hidden = pairs.length - shown.length;
  return (
    <ul aria-label={label} className={cn('flex flex-wrap items-center gap-1', className)}>
      {shown.map(([key, value]) => (
        <li key={key}>
          <Badge tone={tone} className="max-w-64">
            <span className="truncate" title={`${key}: ${value}`}>
              <span className="text-slate-500">{key}:</span> {value}
            </span>
          </Badge>
        </li>
      ))}
      {hidden > 0 ? (
        <li>
          <button
            type="button"
            onClick={(event) => {
              event.stopPropagation();
              setExpanded(true);
            }}
            className="text-xs font-medium text-blue-700 hover:underline"
          >
            +{hidden} more
          </button>
        </li>
      ) : null}
    </ul>
  );
}
