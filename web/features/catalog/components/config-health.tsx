import { cn } from '@web/ui/primitives/cn';
import type { ConfigHealth as Health } from '../api/schema';

/** Spec §4 config health colours: green healthy, red unhealthy, yellow warning, gray otherwise. */
export const HEALTH_DOT_CLASSES: Readonly<Record<Health, string>> = {
  healthy: 'bg-green-500',
  unhealthy: 'bg-red-500',
  warning: 'bg-yellow-400',
  unknown: 'bg-slate-400',
};

export const HEALTH_TEXT: Readonly<Record<Health, string>> = { healthy: 'Healthy', unhealthy: 'Unhealthy', warning: 'Warning', unknown: 'Unknown' };

/** A health value from the database (null when the scraper did not say) as one of the four. */
export function healthOf(value: Health | null | undefined): Health {
  return value ?? 'unknown';
}

/** The coloured dot of a config's health, named for screen readers. */
export function ConfigHealthDot({ health, className }: { health: Health | null | undefined; className?: string }) {
  const tone = healthOf(health);
  return (
    <span
      role="img"
      aria-label={HEALTH_TEXT[tone]}
      title={HEALTH_TEXT[tone]}
      data-health={tone}
      className={cn('inline-block size-2.5 shrink-0 rounded-full', HEALTH_DOT_CLASSES[tone], className)}
    />
  );
}

/** Health as a dot and its word; with `status`, the item's own status text follows (e.g. 'Running'). */
export function ConfigHealthBadge({ health, status, className }: { health: Health | null | undefined; status?: string | null; className?: string }) {
  const tone = healthOf(health);
  return (
    <span className={cn('inline-flex items-center gap-1.5 text-sm text-slate-700', className)}>
      <ConfigHealthDot health={tone} />
      <span>{HEALTH_TEXT[tone]}</span>
      {status ? <span className="text-slate-500">· {status}</span> : null}
    </span>
  );
}
