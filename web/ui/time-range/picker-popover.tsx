import * as Popover from '@radix-ui/react-popover';
import { Clock } from 'lucide-react';
import type { ReactNode } from 'react';
import { buttonBase } from '../primitives/button';
import { cn } from '../primitives/cn';

interface PickerPopoverProps {
  display: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  className?: string;
  children: ReactNode;
}

/** The trigger showing the current range and the panel the past and future pickers fill. */
export function PickerPopover({ display, open, onOpenChange, className, children }: PickerPopoverProps) {
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger
        aria-label={`Time range: ${display}`}
        className={cn(buttonBase, 'h-9 gap-2 border border-slate-300 bg-white px-3 text-sm text-slate-800 shadow-sm hover:bg-slate-50', className)}
      >
        <Clock className="size-4" aria-hidden="true" />
        {display}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={6}
          aria-label="Choose a time range"
          className="z-50 flex max-h-[80vh] gap-6 overflow-auto rounded-lg border border-slate-200 bg-white p-4 shadow-lg"
        >
          {children}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
