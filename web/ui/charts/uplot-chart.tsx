import { formatAxisDate } from '@common/format/date';
import type { DateFormat } from '@common/constants';
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useDisplayPreferences } from '@web/lib/preferences';
import { cn } from '@web/ui/primitives/cn';
import { chartUnits, tooltipContent, valueRange, withGaps } from './chart-model';
import type { ChartSeries, ChartUnit, StripTone, TimeChartProps } from './types';

/** The time chart drawn by uPlot (loaded on demand by time-chart.tsx; see there). */

const DEFAULT_WIDTH = 600;
const FONT = '11px ui-sans-serif, system-ui, sans-serif';
const AXIS_COLOUR = '#64748b';
const GRID_COLOUR = '#e2e8f0';
/** Pixels between time ticks: enough for a tick's text in each format. */
const TICK_SPACE: Record<DateFormat, number> = { short: 50, medium: 80, full: 90, timestamp: 130 };
const HOVER_PX = 32;
const TONE_CLASSES: Record<StripTone, string> = { pass: 'bg-green-500', fail: 'bg-red-500', mixed: 'bg-orange-500' };

type Chart = Pick<TimeChartProps, 'times' | 'series' | 'strip' | 'details'> & { original: number[]; sourceTimes: readonly number[] };

interface Hover {
  index: number;
  left: number;
  top: number;
}

/** Where the plot sits in the chart (CSS pixels) and the strip's segments along it. */
interface PlotArea {
  left: number;
  top: number;
  width: number;
  height: number;
  segments: Array<{ tone: StripTone; left: number; width: number }>;
}

function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth || DEFAULT_WIDTH);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const next = Math.floor(entry?.contentRect.width ?? 0);
      if (next > 0) setWidth(next);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** uPlot reads dates in the browser's zone unless told the person's (for where ticks fall). */
function zonedDate(timeZone: string): (ms: number) => Date {
  if (timeZone === 'Browser') return (ms) => new Date(ms);
  try {
    uPlot.tzDate(new Date(), timeZone);
    return (ms) => uPlot.tzDate(new Date(ms), timeZone);
  } catch {
    return (ms) => new Date(ms);
  }
}

/** An axis wide enough for its longest tick text. */
function axisSize(self: uPlot, values: string[] | null, axisIndex: number, cycle: number): number {
  const axis = self.axes[axisIndex];
  if (cycle > 1 && axis && typeof axis.size === 'number') return axis.size;
  let size = 14;
  const longest = (values ?? []).reduce((a, b) => (b.length > a.length ? b : a), '');
  if (longest) {
    self.ctx.font = FONT;
    size += self.ctx.measureText(longest).width;
  }
  return Math.ceil(size);
}

function seriesOptions(one: ChartSeries): uPlot.Series {
  const style = one.style ?? 'lines';
  const options: uPlot.Series = { label: one.label, scale: one.unit.key, stroke: one.color, width: 1.5, spanGaps: one.joinGaps === true, points: { show: style === 'points', size: 5, fill: one.color } };
  if (one.dashed) options.dash = [4, 4];
  if (style === 'area') options.fill = /^#[0-9a-f]{6}$/i.test(one.color) ? `${one.color}33` : one.color;
  if (style === 'steps' && uPlot.paths.stepped) options.paths = uPlot.paths.stepped({ align: 1 });
  if (style === 'bars' && uPlot.paths.bars) {
    options.paths = uPlot.paths.bars({ size: [0.8, 64], align: 1 });
    options.fill = one.color;
  }
  if (style === 'points') options.paths = () => null;
  return options;
}

function valueAxis(unit: ChartUnit, index: number): uPlot.Axis {
  return {
    scale: unit.key,
    label: unit.label,
    labelFont: FONT,
    labelSize: 16,
    font: FONT,
    stroke: AXIS_COLOUR,
    side: index === 0 ? 3 : 1,
    grid: { show: index === 0, stroke: GRID_COLOUR, width: 1 },
    ticks: { show: false },
    size: axisSize,
    values: (_self, splits) => splits.map((value) => unit.format(value)),
  };
}

interface BuildInput {
  chart: Chart;
  props: TimeChartProps;
  width: number;
  height: number;
  dateFormat: DateFormat;
  timeZone: string;
  onHover: (hover: Hover | null) => void;
  onArea: (area: PlotArea) => void;
  zoom: RefObject<TimeChartProps['onZoom']>;
}

function chartOptions({ chart, props, width, height, dateFormat, timeZone, onHover, onArea, zoom }: BuildInput): uPlot.Options {
  const units = chartUnits(chart.series);
  const zoomsPage = Boolean(props.onZoom);
  const span = props.span;
  const step = props.step;
  return {
    width,
    height,
    ms: 1,
    tzDate: zonedDate(timeZone),
    legend: { show: false },
    padding: [8, units.length > 1 ? 0 : 12, 0, 0],
    // A tooltip for a point within 32 px of the cursor only: not for the one bucket across an empty chart.
    cursor: { drag: { x: true, y: false, setScale: !zoomsPage }, points: { size: 6 }, hover: { prox: HOVER_PX } },
    scales: {
      x: { time: true, ...(span ? { range: (): uPlot.Range.MinMax => [span.from, span.to] } : {}) },
      ...Object.fromEntries(units.map((unit) => [unit.key, { range: (_self: uPlot, min: number | null, max: number | null): uPlot.Range.MinMax => valueRange(min, max) }])),
    },
    axes: [
      {
        font: FONT,
        stroke: AXIS_COLOUR,
        space: TICK_SPACE[dateFormat],
        grid: { stroke: GRID_COLOUR, width: 1 },
        ticks: { stroke: GRID_COLOUR, width: 1, size: 4 },
        values: (_self, splits, _axis, _space, increment) => {
          const now = new Date();
          return splits.map((value) => formatAxisDate(value, dateFormat, increment, timeZone, now));
        },
      },
      ...units.map(valueAxis),
    ],
    series: [{}, ...chart.series.map(seriesOptions)],
    hooks: {
      setCursor: [
        (self) => {
          const index = (self.cursor.idxs ?? []).slice(1).find((one) => one !== null && one !== undefined);
          const left = self.cursor.left ?? -1;
          onHover(index === null || index === undefined || left < 0 ? null : { index, left, top: self.cursor.top ?? 0 });
        },
      ],
      setSelect: [
        (self) => {
          const onZoom = zoom.current;
          if (!onZoom || self.select.width < 3) return;
          const from = self.posToVal(self.select.left, 'x');
          const to = self.posToVal(self.select.left + self.select.width, 'x');
          self.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
          onZoom(new Date(Math.round(from)), new Date(Math.round(to)));
        },
      ],
      draw: [
        (self) => {
          const over = self.over;
          const plotWidth = parseFloat(over.style.width) || 0;
          const tones = chart.strip?.tones ?? [];
          const segments: PlotArea['segments'] = [];
          tones.forEach((tone, index) => {
            const time = chart.times[index];
            if (!tone || time === undefined) return;
            const next = chart.times[index + 1];
            const start = Math.max(0, self.valToPos(time, 'x'));
            const end = Math.min(plotWidth, self.valToPos(step ? time + step : (next ?? time), 'x'));
            if (end < 0 || start > plotWidth) return;
            segments.push({ tone, left: start, width: Math.max(2, end - start - 1) });
          });
          onArea({ left: parseFloat(over.style.left) || 0, top: parseFloat(over.style.top) || 0, width: plotWidth, height: parseFloat(over.style.height) || 0, segments });
        },
      ],
    },
  };
}

/** The time chart (props: types.ts). */
export default function UPlotChart(props: TimeChartProps) {
  const { dateFormat, timeZone } = useDisplayPreferences();
  const host = useRef<HTMLDivElement>(null);
  const width = useWidth(host);
  const height = props.height ?? 180;
  const { times, series, strip, step, details } = props;
  const chart = useMemo(() => withGaps({ times, series, strip, details }, step), [times, series, strip, details, step]);
  const [hover, setHover] = useState<Hover | null>(null);
  const [area, setArea] = useState<PlotArea | null>(null);
  const zoom = useRef(props.onZoom);
  zoom.current = props.onZoom;
  const zoomsPage = Boolean(props.onZoom);
  const spanFrom = props.span?.from;
  const spanTo = props.span?.to;
  const propsRef = useRef(props);
  propsRef.current = props;

  useEffect(() => {
    const element = host.current;
    if (!element || width === 0) return;
    const data: uPlot.AlignedData = [chart.times as number[], ...chart.series.map((one) => one.values as Array<number | null>)];
    const plot = new uPlot(chartOptions({ chart, props: propsRef.current, width, height, dateFormat, timeZone, onHover: setHover, onArea: setArea, zoom }), data, element);
    return () => {
      plot.destroy();
      setHover(null);
    };
    // The span's bounds and whether a drag zooms the page are what the options read of the props.
  }, [chart, width, height, dateFormat, timeZone, spanFrom, spanTo, zoomsPage]);

  const content = hover ? tooltipContent(chart, hover.index, dateFormat, timeZone) : null;
  const legend = props.legend ?? (series.length > 1 ? 'horizontal' : 'none');
  const flip = area && hover ? hover.left > area.width / 2 : false;
  return (
    <figure className={cn('relative flex flex-col gap-1', props.className)}>
      <div ref={host} role="img" aria-label={props.label} className="w-full" data-chart="time" />
      {content && area && hover ? (
        <div
          role="tooltip"
          className="pointer-events-none absolute z-10 min-w-36 rounded-md border border-slate-200 bg-white px-2 py-1.5 text-xs text-slate-700 shadow-md"
          style={{ top: area.top + Math.min(hover.top, Math.max(0, area.height - 60)), ...(flip ? { right: `calc(100% - ${area.left + hover.left - 12}px)` } : { left: area.left + hover.left + 12 }) }}
        >
          <p className="font-medium tabular-nums text-slate-900">{content.time}</p>
          {content.rows.map((row) => (
            <p key={row.label} className="flex items-center gap-1.5">
              <span className="inline-block size-2 shrink-0 rounded-full" style={{ backgroundColor: row.color }} aria-hidden="true" />
              <span>{row.label}</span>
              <span className="ml-auto pl-2 font-medium tabular-nums">{row.value}</span>
            </p>
          ))}
          {content.details.map((line) => (
            <p key={line} className="tabular-nums">
              {line}
            </p>
          ))}
        </div>
      ) : null}
      {strip && area ? (
        <div role="img" aria-label={strip.label} data-strip="results" className="relative h-2.5 overflow-hidden rounded-sm bg-slate-100" style={{ marginLeft: area.left, width: area.width }}>
          {area.segments.map((segment, index) => (
            <span key={index} data-tone={segment.tone} className={cn('absolute inset-y-0', TONE_CLASSES[segment.tone])} style={{ left: segment.left, width: segment.width }} />
          ))}
        </div>
      ) : null}
      {legend !== 'none' ? (
        <ul className={cn('flex gap-x-3 gap-y-1 text-xs text-slate-600', legend === 'vertical' ? 'flex-col' : 'flex-wrap')} style={{ marginLeft: area?.left ?? 0 }}>
          {series.map((one) => (
            <li key={one.label} className="flex items-center gap-1">
              <span className="inline-block h-0.5 w-3" style={{ backgroundColor: one.color }} aria-hidden="true" />
              {one.label}
            </li>
          ))}
        </ul>
      ) : null}
    </figure>
  );
}
