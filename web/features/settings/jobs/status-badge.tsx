import { cn } from '@web/ui/primitives/cn';

/** Spec §4 job status colours: RUNNING yellow, SUCCESS green, WARNING orange, FAILED and STOPPED red. */
export const JOB_STATUS_COLOURS: Readonly<Record<string, string>> = {
  RUNNING: 'bg-yellow-100 text-yellow-800 ring-yellow-300',
  SUCCESS: 'bg-green-100 text-green-800 ring-green-300',
  WARNING: 'bg-orange-100 text-orange-800 ring-orange-300',
  FAILED: 'bg-red-100 text-red-800 ring-red-300',
  STOPPED: 'bg-red-100 text-red-800 ring-red-300',
};
const OTHER = 'bg-slate-100 text-slate-700 ring-slate-300';

export function JobStatusBadge({ status }: { status: string }) {
  const colour = Object.hasOwn(JOB_STATUS_COLOURS, status) ? JOB_STATUS_COLOURS[status] : OTHER;
  return <span className={cn('inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', colour)}>{status}</span>;
}
