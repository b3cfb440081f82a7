import { useState } from 'react';
import { Badge } from '@web/ui/primitives/badge';
import type { CheckSummary } from '../api/schema';
import { checkTone, displayName } from '../state/checks';
import { CheckIcon } from '@web/ui/check-icon';
import { HealthDot } from '../table/cells';

/** Labels shown before '+N more' (spec §2). */
export const VISIBLE_LABELS = 4;

/** Spec §9 Tag display order: account, namespace, name first, then alphabetically. */
const FIRST_KEYS = ['account', 'namespace', 'name'];
export function sortLabelKeys(keys: readonly string[]): string[] {
  const rank = (key: string) => {
    const index = FIRST_KEYS.indexOf(key);
    return index < 0 ? FIRST_KEYS.length : index;
  };
  return [...keys].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

export function CheckLabels({ labels }: { labels: Readonly<Record<string, string>> }) {
  const [expanded, setExpanded] = useState(false);
  const keys = sortLabelKeys(Object.keys(labels));
  if (keys.length === 0) return null;
  const shown = expanded ? keys : keys.slice(0, VISIBLE_LABELS);
  const hidden = keys.length - shown.length;
  return (
    <ul aria-label="Labels" className="flex flex-wrap items-center gap-1.5">
      {shown.map((key) => (
        <li key={key}>
          <Badge>
            {key}: {labels[key]}
          </Badge>
        </li>
      ))}
      {hidden > 0 ? (
        <li>
          <button type="button" onClick={() => setExpanded(true)} className="text-xs font-medium text-blue-700 hover:underline">
            +{hidden} more
          </button>
        </li>
      ) : null}
    </ul>
  );
}

const STATUS_TEXT = { healthy: 'Healthy', unhealthy: 'Unhealthy', mixed: 'Mixed', unknown: 'Not run yet' } as const;

/** Icon, display name (name → description → endpoint) and status. */
export function CheckTitle({ check }: { check: Pick<CheckSummary, 'name' | 'description' | 'endpoint' | 'icon' | 'type' | 'status'> }) {
  const tone = checkTone(check);
  return (
    <span className="flex min-w-0 items-center gap-2">
      <CheckIcon icon={check.icon} type={check.type} className="size-5 text-slate-500" />
      <span className="truncate">{displayName(check)}</span>
      <span className="inline-flex shrink-0 items-center gap-1.5 text-sm font-normal text-slate-600">
        <HealthDot tone={tone} />
        {STATUS_TEXT[tone]}
      </span>
    </span>
  );
}
