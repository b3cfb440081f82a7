import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { ErrorPage } from '@web/app/pages/error-page';
import { ApiError } from '@web/lib/api';
import { Loading } from '@web/ui/primitives/loading';
import { fetchOrganizationBackend, organizationBackendKey } from './api';
import { routeToBackend } from './direct';
import { ProvisioningScreen } from './provisioning-screen';

/** How often the provisioning screen asks again (spec §1: polling until the backend answers). */
export const PROVISIONING_POLL_MS = 3_000;

/** Spec §1: a 5xx or 404 of the check is provisioning too; any other failure is an error. */
function stillProvisioning(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.kind === 'http') return (error.status ?? 0) >= 500 || error.status === 404;
  return error.kind !== 'invalid-response';
}

/**
 * Hosted mode with an organization chosen: an organization with a backend URL shows only once its
 * backend answers; until then the provisioning screen, asking again every few seconds. A `direct`
 * organization's requests then go to its backend with the front's token (direct.ts). One without a
 * backend URL is served by this server's database (migration 0030): nothing to wait for.
 */
export function BackendGate({ organization, children }: { organization: { id: string; hasBackendUrl: boolean }; children: ReactNode }) {
  if (!organization.hasBackendUrl) return children;
  return <Probe organizationId={organization.id}>{children}</Probe>;
}

function Probe({ organizationId, children }: { organizationId: string; children: ReactNode }) {
  const backend = useQuery({
    queryKey: organizationBackendKey(organizationId),
    queryFn: ({ signal }) => fetchOrganizationBackend(signal),
    retry: false,
    refetchOnWindowFocus: false,
    refetchInterval: (query) => (query.state.data?.state === 'ready' ? false : PROVISIONING_POLL_MS),
  });
  const data = backend.data;
  const direct = data?.state === 'ready' && data.organization.direct ? data.organization.backend_url : null;
  // The page's own queries start in its effects, which run before this one: it renders once the route is set.
  const [routed, setRouted] = useState<string | null>(null);
  useEffect(() => {
    const undo = routeToBackend(direct);
    setRouted(direct);
    return undo;
  }, [direct]);

  if (data?.state === 'ready' && routed === direct) return children;
  if (data?.state === 'ready') return <Loading className="min-h-screen" />;
  if (data?.state === 'provisioning' || (backend.error && stillProvisioning(backend.error))) {
    return <ProvisioningScreen organization={data?.organization.name ?? ''} />;
  }
  if (data?.state === 'error' || backend.error) {
    return <ErrorPage className="min-h-screen" title="The organization's backend cannot be used" error={data?.reason ?? backend.error} showDetails={false} />;
  }
  return <Loading className="min-h-screen" />;
}
