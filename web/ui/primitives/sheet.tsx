import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from './cn';

export interface SheetProps {
  title: ReactNode;
  onClose: () => void;
  /** Buttons beside the title (Run Now, Edit, Delete…). */
  actions?: ReactNode;
  /** The panel's width class; a detail with tables wants the wider one. */
  width?: 'wide' | 'wider';
  children: ReactNode;
}

/** A detail panel over the page's right side (a check, an agent): title, actions, Close, and a scrolling body. */
export function Sheet({ title, onClose, actions, width = 'wide', children }: SheetProps) {
  return (
    <RadixDialog.Root open onOpenChange={(open) => (open ? undefined : onClose())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/30" />
        <RadixDialog.Content
          aria-describedby={undefined}
          className={cn(
            'fixed inset-y-0 right-0 z-50 flex flex-col border-l border-slate-200 bg-white shadow-2xl focus:outline-none',
            width === 'wider' ? 'w-[min(64rem,100vw)]' : 'w-[min(56rem,100vw)]',
          )}
        >
          <div className="flex items-center gap-3 border-b border-slate-200 px-5 py-3">
            <RadixDialog.Title className="min-w-0 flex-1 truncate text-base font-semibold text-slate-900">{title}</RadixDialog.Title>
            {actions}
            <RadixDialog.Close aria-label="Close" className="inline-flex size-8 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600">
              <X className="size-4" aria-hidden="true" />
            </RadixDialog.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-auto px-5 py-4">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
