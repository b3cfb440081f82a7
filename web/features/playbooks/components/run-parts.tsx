import { formatDuration } from '@common/format';
import { Link } from 'react-router';
import type { PlaybookRun } from '../api/schema';
import { durationOf } from '../model/status';

/** Where a run's resource lives in the console, with its name (or id). */
export function runResource(run: Pick<PlaybookRun, 'config_id' | 'component_id' | 'check_id' | 'config' | 'component' | 'check'>): { href: string; name: string; kind: string } | undefined {
  if (run.config_id) return { href: `/catalog/${encodeURIComponent(run.config_id)}`, name: run.config?.name ?? run.config_id, kind: run.config?.type ?? 'Config item' };
  if (run.component_id) return { href: `/topology/${encodeURIComponent(run.component_id)}`, name: run.component?.name ?? run.component_id, kind: run.component?.type ?? 'Component' };
  if (run.check_id) return { href: `/health?checkId=${encodeURIComponent(run.check_id)}`, name: run.check?.name ?? run.check_id, kind: run.check?.type ?? 'Check' };
  return undefined;
}

export function ResourceLink({ run }: { run: Parameters<typeof runResource>[0] }) {
  const resource = runResource(run);
  if (!resource) return <span className="text-slate-400">—</span>;
  return (
    <Link to={resource.href} className="text-blue-700 hover:underline" title={resource.kind}>
      {resource.name}
    </Link>
  );
}

/** A run's or an action's duration; counting while it runs. */
export function Duration({ start, end }: { start: string | null | undefined; end: string | null | undefined }) {
  const ms = durationOf(start, end);
  return <span className="tabular-nums">{ms === undefined ? '—' : formatDuration(ms)}</span>;
}
