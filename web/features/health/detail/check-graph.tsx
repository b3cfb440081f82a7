import { formatLatency } from '@common/format';
import { DateTime } from '@web/ui/primitives/date-time';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import type { TimeRangeValue } from '@web/ui/time-range';
import { useCheckGraph } from '../api/check';
import type { GraphPoint } from '../api/schema';

const WIDTH = 600;
const LATENCY_HEIGHT = 100;
const BAR_HEIGHT = 36;

export interface GraphGeometry {
  latencyPath: string;
  bars: { x: number; width: number; passedHeight: number; failedHeight: number }[];
  maxLatency: number;
}

/**
 * Draws in a fixed 600-unit-wide box that the SVG stretches to its container (no text inside it, so
 * nothing is distorted): the mean latency as a line over the buckets' times, pass and fail counts as
 * stacked bars (failures in red on top).
 */
export function graphGeometry(points: readonly GraphPoint[], from: number, to: number, stepMs: number): GraphGeometry {
  const span = Math.max(1, to - from);
  const x = (time: string) => ((Date.parse(time) - from) / span) * WIDTH;
  const maxLatency = Math.max(1, ...points.map((point) => point.avg ?? 0));
  const maxCount = Math.max(1, ...points.map((point) => point.passed + point.failed));
  // A bucket's bar covers most of its step, so gaps in the results show as gaps.
  const barWidth = Math.max(1, ((Math.max(stepMs, 1) / span) * WIDTH) * 0.8);
  const stepWidth = (Math.max(stepMs, 1) / span) * WIDTH;
  // A step line: each bucket's mean across the bucket, so a single bucket still shows.
  let latencyPath = '';
  for (const point of points) {
    if (point.avg === null) continue;
    const y = (LATENCY_HEIGHT - (point.avg / maxLatency) * (LATENCY_HEIGHT - 4) - 2).toFixed(1);
    const start = Math.max(0, x(point.time));
    latencyPath += `${latencyPath ? 'L' : 'M'}${start.toFixed(1)},${y}H${Math.min(WIDTH, start + Math.max(stepWidth, 2)).toFixed(1)}`;
  }
  const bars = points.map((point) => ({
    x: Math.min(WIDTH - barWidth, Math.max(0, x(point.time))),
    width: barWidth,
    passedHeight: (point.passed / maxCount) * BAR_HEIGHT,
    failedHeight: (point.failed / maxCount) * BAR_HEIGHT,
  }));
  return { latencyPath, bars, maxLatency };
}

/** Latency and pass/fail over the range (spec §2 Graph), from GET /api/canary/api/graph. */
export default function CheckGraph({ checkId, timeRange, className }: { checkId: string; timeRange: TimeRangeValue; className?: string }) {
  const graph = useCheckGraph(checkId, timeRange);
  if (graph.isLoading) return <Loading className="py-6" />;
  if (graph.error) return <p role="alert" className="text-sm text-red-600">{graph.error.message}</p>;
  const data = graph.data;
  if (!data || data.points.length === 0) return <EmptyState className="py-6" />;
  const from = Date.parse(data.from);
  const to = Date.parse(data.to);
  const { latencyPath, bars, maxLatency } = graphGeometry(data.points, from, to, data.step_ms);
  const passed = data.points.reduce((sum, point) => sum + point.passed, 0);
  const failed = data.points.reduce((sum, point) => sum + point.failed, 0);
  return (
    <figure className={className}>
      <div className="flex items-baseline justify-between text-xs text-slate-500">
        <span>Latency (mean), up to {formatLatency(maxLatency)}</span>
        <span>
          <span className="text-green-700">{passed} passed</span> · <span className="text-red-700">{failed} failed</span>
        </span>
      </div>
      <svg
        role="img"
        aria-label={`Latency and results over the range: ${passed} passed, ${failed} failed, mean latency up to ${formatLatency(maxLatency)}`}
        viewBox={`0 0 ${WIDTH} ${LATENCY_HEIGHT + BAR_HEIGHT + 6}`}
        preserveAspectRatio="none"
        className="h-36 w-full"
      >
        <line x1="0" x2={WIDTH} y1={LATENCY_HEIGHT} y2={LATENCY_HEIGHT} className="stroke-slate-200" strokeWidth="1" vectorEffect="non-scaling-stroke" />
        <path d={latencyPath} fill="none" className="stroke-blue-600" strokeWidth="1.5" vectorEffect="non-scaling-stroke" />
        {bars.map((bar, index) => (
          <g key={index}>
            <rect x={bar.x} width={bar.width} y={LATENCY_HEIGHT + 6 + BAR_HEIGHT - bar.passedHeight} height={bar.passedHeight} className="fill-green-500" />
            <rect x={bar.x} width={bar.width} y={LATENCY_HEIGHT + 6 + BAR_HEIGHT - bar.passedHeight - bar.failedHeight} height={bar.failedHeight} className="fill-red-500" />
          </g>
        ))}
      </svg>
      <figcaption className="flex justify-between text-xs text-slate-500">
        <DateTime value={data.from} />
        <DateTime value={data.to} />
      </figcaption>
    </figure>
  );
}
