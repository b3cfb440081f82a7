import { cn } from './cn';

/** A pulsing placeholder; hidden from assistive technology, the container announces the loading state. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-slate-200', className)} />;
}
