import { useDisplayPreferences } from '@web/lib/preferences';
import { tooltipTime } from '@web/ui/charts/chart-model';
import { cn } from '@web/ui/primitives/cn';
import { RECENT_RESULTS } from '../api/summary';
import type { CheckSummary } from '../api/schema';

interface Result {
  time: number;
  passed: boolean;
}

/** '20 latest results: 18 passed, 2 failed' (what the strip says to screen readers). */
export function recentResultsText(results: readonly Result[]): string {
  const passed = results.filter((result) => result.passed).length;
  return `${results.length} latest ${results.length === 1 ? 'result' : 'results'}: ${passed} passed, ${results.length - passed} failed`;
}

/**
 * A check's newest results as a strip (as Uptime Kuma lists its monitors): oldest on the left, the newest on
 * the right, green passed and red failed, empty slots first when it has fewer; each bar's tooltip gives its
 * outcome and exact time in the person's date format. From the summary's recent_statuses: no request of its own.
 */
export function RecentResults({ results, slots = RECENT_RESULTS }: { results: CheckSummary['recent_statuses']; slots?: number }) {
  const { dateFormat, timeZone } = useDisplayPreferences();
  if (!results || results.time.length === 0) return null;
  const shown: Result[] = results.time.slice(0, slots).map((time, index) => ({ time, passed: results.status[index] === true }));
  shown.reverse();
  return (
    <span role="img" aria-label={recentResultsText(shown)} data-strip="recent" className="inline-flex h-4 shrink-0 items-stretch gap-px">
      {Array.from({ length: slots - shown.length }, (_, index) => (
        <span key={`empty-${index}`} className="w-1 rounded-[1px] bg-slate-200" />
      ))}
      {shown.map((result) => (
        <span
          key={result.time}
          data-status={result.passed ? 'passed' : 'failed'}
          title={`${result.passed ? 'Passed' : 'Failed'} ${tooltipTime(result.time, dateFormat, timeZone)}`}
          className={cn('w-1 rounded-[1px]', result.passed ? 'bg-green-500' : 'bg-red-500')}
        />
      ))}
    </span>
  );
}
