import * as Tabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';

export interface TabItem {
  id: string;
  label: string;
}

/**
 * The tab bar of a detail page (arrow keys move between tabs, Enter or Space opens one); only the active
 * panel is rendered, so a tab's data loads when it is opened.
 */
export function TabBar({ label, tabs, value, onValueChange, children }: { label: string; tabs: readonly TabItem[]; value: string; onValueChange: (value: string) => void; children: ReactNode }) {
  return (
    <Tabs.Root value={value} onValueChange={onValueChange} activationMode="manual">
      <Tabs.List aria-label={label} className="mb-4 flex gap-1 border-b border-slate-200">
        {tabs.map((tab) => (
          <Tabs.Trigger
            key={tab.id}
            value={tab.id}
            className="-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600 data-[state=active]:border-blue-600 data-[state=active]:text-blue-700"
          >
            {tab.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value={value} className="focus-visible:outline-none">
        {children}
      </Tabs.Content>
    </Tabs.Root>
  );
}
