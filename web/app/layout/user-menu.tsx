import { Bot, CircleUser, Download, LogOut, UserRound } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { openKubeconfig } from '@web/features/mcp/kubeconfig';
import { initials } from '@web/lib/initials';
import { toast } from '@web/lib/toast';
import { DropdownMenu, DropdownMenuItem, DropdownMenuSeparator } from '@web/ui/primitives/dropdown-menu';
import { IconButton } from '@web/ui/primitives/icon-button';
import { useSession } from '../session';
import { FRONTEND_VERSION, useBackendVersion, versionLine } from '../version';

// Loaded when first opened: the dialog is not part of the shell (bench/bundle.ts).
const KubeconfigModal = lazy(() => import('@web/features/mcp/kubeconfig-modal').then((module) => ({ default: module.KubeconfigModal })));

function Avatar({ name, avatar, large }: { name: string; avatar?: string | undefined; large?: boolean }) {
  if (avatar) return <img src={avatar} alt="" aria-hidden="true" className={`shrink-0 rounded-full object-cover ${large ? 'size-9' : 'size-7'}`} />;
  return (
    <span
      aria-hidden="true"
      className={`inline-flex shrink-0 items-center justify-center rounded-full bg-blue-600 font-semibold text-white ${large ? 'size-9 text-sm' : 'size-7 text-xs'}`}
    >
      {initials(name)}
    </span>
  );
}

/**
 * Spec §2 user menu: greeting, Your Profile, Download kubeconfig (opens /api/kubeconfig in a new tab and
 * shows the 'Download and install kubeconfig' steps), Setup MCP (the Tokens page's MCP dialog), the version line and Sign out.
 */
export function UserMenu() {
  const session = useSession();
  const backend = useBackendVersion();
  const location = useLocation();
  const [kubeconfigOpen, setKubeconfigOpen] = useState(false);
  const user = session.status === 'ready' ? session.user : undefined;
  const signOut = session.status === 'ready' ? session.signOut : undefined;
  const backendText = backend.failed ? undefined : (backend.version ?? '…');
  const here = `${location.pathname}${location.search}`;
  const trigger = user ? (
    <button
      type="button"
      aria-label="User menu"
      className="inline-flex size-8 items-center justify-center rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
    >
      <Avatar name={user.name} avatar={user.avatar} />
    </button>
  ) : (
    <IconButton label="User menu" noTooltip icon={<CircleUser className="size-[18px]" aria-hidden="true" />} />
  );
  return (
    <>
      <DropdownMenu label="User menu" trigger={trigger} contentClassName="w-64">
        {user ? (
          <>
            <div className="flex items-center gap-3 px-2 py-2">
              <Avatar name={user.name} avatar={user.avatar} large />
              <div className="min-w-0">
                <p className="truncate text-sm font-medium text-slate-900">Hi {user.name}</p>
                {user.email ? <p className="truncate text-xs text-slate-500">{user.email}</p> : null}
              </div>
            </div>
            <DropdownMenuSeparator />
            <DropdownMenuItem asChild>
              <Link to={`/profile-settings?return_to=${encodeURIComponent(here)}`}>
                <UserRound className="size-4 text-slate-500" aria-hidden="true" />
                Your Profile
              </Link>
            </DropdownMenuItem>
            <DropdownMenuItem
              onSelect={() => {
                // Both, as spec §2 says: the file starts downloading, and the modal says what to do with it.
                openKubeconfig();
                setKubeconfigOpen(true);
              }}
            >
              <Download className="size-4 text-slate-500" aria-hidden="true" />
              Download kubeconfig
            </DropdownMenuItem>
            <DropdownMenuItem asChild>
              <Link to="/settings/tokens?dialog=mcp">
                <Bot className="size-4 text-slate-500" aria-hidden="true" />
                Setup MCP
              </Link>
            </DropdownMenuItem>
            <DropdownMenuSeparator />
          </>
        ) : null}
        <p data-testid="version-line" className="px-2 py-1.5 text-xs text-slate-500">
          {versionLine(FRONTEND_VERSION, backendText)}
        </p>
        {signOut ? (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem
              onSelect={() => {
                signOut(here).catch((error: unknown) => toast.error(error));
              }}
            >
              <LogOut className="size-4 text-slate-500" aria-hidden="true" />
              Sign out
            </DropdownMenuItem>
          </>
        ) : null}
      </DropdownMenu>
      {kubeconfigOpen ? (
        <Suspense fallback={null}>
          <KubeconfigModal open onClose={() => setKubeconfigOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
