import { Building2, Check, ChevronsUpDown } from 'lucide-react';
import { useSession } from '@web/app/session';
import { cn } from '@web/ui/primitives/cn';
import { DropdownMenu, DropdownMenuItem, DropdownMenuLabel } from '@web/ui/primitives/dropdown-menu';
import { useChooseOrganization } from './use-choose-organization';

/**
 * Spec §2: hosted mode shows an organization switcher in the top bar, with the person's organizations
 * only (no personal account). Nothing shows with the console's own accounts.
 */
export function OrganizationSwitcher() {
  const session = useSession();
  const hosted = session.status === 'ready' ? session.user?.hosted : undefined;
  const choose = useChooseOrganization();
  const current = hosted?.organization;
  if (!hosted || !current) return null;
  return (
    <DropdownMenu
      label="Organizations"
      contentClassName="w-64"
      trigger={
        <button
          type="button"
          aria-label={`Organization: ${current.name}`}
          className="inline-flex h-8 max-w-48 items-center gap-1.5 rounded-md border border-slate-200 bg-white px-2 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
        >
          <Building2 className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
          <span className="truncate">{current.name}</span>
          <ChevronsUpDown className="size-3.5 shrink-0 text-slate-400" aria-hidden="true" />
        </button>
      }
    >
      <DropdownMenuLabel>Organizations</DropdownMenuLabel>
      {hosted.organizations.map((organization) => {
        const active = organization.id === current.id;
        return (
          <DropdownMenuItem
            key={organization.id}
            aria-current={active ? 'true' : undefined}
            disabled={choose.isPending}
            onSelect={() => {
              if (!active) choose.mutate(organization.id);
            }}
          >
            <Check className={cn('size-4 shrink-0 text-blue-600', !active && 'invisible')} aria-hidden="true" />
            <span className="truncate">{organization.name}</span>
          </DropdownMenuItem>
        );
      })}
    </DropdownMenu>
  );
}
