import { useMutation } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { toast } from '@web/lib/toast';
import { chooseOrganization, orgsSwitchedPath } from './api';

/** Chooses an organization, then lands on /organizations/orgs-switched, which comes back here. */
export function useChooseOrganization() {
  const navigate = useNavigate();
  const location = useLocation();
  return useMutation({
    mutationFn: chooseOrganization,
    onSuccess: () => navigate(orgsSwitchedPath(`${location.pathname}${location.search}`)),
    onError: (error) => toast.error(error),
  });
}
