import { Building2 } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import type { SessionUser } from '@web/app/session';
import { AuthCard } from '@web/features/identity/components/auth-card';
import { toast } from '@web/lib/toast';
import { Button } from '@web/ui/primitives/button';
import { CheckAgainButton } from './check-again';
import { useChooseOrganization } from './use-choose-organization';

type Hosted = NonNullable<SessionUser['hosted']>;

/**
 * Hosted mode with no organization chosen (spec §6: it needs one): the person picks one of theirs, and
 * comes back to the page they opened. A person of no organization learns why nothing shows, and can
 * sign out (never a blank page). A person in exactly one never sees this: the server chose it.
 */
export function OrganizationChooser({ hosted, signOut, manage }: { hosted: Hosted; signOut: ((returnTo: string) => Promise<void>) | undefined; manage?: string }) {
  const choose = useChooseOrganization();
  const location = useLocation();
  const signOutButton = signOut ? (
    <Button variant="ghost" onClick={() => void signOut(`${location.pathname}${location.search}`).catch((error: unknown) => toast.error(error))}>
      Sign out
    </Button>
  ) : null;
  // A membership granted or removed at the provider since the sign-in: read the organizations again.
  const footer = (
    <>
      <CheckAgainButton />
      {signOutButton}
    </>
  );
  // A platform administrator manages the organizations (and adds themselves to one) from here.
  const manageLink = manage ? (
    <Link className="text-center text-sm font-medium text-sky-700 underline-offset-2 hover:underline" to={manage}>
      Manage organizations
    </Link>
  ) : null;
  if (hosted.organizations.length === 0) {
    return (
      <AuthCard title="No organization" footer={footer}>
        <p className="text-center text-sm text-slate-600">
          {manage
            ? 'You are not a member of any organization yet. As a platform administrator, create one and invite yourself to it.'
            : 'You are not a member of any organization. Ask an administrator of your organization to invite you, then choose Check again.'}
        </p>
        {manageLink}
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose an organization" footer={footer}>
      <ul className="flex flex-col gap-2" aria-label="Your organizations">
        {hosted.organizations.map((organization) => (
          <li key={organization.id}>
            <Button className="w-full justify-start" disabled={choose.isPending} onClick={() => choose.mutate(organization.id)}>
              <Building2 className="size-4 text-slate-500" aria-hidden="true" />
              <span className="truncate">{organization.name}</span>
            </Button>
          </li>
        ))}
      </ul>
      {manageLink}
    </AuthCard>
  );
}
