import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from './cn';

export type DialogSize = 'very-small' | 'small' | 'medium' | 'large' | 'full';

/**
 * Spec §9: sizes very-small, small, medium, large, full with width breakpoints at 768, 1024, 1280 and
 * 1600 px: each size grows a step at each breakpoint, and never exceeds the viewport.
 */
const sizes: Record<DialogSize, string> = {
  'very-small': 'w-[calc(100vw-2rem)] max-w-sm',
  small: 'w-[calc(100vw-2rem)] max-w-md min-[768px]:max-w-lg',
  medium: 'w-[calc(100vw-2rem)] max-w-2xl min-[1024px]:max-w-3xl min-[1280px]:max-w-4xl',
  large: 'w-[calc(100vw-2rem)] max-w-3xl min-[1024px]:max-w-5xl min-[1280px]:max-w-6xl min-[1600px]:max-w-7xl',
  full: 'w-[calc(100vw-2rem)] h-[calc(100vh-2rem)]',
};

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  size?: DialogSize;
  /** Buttons, right-aligned under the content. */
  footer?: ReactNode;
  children?: ReactNode;
}

export function Dialog({ open, onOpenChange, title, description, size = 'medium', footer, children }: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40 backdrop-blur-[1px]" />
        <RadixDialog.Content
          // Without a description Radix warns; undefined tells it there is none on purpose.
          {...(description ? {} : { 'aria-describedby': undefined })}
          className={cn(
            'fixed left-1/2 top-1/2 z-50 flex max-h-[calc(100vh-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl border border-slate-200 bg-white shadow-xl focus:outline-none',
            sizes[size],
          )}
        >
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-5 py-4">
            <div className="min-w-0">
              <RadixDialog.Title className="text-base font-semibold text-slate-900">{title}</RadixDialog.Title>
              {description ? <RadixDialog.Description className="mt-1 text-sm text-slate-500">{description}</RadixDialog.Description> : null}
            </div>
            <RadixDialog.Close
              aria-label="Close"
              className="-mr-1 -my-1 inline-flex size-8 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600"
            >
              <X className="size-4" aria-hidden="true" />
            </RadixDialog.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-auto px-5 py-4">{children}</div>
          {footer ? <div className="flex justify-end gap-2 border-t border-slate-200 bg-slate-50 px-5 py-3 rounded-b-xl">{footer}</div> : null}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
