import { formatLatency } from '@common/format';
import { useMemo } from 'react';
import { TimeChart, type ChartSeries, type ChartUnit, type StripTone, type TimeChartProps } from '@web/ui/charts/time-chart';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { absoluteRange, type TimeRangeValue } from '@web/ui/time-range';
import { useCheckGraph } from '../api/check';
import type { GraphAnswer } from '../api/schema';

const LATENCY: ChartUnit = { key: 'ms', label: 'Latency', format: formatLatency };

/** A bucket's results as words: '2 passed, 1 failed'. */
export function resultsText(passed: number, failed: number): string {
  return `${passed} passed, ${failed} failed`;
}

function tone(passed: number, failed: number): StripTone {
  return failed === 0 ? 'pass' : passed === 0 ? 'fail' : 'mixed';
}

/**
 * canary-checker's graph answer as the time chart draws it: each bucket's mean latency (and, over raw
 * results, its slowest) on a latency axis across the whole range, the buckets' results as the strip under
 * it, their counts in the tooltip.
 */
export function graphChart(answer: GraphAnswer): Omit<TimeChartProps, 'onZoom'> {
  const buckets = answer.status;
  const series: ChartSeries[] = [{ label: 'Mean latency', values: buckets.map((bucket) => bucket.duration), color: '#2563eb', unit: LATENCY, style: 'steps' }];
  if (buckets.some((bucket) => bucket.max !== undefined)) {
    series.push({ label: 'Slowest', values: buckets.map((bucket) => bucket.max ?? null), color: '#94a3b8', unit: LATENCY, style: 'steps', dashed: true });
  }
  const { passed, failed } = answer.uptime;
  const slowest = Math.max(0, ...buckets.map((bucket) => bucket.duration));
  return {
    label: `Latency and results over the range: ${resultsText(passed, failed)}, mean latency up to ${formatLatency(slowest)}`,
    times: buckets.map((bucket) => Date.parse(bucket.time)),
    series,
    span: { from: Date.parse(answer.from), to: Date.parse(answer.to) },
    step: answer.step_ms,
    strip: { label: `Results: ${resultsText(passed, failed)}`, tones: buckets.map((bucket) => tone(bucket.passed, bucket.failed)) },
    details: (index) => {
      const bucket = buckets[index];
      return bucket ? [resultsText(bucket.passed, bucket.failed)] : [];
    },
  };
}

/**
 * Latency and pass/fail over the range (spec §2 Graph), from GET /api/canary/api/graph. Dragging over the
 * chart makes the dragged span the check's time range.
 */
export default function CheckGraph({ checkId, timeRange, onTimeRangeChange, className }: { checkId: string; timeRange: TimeRangeValue; onTimeRangeChange?: (value: TimeRangeValue) => void; className?: string }) {
  const graph = useCheckGraph(checkId, timeRange);
  const chart = useMemo(() => (graph.data ? graphChart(graph.data) : null), [graph.data]);
  if (graph.isLoading) return <Loading className="py-6" />;
  if (graph.error) return <p role="alert" className="text-sm text-red-600">{graph.error.message}</p>;
  if (!graph.data || !chart || graph.data.status.length === 0) return <EmptyState className="py-6" />;
  const { passed, failed } = graph.data.uptime;
  return (
    <div className={className}>
      <p className="flex justify-end text-xs text-slate-500">
        <span>
          <span className="text-green-700">{passed} passed</span> · <span className="text-red-700">{failed} failed</span>
        </span>
      </p>
      <TimeChart {...chart} height={170} onZoom={onTimeRangeChange ? (from, to) => onTimeRangeChange(absoluteRange(from, to)) : undefined} />
    </div>
  );
}
