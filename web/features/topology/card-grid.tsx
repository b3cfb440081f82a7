import type { TopologyComponent } from '@common/topology';
import { useState } from 'react';
import { useDisplayPreferences } from '@web/lib/preferences';
import { Button } from '@web/ui/primitives/button';
import { ComponentCard } from './component-card';

/** Cards drawn at first; more on request, so a component with thousands of children stays quick. */
export const CARD_PAGE = 120;

/** The cards at the card-width preference (spec §9: 554 px by default, 250–768). */
export function CardGrid({ components, label }: { components: readonly TopologyComponent[]; label: string }) {
  const { cardWidth } = useDisplayPreferences();
  const [limit, setLimit] = useState(CARD_PAGE);
  const shown = components.slice(0, limit);
  const rest = components.length - shown.length;
  return (
    <div className="flex flex-col gap-3">
      <ul aria-label={label} className="flex flex-wrap items-start gap-4">
        {shown.map((component) => (
          <li key={component.id} className="max-w-full">
            <ComponentCard component={component} width={cardWidth} />
          </li>
        ))}
      </ul>
      {rest > 0 ? (
        <div className="flex items-center gap-3 text-sm text-slate-600">
          <span>
            Showing {shown.length} of {components.length}
          </span>
          <Button size="sm" onClick={() => setLimit((current) => current + CARD_PAGE * 4)}>
            Show {Math.min(rest, CARD_PAGE * 4)} more
          </Button>
        </div>
      ) : null}
    </div>
  );
}
