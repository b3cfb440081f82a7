import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { safeReturnPath } from '@web/features/identity/kratos/follow';
import { toast } from '@web/lib/toast';
import { Loading } from '@web/ui/primitives/loading';
import { forgetPreviousOrganization } from '../api';

/**
 * /organizations/orgs-switched?return_to= (spec §2): the landing page after choosing an organization.
 * Forgets everything cached for the previous one, then goes on to return_to (same-origin paths only) or /.
 */
export default function OrgsSwitchedPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const returnTo = safeReturnPath(params.get('return_to')) ?? '/';
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    forgetPreviousOrganization(queryClient)
      .catch((error: unknown) => toast.error(error))
      .finally(() => void navigate(returnTo, { replace: true }));
  }, [navigate, queryClient, returnTo]);
  return <Loading text="Switching organization…" className="min-h-screen" />;
}
