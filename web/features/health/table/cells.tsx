import { formatLatency, formatRelative, formatUptime } from '@common/format';
import { cn } from '@web/ui/primitives/cn';
import type { CheckSummary } from '../api/schema';
import { showsLastRunAge, statusDotColour, type HealthTone } from '../state/checks';
import { RecentResults } from './recent-results';

const DOT_CLASSES = { red: 'bg-red-500', gray: 'bg-slate-400', orange: 'bg-orange-500', green: 'bg-green-500' } as const;

const TONE_TEXT: Record<HealthTone, string> = { healthy: 'Healthy', unhealthy: 'Unhealthy', mixed: 'Mixed', unknown: 'Unknown' };

/** Spec §4 indicator: green healthy, red unhealthy, orange mixed, gray unknown; named for screen readers. */
export function HealthDot({ tone, className }: { tone: HealthTone; className?: string }) {
  return (
    <span
      role="img"
      aria-label={TONE_TEXT[tone]}
      title={TONE_TEXT[tone]}
      data-tone={tone}
      className={cn('inline-block size-2.5 shrink-0 rounded-full', DOT_CLASSES[statusDotColour(tone)], className)}
    />
  );
}

/**
 * Health column: the dot, the strip of its newest results, and the age of the last run when it is 1 hour to
 * 7 days old (spec §4).
 */
export function HealthCell({ check, now = Date.now() }: { check: CheckSummary; now?: number }) {
  return (
    <span className="inline-flex items-center gap-2">
      <HealthDot tone={check.status ?? 'unknown'} />
      <RecentResults results={check.recent_statuses} />
      {showsLastRunAge(check.last_runtime, now) ? (
        <span className="text-xs text-slate-500" title="Time since the last run">
          {formatRelative(check.last_runtime, new Date(now))}
        </span>
      ) : null}
    </span>
  );
}

export function UptimeCell({ check }: { check: Pick<CheckSummary, 'uptime'> }) {
  const text = formatUptime(check.uptime.passed, check.uptime.failed);
  const failing = check.uptime.failed > 0;
  return <span className={cn('tabular-nums', failing && 'text-red-700')}>{text}</span>;
}

export function LatencyCell({ ms }: { ms: number | null }) {
  return <span className="tabular-nums">{formatLatency(ms)}</span>;
}
