import { formatLatency, formatRelative, formatUptime } from '@common/format';
import type { ReactNode } from 'react';
import { TimeRangePicker, type TimeRangeValue } from '@web/ui/time-range';
import type { CheckSummary } from '../api/schema';

function Stat({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex min-w-24 flex-col gap-0.5">
      <dt className="text-xs font-medium text-slate-500">{title}</dt>
      <dd className="text-sm font-semibold text-slate-900">{children}</dd>
    </div>
  );
}

const DASH = '–';

/** '5m ago', or 'in 5m' for a moment ahead; a dash without one. */
export function age(value: string | null, now: Date = new Date()): string {
  if (!value) return DASH;
  const text = formatRelative(value, now);
  if (!text) return DASH;
  return Date.parse(value) > now.getTime() ? `in ${text}` : `${text} ago`;
}

function capitalise(text: string): string {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : DASH;
}

/** Spec §2 stats: Uptime, Latency 95/97/99, Severity, Last Run, Transitioned, Next Run, Time Range. */
export function CheckStats({ check, timeRange, onTimeRangeChange }: { check: CheckSummary | null; timeRange: TimeRangeValue; onTimeRangeChange: (value: TimeRangeValue) => void }) {
  const uptime = check ? formatUptime(check.uptime.passed, check.uptime.failed) : '';
  return (
    <dl aria-label="Check statistics" className="flex flex-wrap items-end gap-x-6 gap-y-3">
      <Stat title="Uptime">
        {uptime || DASH}
        {check && uptime ? (
          <span className="ml-1.5 text-xs font-normal">
            <span className="text-green-700">{check.uptime.passed} passed</span> <span className="text-red-700">{check.uptime.failed} failed</span>
          </span>
        ) : null}
      </Stat>
      <Stat title="Latency (95%)">{formatLatency(check?.latency.p95) || DASH}</Stat>
      <Stat title="Latency (97%)">{formatLatency(check?.latency.p97) || DASH}</Stat>
      <Stat title="Latency (99%)">{formatLatency(check?.latency.p99) || DASH}</Stat>
      <Stat title="Severity">{capitalise(check?.severity ?? '')}</Stat>
      <Stat title="Last Run">
        <span title={check?.last_runtime ?? undefined}>{age(check?.last_runtime ?? null)}</span>
      </Stat>
      <Stat title="Transitioned">
        <span title={check?.last_transition_time ?? undefined}>{age(check?.last_transition_time ?? null)}</span>
      </Stat>
      <Stat title="Next Run">
        <span title={check?.next_runtime ?? undefined}>{age(check?.next_runtime ?? null)}</span>
      </Stat>
      <div className="flex flex-col gap-0.5">
        <dt className="text-xs font-medium text-slate-500">Time Range</dt>
        <dd>
          <TimeRangePicker value={timeRange} onChange={onTimeRangeChange} />
        </dd>
      </div>
    </dl>
  );
}
