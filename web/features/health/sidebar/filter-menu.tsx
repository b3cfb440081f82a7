import * as RadixPopover from '@radix-ui/react-popover';
import { SlidersHorizontal, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { buttonBase } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';

/**
 * Spec §2 on narrow screens: the sidebar opens from a filter-menu button whose badge counts the active
 * filters, and closes on Escape, a click outside or its Close button (Radix gives the first two).
 */
export function FilterMenu({ activeCount, children }: { activeCount: number; children: ReactNode }) {
  return (
    <RadixPopover.Root>
      <RadixPopover.Trigger
        aria-label={activeCount > 0 ? `Filters (${activeCount} active)` : 'Filters'}
        className={cn(buttonBase, 'relative h-9 gap-2 border border-slate-300 bg-white px-3 text-sm text-slate-800 shadow-sm hover:bg-slate-50')}
      >
        <SlidersHorizontal className="size-4" aria-hidden="true" />
        Filters
        {activeCount > 0 ? (
          <span data-testid="filter-count" aria-hidden="true" className="inline-flex min-w-5 items-center justify-center rounded-full bg-blue-600 px-1.5 text-xs font-semibold text-white">
            {activeCount}
          </span>
        ) : null}
      </RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content
          aria-label="Filters"
          align="start"
          sideOffset={6}
          className="z-40 max-h-[calc(100vh-6rem)] w-80 overflow-auto rounded-lg border border-slate-200 bg-white p-4 shadow-xl focus:outline-none"
        >
          <div className="mb-3 flex items-center justify-between">
            <span className="text-sm font-semibold text-slate-900">Filters</span>
            <RadixPopover.Close aria-label="Close" className="inline-flex size-8 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-900">
              <X className="size-4" aria-hidden="true" />
            </RadixPopover.Close>
          </div>
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}
