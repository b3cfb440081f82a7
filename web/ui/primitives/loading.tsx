import { LoaderCircle } from 'lucide-react';
import { cn } from './cn';

/** Spec §8 loading text: 'loading data...'. Announced politely to screen readers. */
export function Loading({ text = 'loading data...', className }: { text?: string; className?: string }) {
  return (
    <div role="status" aria-live="polite" className={cn('flex items-center justify-center gap-2 py-12 text-sm text-slate-500', className)}>
      <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />
      <span>{text}</span>
    </div>
  );
}
