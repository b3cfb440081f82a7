import type { TopologyComponent } from '@common/topology';
import { useState } from 'react';
import { useDisplayPreferences } from '@web/lib/preferences';
import { Button } from '@web/ui/primitives/button';
import { ComponentCard } from './component-card';

/** Cards drawn at first; more on request, so a component with thousands of children stays quick. */
export const CARD_PAGE = 120;

/**
 * The cards in a grid whose columns are at least the card-width preference (spec §9: 554 px by default,
 * 250–768) and share the row's room, so no wide blank gap is left beside them. `narrowest` lowers that
 * minimum where the grid shares its row (a component page's sidebar), so a wide window still gets columns.
 */
export function CardGrid({ components, label, narrowest }: { components: readonly TopologyComponent[]; label: string; narrowest?: number }) {
  const { cardWidth } = useDisplayPreferences();
  const columnWidth = narrowest === undefined ? cardWidth : Math.min(cardWidth, narrowest);
  const [limit, setLimit] = useState(CARD_PAGE);
  const shown = components.slice(0, limit);
  const rest = components.length - shown.length;
  return (
    <div className="flex flex-col gap-3">
      <ul aria-label={label} className="grid items-start gap-4" style={{ gridTemplateColumns: `repeat(auto-fill, minmax(min(100%, ${columnWidth}px), 1fr))` }}>
        {shown.map((component) => (
          <li key={component.id} className="min-w-0">
            <ComponentCard component={component} width="100%" />
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
