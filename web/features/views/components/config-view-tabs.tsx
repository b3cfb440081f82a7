import { Link } from 'react-router';
import { useAccess } from '@web/app/session';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { cn } from '@web/ui/primitives/cn';
import { useViewsForConfig } from '../api/view';
import { configViewPath } from '../paths';

/**
 * The views shown as tabs of a catalog item (GET /api/view/list?config_id; a view's display.plugins
 * selects the items), drawn after the item's own tabs by web/features/catalog/components/config-tabs.tsx.
 * `tabClass` is that nav's tab style, so the two kinds of tab look alike.
 */
export function ConfigViewTabs({ configId, active, tabClass }: { configId: string; active: string; tabClass: (current: boolean) => string }) {
  const { can } = useAccess();
  const flags = useFeatureFlags();
  const enabled = flags.isEnabled('views') && can('views', 'read');
  const views = useViewsForConfig(configId, enabled);
  if (!enabled || !views.data) return null;
  return (
    <>
      {views.data.map((view) => {
        const current = active === `view:${view.id}`;
        return (
          <Link key={view.id} to={configViewPath(configId, view.id)} aria-current={current ? 'page' : undefined} className={cn(tabClass(current))}>
            {view.title || view.name}
          </Link>
        );
      })}
    </>
  );
}
