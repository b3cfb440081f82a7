import type { ReactNode } from 'react';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { Loading } from '@web/ui/primitives/loading';
import NotFoundPage from './pages/not-found-page';

/** A disabled area's pages vanish with its menu entry (spec §6): they answer like unknown routes. */
export function FeatureGate({ feature, children }: { feature: string | undefined; children: ReactNode }) {
  const flags = useFeatureFlags();
  if (!feature) return children;
  if (!flags.ready) return <Loading className="py-24" />;
  return flags.isEnabled(feature) ? children : <NotFoundPage />;
}
