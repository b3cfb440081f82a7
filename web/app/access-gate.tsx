import type { ReactNode } from 'react';
import { Page } from './layout/page';
import { UnauthorizedPage } from './pages/unauthorized-page';
import type { AppRoute } from './route-types';
import { useAccess } from './session';

/** Spec §6 route guard: without the page's access the Unauthorized page shows instead of the page. */
export function AccessGate({ access, children }: { access: AppRoute['access']; children: ReactNode }) {
  const { can } = useAccess();
  if (!access || can(access.resource, access.action)) return children;
  return (
    <Page title="Unauthorized">
      <UnauthorizedPage />
    </Page>
  );
}
