import * as RadixPopover from '@radix-ui/react-popover';
import type { ReactNode } from 'react';
import { cn } from './cn';

/** A panel of controls anchored to a trigger (menus of actions use DropdownMenu instead). */
export function Popover({
  trigger,
  children,
  label,
  align = 'end',
  className,
}: {
  trigger: ReactNode;
  children: ReactNode;
  /** Accessible name of the panel (it is a dialog to assistive technology). */
  label: string;
  align?: 'start' | 'center' | 'end';
  className?: string;
}) {
  return (
    <RadixPopover.Root>
      <RadixPopover.Trigger asChild>{trigger}</RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content
          aria-label={label}
          align={align}
          sideOffset={6}
          className={cn('z-50 rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-800 shadow-lg focus:outline-none', className)}
        >
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}
