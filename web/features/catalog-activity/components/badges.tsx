import { cn } from '@web/ui/primitives/cn';

/** Severities of changes and insights, most severe first (migration 0007). */
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

const SEVERITY_COLOURS: Readonly<Record<string, string>> = {
  critical: 'bg-red-100 text-red-800 ring-red-300',
  high: 'bg-orange-100 text-orange-800 ring-orange-300',
  medium: 'bg-amber-50 text-amber-800 ring-amber-300',
  low: 'bg-blue-50 text-blue-700 ring-blue-200',
  info: 'bg-slate-100 text-slate-700 ring-slate-300',
};

export function SeverityBadge({ severity }: { severity: string | null | undefined }) {
  if (!severity) return null;
  const colour = Object.hasOwn(SEVERITY_COLOURS, severity) ? SEVERITY_COLOURS[severity] : SEVERITY_COLOURS.info;
  return <span className={cn('inline-flex rounded-full px-2 py-0.5 text-xs font-medium capitalize ring-1 ring-inset', colour)}>{severity}</span>;
}
