import { formatDate } from '@common/format/date';
import type { DateFormat } from '@common/constants';
import type { ChartSeries, ChartUnit, StripTone, TimeChartProps } from './types';

/** Pure pieces of the time chart (no uPlot, no DOM): the units' axes, gaps, the tooltip's lines. */

/** The units of a chart's series, once each, in the order the series first use them. */
export function chartUnits(series: readonly ChartSeries[]): ChartUnit[] {
  const units = new Map<string, ChartUnit>();
  for (const one of series) if (!units.has(one.unit.key)) units.set(one.unit.key, one.unit);
  return [...units.values()];
}

/**
 * The data as uPlot draws it when buckets have a width (`step`): each run of buckets that is followed by a
 * gap longer than one and a half steps (or ends the data) gets a point at the end of its last bucket, with
 * the bucket's values for step series (their line then covers the bucket, as a bucket's mean holds across
 * it) and null for the others, then a null point, so lines break where there were no results instead of
 * joining across them. `original` answers the bucket of each drawn point (-1 for a gap), `sourceTimes` the
 * buckets' own times.
 */
export function withGaps<T extends Pick<TimeChartProps, 'times' | 'series' | 'strip'>>(chart: T, step: number | undefined): T & { original: number[]; sourceTimes: readonly number[] } {
  if (!step || step <= 0 || chart.times.length === 0) return { ...chart, original: chart.times.map((_, index) => index), sourceTimes: chart.times };
  const times: number[] = [];
  const original: number[] = [];
  const series = chart.series.map((): Array<number | null> => []);
  const tones: Array<StripTone | null> = [];
  const push = (time: number, bucket: number, values: (one: ChartSeries, index: number) => number | null, tone: StripTone | null) => {
    times.push(time);
    original.push(bucket);
    chart.series.forEach((one, index) => series[index]?.push(values(one, index)));
    tones.push(tone);
  };
  chart.times.forEach((time, index) => {
    const value = (one: ChartSeries) => one.values[index] ?? null;
    push(time, index, value, chart.strip?.tones[index] ?? null);
    const next = chart.times[index + 1];
    if (next !== undefined && next - time <= step * 1.5) return;
    push(time + step, index, (one) => (one.style === 'steps' ? value(one) : null), null);
    if (next !== undefined) push(time + step + 1, -1, () => null, null);
  });
  return {
    ...chart,
    times,
    series: chart.series.map((one, index) => ({ ...one, values: series[index] ?? [] })),
    strip: chart.strip ? { ...chart.strip, tones } : undefined,
    original,
    sourceTimes: chart.times,
  };
}

/**
 * A tooltip's time: the person's format and zone; an age ('short') is no exact time, so it reads as 'full'
 * there (docs/HEALTH.md).
 */
export function tooltipTime(time: number, format: DateFormat, timeZone: string): string {
  return formatDate(time, format === 'short' ? 'full' : format, timeZone);
}

export interface TooltipContent {
  time: string;
  rows: Array<{ label: string; value: string; color: string }>;
  details: string[];
}

/** What the tooltip says at one index of the (gap-filled) data; null where there is nothing there. */
export function tooltipContent(
  chart: Pick<TimeChartProps, 'details'> & { series: readonly ChartSeries[]; original: readonly number[]; sourceTimes: readonly number[] },
  index: number,
  format: DateFormat,
  timeZone: string,
): TooltipContent | null {
  const source = chart.original[index];
  const time = source === undefined ? undefined : chart.sourceTimes[source];
  if (time === undefined || source === undefined || source < 0) return null;
  // The point that closes a bucket reads as the bucket itself.
  const at = chart.original[index - 1] === source ? index - 1 : index;
  const rows = chart.series.flatMap((one) => {
    const value = one.values[at];
    return value === null || value === undefined ? [] : [{ label: one.label, value: one.unit.format(value), color: one.color }];
  });
  return { time: tooltipTime(time, format, timeZone), rows, details: chart.details?.(source) ?? [] };
}

/** A y scale from 0 (or below, for negative values) to a little above the largest value. */
export function valueRange(min: number | null, max: number | null): [number, number] {
  const low = Math.min(0, min ?? 0);
  const high = max === null || !Number.isFinite(max) || max <= low ? low + 1 : max;
  return [low, high + (high - low) * 0.08];
}
