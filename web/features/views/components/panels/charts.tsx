import { useMemo } from 'react';
import { TimeChart } from '@web/ui/charts/time-chart';
import type { GaugeOptions, ViewPanel } from '../../api/schema';
import { formatNumber, gaugeReading, withUnit } from '../../model/format';
import { arcPath, timeSeriesChart, type Bar, type HeatCell, type Slice } from '../../model/panels';
import { GaugeBar } from '../gauge-bar';

/**
 * The panels' drawings, each from shaped data of model/panels: time series with the console's time chart
 * (uPlot), the pie, gauges, bars and the calendar as SVG and CSS.
 */

/** `showLabels` puts each slice's share on the legend besides its count. */
export function PieChart({ slices, showLabels }: { slices: Slice[]; showLabels: boolean }) {
  const total = slices.reduce((sum, s) => sum + s.value, 0);
  let start = 0;
  const r = 48;
  return (
    <div className="flex items-center gap-4">
      <svg viewBox={`0 0 ${r * 2} ${r * 2}`} className="size-28 shrink-0" role="img" aria-label={slices.map((s) => `${s.label}: ${s.value}`).join(', ')}>
        {slices.map((slice) => {
          const fraction = total > 0 ? slice.value / total : 0;
          const path = arcPath(r, start, start + fraction);
          start += fraction;
          return (
            <path key={slice.label} d={path} fill={slice.color} stroke="#fff" strokeWidth="1">
              <title>{`${slice.label}: ${slice.value}`}</title>
            </path>
          );
        })}
      </svg>
      <ul className="flex min-w-0 flex-col gap-1 text-xs text-slate-700">
        {slices.map((slice) => (
          <li key={slice.label} className="flex items-center gap-1.5">
            <span className="inline-block size-2.5 shrink-0 rounded-sm" style={{ backgroundColor: slice.color }} aria-hidden="true" />
            <span className="truncate">{slice.label}</span>
            <span className="tabular-nums text-slate-500">
              {slice.value}
              {showLabels && total > 0 ? ` (${Math.round((slice.value / total) * 100)}%)` : ''}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A half-circle gauge with the value in the middle. */
export function RadialGauge({ value, options, unit }: { value: number; options: GaugeOptions; unit: string | null | undefined }) {
  const reading = gaugeReading(value, options);
  const r = 40;
  const length = Math.PI * r;
  const text = withUnit(formatNumber(value, options.precision), unit);
  return (
    <div className="flex flex-col items-center">
      <svg viewBox="0 0 100 56" className="h-24 w-40" role="meter" aria-valuemin={reading.min} aria-valuemax={reading.max} aria-valuenow={value} aria-label={text}>
        <path d="M 10 50 A 40 40 0 0 1 90 50" fill="none" stroke="#e2e8f0" strokeWidth="9" strokeLinecap="round" />
        <path
          d="M 10 50 A 40 40 0 0 1 90 50"
          fill="none"
          stroke={reading.color}
          strokeWidth="9"
          strokeLinecap="round"
          strokeDasharray={`${(reading.percent / 100) * length} ${length}`}
        />
        <text x="50" y="48" textAnchor="middle" className="fill-slate-900 text-[13px] font-semibold">
          {text}
        </text>
      </svg>
      <span className="text-xs text-slate-500">
        {reading.min} – {reading.max}
      </span>
    </div>
  );
}

export function BarGauges({ bars, options }: { bars: Bar[]; options: GaugeOptions }) {
  return (
    <ul className="flex flex-col gap-2">
      {bars.map((bar) => (
        <li key={bar.label} className="flex flex-col gap-0.5">
          <span className="text-xs text-slate-600">{bar.label}</span>
          <GaugeBar reading={gaugeReading(bar.value, options)} label={withUnit(formatNumber(bar.value, options.precision), options.unit)} />
        </li>
      ))}
    </ul>
  );
}

/**
 * A timeseries panel: the console's time chart (uPlot, web/ui/charts) with the panel's series, style and
 * legend; a drag zooms into the chart, a double click zooms back out.
 */
export function TimeSeriesChart({ panel }: { panel: ViewPanel }) {
  const chart = useMemo(() => timeSeriesChart(panel), [panel]);
  return chart ? <TimeChart {...chart} height={180} /> : null;
}

const HEAT = ['bg-slate-100', 'bg-green-200', 'bg-green-400', 'bg-green-600', 'bg-green-800'];

/** Days as squares: by week columns (calendar) or one wrapped row (compact); darker is more. */
export function Heatmap({ cells, mode }: { cells: HeatCell[]; mode: string }) {
  const square = (cell: HeatCell) => <span key={cell.date} title={`${cell.date}: ${cell.count}`} aria-label={`${cell.date}: ${cell.count}`} role="img" className={`inline-block size-3 rounded-sm ${HEAT[cell.level] ?? HEAT[0]}`} />;
  if (mode === 'compact') return <div className="flex flex-wrap gap-0.5">{cells.map(square)}</div>;
  const first = cells[0];
  const offset = first ? new Date(`${first.date}T00:00:00Z`).getUTCDay() : 0;
  return (
    <div className="grid grid-flow-col grid-rows-7 gap-0.5 overflow-x-auto">
      {Array.from({ length: offset }, (_, i) => (
        <span key={`pad-${i}`} className="size-3" aria-hidden="true" />
      ))}
      {cells.map(square)}
    </div>
  );
}
