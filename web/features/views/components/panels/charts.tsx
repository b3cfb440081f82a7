import type { GaugeOptions } from '../../api/schema';
import { formatNumber, gaugeReading, withUnit } from '../../model/format';
import { arcPath, type Bar, type HeatCell, type Series, type Slice } from '../../model/panels';
import { GaugeBar } from '../gauge-bar';

/** Plain SVG/CSS drawings of the panels (no chart library): each takes shaped data from model/panels. */

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

/** Lines (or areas, `style: area`) over time, one per series, with the time span under them. */
export function TimeSeriesChart({ series, area }: { series: Series[]; area: boolean }) {
  const points = series.flatMap((s) => s.points);
  if (points.length === 0) return null;
  const t0 = Math.min(...points.map((p) => p.t));
  const t1 = Math.max(...points.map((p) => p.t));
  const v0 = Math.min(0, ...points.map((p) => p.v));
  const v1 = Math.max(...points.map((p) => p.v));
  const W = 300;
  const H = 100;
  const x = (t: number) => (t1 === t0 ? W / 2 : ((t - t0) / (t1 - t0)) * W);
  const y = (v: number) => (v1 === v0 ? H / 2 : H - ((v - v0) / (v1 - v0)) * H);
  return (
    <div className="flex flex-col gap-1">
      <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" className="h-28 w-full" role="img" aria-label={`${series.length} series, max ${formatNumber(v1)}`}>
        {series.map((s) => {
          const line = s.points.map((p, i) => `${i === 0 ? 'M' : 'L'} ${x(p.t).toFixed(1)} ${y(p.v).toFixed(1)}`).join(' ');
          const first = s.points[0];
          const last = s.points[s.points.length - 1];
          return (
            <g key={s.name}>
              {area && first && last ? <path d={`${line} L ${x(last.t).toFixed(1)} ${H} L ${x(first.t).toFixed(1)} ${H} Z`} fill={s.color} fillOpacity="0.15" /> : null}
              <path d={line} fill="none" stroke={s.color} strokeWidth="1.5" vectorEffect="non-scaling-stroke">
                <title>{s.name}</title>
              </path>
            </g>
          );
        })}
      </svg>
      <div className="flex justify-between text-[11px] text-slate-500">
        <span>{new Date(t0).toLocaleString()}</span>
        <span>max {formatNumber(v1)}</span>
        <span>{new Date(t1).toLocaleString()}</span>
      </div>
      {series.length > 1 ? (
        <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600">
          {series.map((s) => (
            <li key={s.name} className="flex items-center gap-1">
              <span className="inline-block h-0.5 w-3" style={{ backgroundColor: s.color }} aria-hidden="true" />
              {s.name}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
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
