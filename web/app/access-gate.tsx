import type { ReactNode } from 'react';
import { Page } from './layout/page';
import { UnauthorizedPage } from './pages/unauthorized-page';
import type { AppRoute } from './route-types';
import { useAccess, useSession } from './session';

/**
 * Spec §6 route guard: without the page's access the Unauthorized page shows instead of the page. A page
 * that says itself who may open it (`allows`) is judged by that instead.
 */
export function AccessGate({ access, allows, children }: { access: AppRoute['access']; allows?: AppRoute['allows']; children: ReactNode }) {
  const { can } = useAccess();
  const session = useSession();
  const user = session.status === 'ready' ? session.user : undefined;
  if (allows ? user !== undefined && allows(user) : !access || can(access.resource, access.action)) return children;
  return (
    <Page title="Unauthorized">
      <UnauthorizedPage />
    </Page>
  );
}
