import type { GaugeReading } from '../model/format';

/** A horizontal gauge: the value's share of min..max as a bar in its threshold colour, with the value as text. */
export function GaugeBar({ reading, label }: { reading: GaugeReading; label: string }) {
  return (
    <span className="inline-flex min-w-32 items-center gap-2" title={`${label} (${reading.min} – ${reading.max})`}>
      <span
        role="meter"
        aria-valuemin={reading.min}
        aria-valuemax={reading.max}
        aria-valuenow={reading.value}
        aria-label={label}
        className="relative h-2 flex-1 overflow-hidden rounded-full bg-slate-200"
      >
        <span className="absolute inset-y-0 left-0 rounded-full" style={{ width: `${reading.percent}%`, backgroundColor: reading.color }} />
      </span>
      <span className="shrink-0 text-xs tabular-nums text-slate-700">{label}</span>
    </span>
  );
}
