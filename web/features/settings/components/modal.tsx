import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { IconButton } from '@web/ui/primitives/icon-button';
import { cn } from '@web/ui/primitives/cn';

export interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: string;
  size?: 'small' | 'medium' | 'large';
  children: ReactNode;
}

const widths = { small: 'w-[min(28rem,calc(100vw-2rem))]', medium: 'w-[min(40rem,calc(100vw-2rem))]', large: 'w-[min(60rem,calc(100vw-2rem))]' } as const;

/** A centred dialog with a title bar and a close button. */
export function Modal({ open, onOpenChange, title, description, size = 'medium', children }: ModalProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          // Without a description Radix must be told so explicitly, or it warns about a missing one.
          {...(description ? {} : { 'aria-describedby': undefined })}
          className={cn('fixed top-1/2 left-1/2 z-40 flex max-h-[90vh] -translate-x-1/2 -translate-y-1/2 flex-col rounded-lg bg-white shadow-xl', widths[size])}
        >
          <div className="flex items-center justify-between gap-4 border-b border-slate-200 px-5 py-3">
            <Dialog.Title className="text-base font-semibold">{title}</Dialog.Title>
            <Dialog.Close asChild>
              <IconButton label="Close" icon={<X className="size-4" />} noTooltip />
            </Dialog.Close>
          </div>
          {description ? <Dialog.Description className="sr-only">{description}</Dialog.Description> : null}
          <div className="min-h-0 overflow-auto p-5">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
