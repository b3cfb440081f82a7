import { SIDEBAR_COLLAPSE_BREAKPOINT_PX } from '@common/constants';
import { isViewer } from '@common/rbac';
import { PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { useAuthMode } from '@web/features/identity/auth-mode';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { cn } from '@web/ui/primitives/cn';
import { Skeleton } from '@web/ui/primitives/skeleton';
import type { AppRoute } from '../route-types';
import { useAccess, useSession } from '../session';
import { Logo } from './logo';
import { SettingsGroup, SidebarLink } from './sidebar-items';
import { buildNav } from './sidebar-nav';
import { useSidebarViews } from './sidebar-views';
import { useSidebarCollapsed } from './use-sidebar-collapsed';

function SidebarSkeleton({ collapsed }: { collapsed: boolean }) {
  return (
    <div role="status" aria-label="Loading navigation" className="flex flex-col gap-2 px-1 py-1">
      {Array.from({ length: 6 }, (_, index) => (
        <div key={index} className="flex h-9 items-center gap-3 px-1.5">
          <Skeleton className="size-5 shrink-0" />
          {collapsed ? null : <Skeleton className="h-3.5 flex-1" />}
        </div>
      ))}
    </div>
  );
}

/** The main sidebar of spec §2. */
export function Sidebar({ routes }: { routes: readonly AppRoute[] }) {
  const [collapsed, setCollapsed] = useSidebarCollapsed();
  const session = useSession();
  const access = useAccess();
  const flags = useFeatureFlags();
  const ref = useRef<HTMLElement>(null);

  // Spec §2: on narrow windows the open sidebar covers the page, so a click elsewhere folds it away.
  useEffect(() => {
    if (collapsed) return;
    const onPointerDown = (event: PointerEvent) => {
      if (window.innerWidth >= SIDEBAR_COLLAPSE_BREAKPOINT_PX) return;
      if (event.target instanceof Node && ref.current?.contains(event.target)) return;
      setCollapsed(true);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [collapsed, setCollapsed]);

  const loading = session.status === 'loading' || !flags.ready;
  const authMode = useAuthMode().data?.mode;
  const nav = buildNav(routes, flags.isEnabled, (resource) => access.can(resource, 'read'), authMode, session.status === 'ready' ? session.user : undefined);
  // Spec §2: views flagged for the sidebar follow the fixed items (not when the 'views' area is off or unreadable).
  const views = useSidebarViews(!loading && access.ready && flags.isEnabled('views') && access.can('views', 'read'));
  // Spec §6: viewers and guests do not see the Settings navigation.
  const showSettings = nav.settings.length > 0 && !(session.status === 'ready' && session.user && isViewer(session.user.roles));
  const Toggle = collapsed ? PanelLeftOpen : PanelLeftClose;

  return (
    <aside
      ref={ref}
      aria-label="Main navigation"
      data-collapsed={collapsed}
      className={cn(
        'sticky top-0 z-30 flex h-screen shrink-0 flex-col border-r border-slate-200 bg-white transition-[width] duration-150',
        collapsed ? 'w-14' : 'w-56',
      )}
    >
      <Link
        to="/"
        className={cn('flex h-14 shrink-0 items-center gap-2.5 border-b border-slate-200 focus-visible:outline-offset-[-2px]', collapsed ? 'justify-center' : 'px-4')}
      >
        <Logo className="size-7 shrink-0" />
        <span className={cn('text-[15px] font-semibold tracking-tight text-slate-900', collapsed && 'sr-only')}>Watchkeeper</span>
      </Link>
      <nav aria-label="Areas" className={cn('flex-1 overflow-y-auto overflow-x-hidden py-3', collapsed ? 'px-2' : 'px-2.5')}>
        {loading ? (
          <SidebarSkeleton collapsed={collapsed} />
        ) : (
          <ul className="flex flex-col gap-0.5">
            {nav.main.map((item) => (
              <SidebarLink key={item.to} item={item} collapsed={collapsed} />
            ))}
            {views.length > 0 ? (
              <li>
                <ul aria-label="Views" className="flex flex-col gap-0.5">
                  {views.map((item) => (
                    <SidebarLink key={item.to} item={item} collapsed={collapsed} />
                  ))}
                </ul>
              </li>
            ) : null}
            {showSettings ? (
              <>
                {nav.main.length > 0 ? <li role="separator" className="my-2 h-px bg-slate-200" /> : null}
                <SettingsGroup items={nav.settings} collapsed={collapsed} />
              </>
            ) : null}
          </ul>
        )}
      </nav>
      <div className={cn('shrink-0 border-t border-slate-200 p-2', collapsed && 'flex justify-center')}>
        <button
          type="button"
          onClick={() => setCollapsed(!collapsed)}
          aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
          aria-expanded={!collapsed}
          className={cn(
            'flex h-9 items-center gap-3 rounded-md text-sm text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-blue-600',
            collapsed ? 'w-10 justify-center' : 'w-full px-2.5',
          )}
        >
          <Toggle className="size-[18px] shrink-0" aria-hidden="true" />
          {collapsed ? null : <span>Collapse</span>}
        </button>
      </div>
    </aside>
  );
}
