import { MIN_LAYOUT_WIDTH_PX } from '@common/constants';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { Loading } from '@web/ui/primitives/loading';
import type { AppRoute } from '../route-types';
import { Sidebar } from './sidebar';

/** Sidebar plus the current page. Spec §2: the layout never shrinks below 800 px; the window scrolls. */
export function AppLayout({ routes }: { routes: readonly AppRoute[] }) {
  return (
    <div className="flex min-h-screen" style={{ minWidth: MIN_LAYOUT_WIDTH_PX }}>
      <Sidebar routes={routes} />
      <div className="flex min-w-0 flex-1 flex-col">
        <Suspense fallback={<Loading className="py-24" />}>
          <Outlet />
        </Suspense>
      </div>
    </div>
  );
}
