import * as RadixTabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';
import { cn } from '@web/ui/primitives/cn';
import type { Tab } from '../state/checks';

interface CheckTabsProps {
  tabs: readonly (Tab & { count: number })[];
  value: string;
  onValueChange: (value: string) => void;
  /** The list under the tabs (the same element for every tab: only the checks change). */
  children: ReactNode;
}

/** Spec §2 tabs over the list: 'All' first, then one per value of Tab By, with their counts. */
export function CheckTabs({ tabs, value, onValueChange, children }: CheckTabsProps) {
  return (
    <RadixTabs.Root value={value} onValueChange={onValueChange} className="flex min-w-0 flex-col gap-3">
      <RadixTabs.List aria-label="Check tabs" className="flex gap-1 overflow-x-auto border-b border-slate-200">
        {tabs.map((tab) => (
          <RadixTabs.Trigger
            key={tab.value}
            value={tab.value}
            className={cn(
              '-mb-px shrink-0 border-b-2 border-transparent px-3 py-2 text-sm font-medium text-slate-600 hover:text-slate-900',
              'data-[state=active]:border-blue-600 data-[state=active]:text-blue-700',
            )}
          >
            {tab.label}
            <span className="ml-1.5 rounded-full bg-slate-100 px-1.5 text-xs font-normal text-slate-600">{tab.count}</span>
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      <RadixTabs.Content value={value} className="min-w-0 focus:outline-none">
        {children}
      </RadixTabs.Content>
    </RadixTabs.Root>
  );
}
