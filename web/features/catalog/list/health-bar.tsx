import { CONFIG_HEALTHS, type ConfigHealth } from '../api/schema';
import { HEALTH_DOT_CLASSES, HEALTH_TEXT } from '../components/config-health';

/** The health counts of a group as words, e.g. '3 healthy, 1 unhealthy' (zeros left out). */
export function healthText(counts: Partial<Record<ConfigHealth, number>>): string {
  const parts = CONFIG_HEALTHS.filter((health) => (counts[health] ?? 0) > 0).map((health) => `${counts[health] ?? 0} ${HEALTH_TEXT[health].toLowerCase()}`);
  return parts.length > 0 ? parts.join(', ') : 'no items';
}

/** A group's items by health (spec §4 colours) as a stacked bar with the counts beside it. */
export function HealthBar({ counts }: { counts: Partial<Record<ConfigHealth, number>> }) {
  const total = CONFIG_HEALTHS.reduce((sum, health) => sum + (counts[health] ?? 0), 0);
  const text = healthText(counts);
  return (
    <span role="img" aria-label={text} title={text} className="flex min-w-40 items-center gap-2">
      <span className="flex h-2 w-24 shrink-0 overflow-hidden rounded-full bg-slate-100">
        {total > 0
          ? CONFIG_HEALTHS.map((health) => {
              const n = counts[health] ?? 0;
              return n > 0 ? <span key={health} data-health={health} className={HEALTH_DOT_CLASSES[health]} style={{ width: `${(n / total) * 100}%` }} /> : null;
            })
          : null}
      </span>
      <span className="flex gap-2 text-xs tabular-nums text-slate-600" aria-hidden="true">
        {CONFIG_HEALTHS.filter((health) => (counts[health] ?? 0) > 0).map((health) => (
          <span key={health} className="inline-flex items-center gap-1">
            <span className={`inline-block size-2 rounded-full ${HEALTH_DOT_CLASSES[health]}`} />
            {counts[health]}
          </span>
        ))}
      </span>
    </span>
  );
}
