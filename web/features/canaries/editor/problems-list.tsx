import { AlertTriangle, CircleX } from 'lucide-react';
import { cn } from '@web/ui/primitives/cn';

export interface ListedProblem {
  severity: 'error' | 'warning';
  message: string;
  /** 1-based line in the Code tab, when the problem has a place there. */
  line?: number | undefined;
  /** Moves to the problem (the Code tab puts the cursor on it). */
  onSelect?: (() => void) | undefined;
}

/**
 * Problems as a list a person (and a screen reader) can read: the server's errors and warnings, and in
 * the Code tab every mark with its line.
 */
export function ProblemsList({ title, problems }: { title: string; problems: readonly ListedProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <section aria-label={title} className="rounded-md border border-slate-200 bg-white">
      <h3 className="border-b border-slate-200 px-3 py-2 text-xs font-semibold uppercase tracking-wide text-slate-600">{title}</h3>
      <ul className="flex max-h-60 flex-col overflow-auto py-1">
        {problems.map((problem, index) => {
          const Icon = problem.severity === 'error' ? CircleX : AlertTriangle;
          const content = (
            <>
              <Icon className={cn('mt-0.5 size-3.5 shrink-0', problem.severity === 'error' ? 'text-red-600' : 'text-amber-600')} aria-label={problem.severity === 'error' ? 'Error' : 'Warning'} />
              {problem.line !== undefined ? <span className="shrink-0 text-slate-500">Line {problem.line}</span> : null}
              <span className="min-w-0 break-words">{problem.message}</span>
            </>
          );
          return (
            <li key={index}>
              {problem.onSelect ? (
                <button type="button" onClick={problem.onSelect} className="flex w-full items-start gap-2 px-3 py-1 text-left font-mono text-xs text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-600">
                  {content}
                </button>
              ) : (
                <p className="flex items-start gap-2 px-3 py-1 font-mono text-xs text-slate-800">{content}</p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
