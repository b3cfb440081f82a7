import { memo, type ReactNode } from 'react';
import { Select } from '@web/ui/primitives/select';
import { Switch } from '@web/ui/primitives/switch';
import type { TriState } from '@web/ui/tri-state-filter';
import type { LabelFilterEntry, LabelOption } from '../state/labels';
import { PIVOT_CELL_TYPES, type HealthPatch, type PivotCellType } from '../state/params';
import { LabelFilters } from './label-filters';

const NONE = 'none';
const CELL_TYPE_LABELS: Record<PivotCellType, string> = { health: 'Health', uptime: 'Uptime', latency: 'Latency' };

export interface HealthFiltersProps {
  hidePassing: boolean;
  labels: readonly LabelFilterEntry[];
  labelOptions: readonly LabelOption[];
  pivotBy: string | undefined;
  pivotLabel: string | undefined;
  pivotCellType: PivotCellType;
  /** Rows and columns a pivot may use. */
  pivotDimensions: readonly string[];
  onLabelChange: (key: string, value: string, state: TriState) => void;
  onChange: (patch: HealthPatch) => void;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-2">
      <h2 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h2>
      {children}
    </section>
  );
}

/** The Health page's sidebar (spec §2): Hide Passing, the label filters, and the pivot settings. */
export const HealthFilters = memo(function HealthFilters(props: HealthFiltersProps) {
  const { hidePassing, labels, labelOptions, pivotBy, pivotLabel, pivotCellType, pivotDimensions, onLabelChange, onChange } = props;
  const dimensions = [{ value: NONE, label: 'None' }, ...pivotDimensions.map((key) => ({ value: key, label: key }))];
  const withCurrent = (value: string | undefined) => (value && !pivotDimensions.includes(value) ? [...dimensions, { value, label: value }] : dimensions);
  return (
    <div className="flex flex-col gap-5">
      <Section title="Health">
        <Switch label="Hide Passing" checked={hidePassing} onCheckedChange={(checked) => onChange({ hidePassing: checked })} />
      </Section>
      <Section title="Labels">
        <LabelFilters options={labelOptions} entries={labels} onChange={onLabelChange} />
      </Section>
      <Section title="Pivot">
        <Select label="Pivot By" value={pivotBy ?? NONE} options={withCurrent(pivotBy)} onValueChange={(value) => onChange({ pivotBy: value === NONE ? undefined : value })} />
        {pivotBy ? (
          <>
            <Select label="Pivot Label" value={pivotLabel ?? NONE} options={withCurrent(pivotLabel)} onValueChange={(value) => onChange({ pivotLabel: value === NONE ? undefined : value })} />
            <Select
              label="Cell Type"
              value={pivotCellType}
              options={PIVOT_CELL_TYPES.map((type) => ({ value: type, label: CELL_TYPE_LABELS[type] }))}
              onValueChange={(value) => onChange({ pivotCellType: value })}
            />
          </>
        ) : null}
      </Section>
    </div>
  );
});
