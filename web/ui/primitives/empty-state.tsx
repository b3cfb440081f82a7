import { Inbox } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from './cn';

/** Spec §8 empty text by default: 'No data available'. */
export function EmptyState({
  title = 'No data available',
  description,
  icon,
  action,
  className,
}: {
  title?: string;
  description?: ReactNode;
  icon?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('flex flex-col items-center justify-center gap-2 px-6 py-12 text-center', className)}>
      <div className="flex size-10 items-center justify-center rounded-full bg-slate-100 text-slate-500">{icon ?? <Inbox className="size-5" aria-hidden="true" />}</div>
      <p className="text-sm font-medium text-slate-800">{title}</p>
      {description ? <div className="max-w-md text-sm text-slate-500">{description}</div> : null}
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}
