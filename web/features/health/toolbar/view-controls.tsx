import { LayoutGrid, Table2 } from 'lucide-react';
import { memo, type ReactNode } from 'react';
import { cn } from '@web/ui/primitives/cn';
import { Select } from '@web/ui/primitives/select';
import type { HealthPatch, Layout } from '../state/params';

const GROUP_LABELS: Record<string, string> = { 'no-group': 'No Grouping', canary_name: 'Canary', name: 'Name', description: 'Description', type: 'Type' };
const TAB_LABELS: Record<string, string> = { namespace: 'Namespace', agent_id: 'Agent' };

const option = (labels: Record<string, string>) => (value: string) => ({ value, label: Object.hasOwn(labels, value) ? (labels[value] ?? value) : `Label: ${value}` });

/** An option list that also holds the current value (a label key from a shared link that no check has now). */
function withCurrent(options: readonly string[], current: string): string[] {
  return options.includes(current) ? [...options] : [...options, current];
}

interface ViewControlsProps {
  /** The pivot replaces the table, so its grouping does not apply. */
  pivoting: boolean;
  groupBy: string;
  tabBy: string;
  layout: Layout;
  groupByOptions: readonly string[];
  tabByOptions: readonly string[];
  onChange: (patch: HealthPatch) => void;
}

function Inline({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-center gap-1.5">
      <span aria-hidden="true" className="text-xs font-medium text-slate-600">
        {label}
      </span>
      {children}
    </div>
  );
}

/** Group By and Tab By (spec §9 options) and the table / card layout. */
export const ViewControls = memo(function ViewControls({ pivoting, groupBy, tabBy, layout, groupByOptions, tabByOptions, onChange }: ViewControlsProps) {
  const layoutButton = (value: Layout, label: string, Icon: typeof Table2) => (
    <button
      type="button"
      aria-pressed={layout === value}
      aria-label={label}
      title={label}
      onClick={() => onChange({ layout: value })}
      className={cn('inline-flex size-8 items-center justify-center text-slate-600 hover:bg-slate-100', layout === value && 'bg-blue-50 text-blue-700')}
    >
      <Icon className="size-4" aria-hidden="true" />
    </button>
  );
  return (
    <div className="flex flex-wrap items-center gap-3">
      {layout === 'table' && !pivoting ? (
        <Inline label="Group By">
          <Select label="Group By" hideLabel className="w-44" value={groupBy} options={withCurrent(groupByOptions, groupBy).map(option(GROUP_LABELS))} onValueChange={(value) => onChange({ groupBy: value })} />
        </Inline>
      ) : null}
      <Inline label="Tab By">
        <Select label="Tab By" hideLabel className="w-40" value={tabBy} options={withCurrent(tabByOptions, tabBy).map(option(TAB_LABELS))} onValueChange={(value) => onChange({ tabBy: value })} />
      </Inline>
      <div role="group" aria-label="Layout" className="flex overflow-hidden rounded-md border border-slate-300 bg-white shadow-sm">
        {layoutButton('table', 'Table', Table2)}
        {layoutButton('card', 'Cards', LayoutGrid)}
      </div>
    </div>
  );
});
