import { RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { useFormatDate } from '@web/ui/primitives/date-time';
import { currentAgeSeconds, refreshAgeText } from '../model/age';

/** The live age of the rows ('Refreshed 3 minutes ago', ticking) and the Refresh button, spinning while a refresh runs. */
export function RefreshControl({
  ageSeconds,
  refreshedAt,
  receivedAt,
  refreshing,
  onRefresh,
}: {
  ageSeconds: number | null | undefined;
  refreshedAt: string | null | undefined;
  receivedAt: number;
  refreshing: boolean;
  onRefresh: () => void;
}) {
  const formatDate = useFormatDate();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 10_000);
    return () => clearInterval(timer);
  }, []);
  // Re-read the clock when a new answer lands, so the age resets at once.
  useEffect(() => setNow(Date.now()), [receivedAt]);
  const age = currentAgeSeconds(ageSeconds, receivedAt, Math.max(now, receivedAt));
  return (
    <div className="flex items-center gap-2">
      <span role="status" aria-live="polite" className="text-xs text-slate-500" title={refreshedAt ? formatDate(refreshedAt, 'timestamp') : undefined}>
        {refreshing ? 'Refreshing…' : refreshAgeText(age)}
      </span>
      <Button size="sm" onClick={onRefresh} disabled={refreshing} aria-busy={refreshing}>
        <RefreshCw className={cn('size-3.5', refreshing && 'animate-spin')} aria-hidden="true" />
        Refresh
      </Button>
    </div>
  );
}
