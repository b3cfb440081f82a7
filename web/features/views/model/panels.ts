import type { ChartSeries, TimeChartProps } from '@web/ui/charts/time-chart';
import { gaugeSchema, type GaugeOptions, type ViewPanel, type ViewRow } from '../api/schema';
import { formatNumber, toNumber } from './format';

/** Turning a panel's SQL rows into what each drawing needs (pure; the components only draw). */

export const PALETTE = ['#3b82f6', '#10b981', '#f59e0b', '#ef4444', '#8b5cf6', '#06b6d4', '#ec4899', '#84cc16', '#64748b', '#f97316'];

/** Words that name a known colour in piecharts when the file gives none (health and status values). */
const NAMED: Record<string, string> = { healthy: '#22c55e', unhealthy: '#ef4444', warning: '#eab308', unknown: '#94a3b8' };

/** A panel's own options block (`piechart:`, `gauge:` …) as an object, or an empty one. */
export function panelOptions(panel: ViewPanel, key: string): Record<string, unknown> {
  const value: unknown = Reflect.get(panel, key);
  return value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value)) : {};
}

export function gaugeOptionsOf(panel: ViewPanel, key: 'gauge' | 'bargauge'): GaugeOptions {
  const parsed = gaugeSchema.safeParse(panelOptions(panel, key));
  return parsed.success ? parsed.data : {};
}

/** The first numeric field of a row: `value` or `count` when present, else the first that parses as a number. */
export function rowValue(row: ViewRow | undefined, preferred: readonly string[] = ['value', 'count', 'total']): number | null {
  if (!row) return null;
  for (const key of preferred) {
    const n = toNumber(row[key]);
    if (n !== null) return n;
  }
  for (const value of Object.values(row)) {
    const n = toNumber(value);
    if (n !== null) return n;
  }
  return null;
}

/** The first text field of a row that is not the value (a slice's or bar's name). */
export function rowLabel(row: ViewRow, valueKeys: readonly string[] = ['value', 'count', 'total']): string {
  for (const key of ['name', 'label']) {
    const v = row[key];
    if (v !== null && v !== undefined && typeof v !== 'object') return String(v);
  }
  for (const [key, v] of Object.entries(row)) {
    if (valueKeys.includes(key)) continue;
    if (typeof v === 'string' || typeof v === 'boolean') return String(v);
  }
  for (const [key, v] of Object.entries(row)) if (!valueKeys.includes(key) && v !== null && v !== undefined) return String(v);
  return '';
}

export interface Slice {
  label: string;
  value: number;
  color: string;
}

/** Piechart slices: one per row (label, numeric count), zero and negative counts left out; colours from `piechart.colors`. */
export function pieSlices(panel: ViewPanel): Slice[] {
  const colors = panelOptions(panel, 'piechart').colors;
  const slices: Slice[] = [];
  for (const row of panel.rows) {
    const value = rowValue(row);
    if (value === null || value <= 0) continue;
    const label = rowLabel(row) || '(none)';
    const own = colors && typeof colors === 'object' && Object.hasOwn(colors, label) ? Reflect.get(colors, label) : undefined;
    const color = typeof own === 'string' ? own : (NAMED[label.toLowerCase()] ?? PALETTE[slices.length % PALETTE.length] ?? '#64748b');
    slices.push({ label, value, color });
  }
  return slices;
}

/** The SVG path of one slice of a pie of radius r centred at (r, r). */
export function arcPath(r: number, start: number, end: number): string {
  if (end - start >= 1) return `M ${r} 0 A ${r} ${r} 0 1 1 ${r - 0.001} 0 Z`;
  const point = (fraction: number) => {
    const angle = fraction * 2 * Math.PI - Math.PI / 2;
    return `${(r + r * Math.cos(angle)).toFixed(3)} ${(r + r * Math.sin(angle)).toFixed(3)}`;
  };
  const large = end - start > 0.5 ? 1 : 0;
  return `M ${r} ${r} L ${point(start)} A ${r} ${r} 0 ${large} 1 ${point(end)} Z`;
}

export interface Bar {
  label: string;
  value: number;
}

export function bars(panel: ViewPanel): Bar[] {
  return panel.rows.flatMap((row) => {
    const value = rowValue(row);
    return value === null ? [] : [{ label: rowLabel(row), value }];
  });
}

/** Properties panel: rows of { label, value } (or their first two fields). */
export function properties(panel: ViewPanel): Array<{ label: string; value: string }> {
  return panel.rows.map((row) => {
    const entries = Object.entries(row);
    const label = row.label ?? row.name ?? entries[0]?.[1];
    const value = 'value' in row ? row.value : entries[1]?.[1];
    return { label: label === null || label === undefined ? '' : String(label), value: value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value) };
  });
}

/** Text panel: each row's `value` (or its first field) as a paragraph. */
export function textLines(panel: ViewPanel): string[] {
  return panel.rows.map((row) => {
    const value = 'value' in row ? row.value : Object.values(row)[0];
    return value === null || value === undefined ? '' : String(value);
  });
}

export interface Series {
  name: string;
  color: string;
  points: Array<{ t: number; v: number }>;
}

/**
 * Timeseries: points (timeKey, default 'timestamp'; valueKey, default 'value'), one series per value of
 * the remaining text field (e.g. `instance`), each sorted by time.
 */
export function timeSeries(panel: ViewPanel): Series[] {
  const options = panelOptions(panel, 'timeseries');
  const timeKey = typeof options.timeKey === 'string' ? options.timeKey : 'timestamp';
  const valueKey = typeof options.valueKey === 'string' ? options.valueKey : 'value';
  const byName = new Map<string, Series>();
  for (const row of panel.rows) {
    const rawTime = row[timeKey];
    const t = typeof rawTime === 'number' ? rawTime : typeof rawTime === 'string' ? Date.parse(rawTime) : Number.NaN;
    const v = toNumber(row[valueKey]);
    if (!Number.isFinite(t) || v === null) continue;
    const name = Object.entries(row)
      .filter(([key, value]) => key !== timeKey && key !== valueKey && typeof value === 'string')
      .map(([, value]) => String(value))
      .join(' ') || valueKey;
    let series = byName.get(name);
    if (!series) {
      series = { name, color: PALETTE[byName.size % PALETTE.length] ?? '#3b82f6', points: [] };
      byName.set(name, series);
    }
    series.points.push({ t, v });
  }
  for (const series of byName.values()) series.points.sort((a, b) => a.t - b.t);
  return [...byName.values()];
}

/**
 * A timeseries panel as the time chart draws it: the series' points on the union of their times (a series
 * without a point at a time has null there and is drawn across it), read on one axis titled after the value
 * field, in the panel's style; the legend as `legend` says (shown by default, horizontal).
 */
export function timeSeriesChart(panel: ViewPanel): Pick<TimeChartProps, 'label' | 'times' | 'series' | 'legend'> | null {
  const series = timeSeries(panel);
  if (series.length === 0) return null;
  const options = panelOptions(panel, 'timeseries');
  const valueKey = typeof options.valueKey === 'string' ? options.valueKey : 'value';
  const style = options.style === 'area' || options.style === 'points' ? options.style : 'lines';
  const legend = options.legend && typeof options.legend === 'object' ? Object.fromEntries(Object.entries(options.legend)) : {};
  const times = [...new Set(series.flatMap((one) => one.points.map((point) => point.t)))].sort((a, b) => a - b);
  const index = new Map(times.map((time, i) => [time, i]));
  const unit = { key: valueKey, label: valueKey, format: (value: number) => formatNumber(value) };
  const chartSeries: ChartSeries[] = series.map((one) => {
    const values: Array<number | null> = times.map(() => null);
    for (const point of one.points) values[index.get(point.t) ?? 0] = point.v;
    return { label: one.name, values, color: one.color, unit, style, joinGaps: true };
  });
  const max = Math.max(...series.flatMap((one) => one.points.map((point) => point.v)));
  return {
    label: `${panel.name}: ${series.length} series of ${valueKey} over time, up to ${formatNumber(max)}`,
    times,
    series: chartSeries,
    legend: legend.enable === false ? 'none' : legend.layout === 'vertical' ? 'vertical' : 'horizontal',
  };
}

export interface HeatCell {
  date: string;
  count: number;
  /** 0..4, the colour step. */
  level: number;
}

/** Heatmap: one cell per day (rows of date + count), levels in quarters of the largest count. */
export function heatCells(panel: ViewPanel): HeatCell[] {
  const cells = panel.rows.flatMap((row) => {
    const raw = row.date ?? row.day ?? row.time ?? Object.values(row).find((v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)));
    const date = typeof raw === 'string' ? raw.slice(0, 10) : '';
    const count = rowValue(row) ?? 0;
    return date ? [{ date, count }] : [];
  });
  const max = Math.max(0, ...cells.map((c) => c.count));
  return cells
    .sort((a, b) => a.date.localeCompare(b.date))
    .map((cell) => ({ ...cell, level: max === 0 || cell.count === 0 ? 0 : Math.max(1, Math.ceil((cell.count / max) * 4)) }));
}
