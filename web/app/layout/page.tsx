import { RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { OrganizationSwitcher } from '@web/features/organizations/organization-switcher';
import { cn } from '@web/ui/primitives/cn';
import { IconButton } from '@web/ui/primitives/icon-button';
import { ErrorBoundary } from '../error-boundary';
import { ErrorPage } from '../pages/error-page';
import { useDocumentTitle } from './document-title';
import { DocsMenu } from './docs-menu';
import { NotificationsBell } from './notifications-bell';
import { PreferencesMenu } from './preferences-menu';
import { UserMenu } from './user-menu';

export interface PageProps {
  title: string;
  /** Page-specific controls in the top bar (filters, tabs, actions). */
  extra?: ReactNode;
  /** Shows a refresh button. */
  onRefresh?: () => void;
  /** Spins the refresh button while data reloads. */
  refreshing?: boolean;
  children: ReactNode;
}

export const BOUNDARY_FALLBACK_TEXT = 'Sorry.. there was an error';

/**
 * The page shell of spec §2: a sticky top bar (title, extra, refresh, notifications bell, preferences,
 * docs, user) over the page content, which an error boundary guards.
 */
export function Page({ title, extra, onRefresh, refreshing = false, children }: PageProps) {
  useDocumentTitle(title);
  const location = useLocation();
  return (
    <>
      <header className="sticky top-0 z-20 flex h-14 shrink-0 items-center gap-4 border-b border-slate-200 bg-white/95 px-5 backdrop-blur supports-[backdrop-filter]:bg-white/80">
        <h1 className="min-w-0 shrink truncate text-base font-semibold tracking-tight text-slate-900">{title}</h1>
        <div className="flex min-w-0 flex-1 items-center gap-2">{extra}</div>
        <div className="flex shrink-0 items-center gap-1">
          {onRefresh ? (
            <IconButton
              label="Refresh"
              aria-busy={refreshing}
              onClick={onRefresh}
              icon={<RefreshCw className={cn('size-4', refreshing && 'animate-spin')} aria-hidden="true" />}
            />
          ) : null}
          <NotificationsBell />
          <PreferencesMenu />
          <DocsMenu />
          <span className="mx-1 h-5 w-px bg-slate-200" aria-hidden="true" />
          <OrganizationSwitcher />
          <UserMenu />
        </div>
      </header>
      <main className="flex-1 p-5">
        <ErrorBoundary
          resetKey={location.pathname}
          fallback={(error, reset) => (
            <ErrorPage
              title={BOUNDARY_FALLBACK_TEXT}
              error={error}
              actions={
                <button
                  type="button"
                  onClick={reset}
                  className="h-9 rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
                >
                  Try again
                </button>
              }
            />
          )}
        >
          {children}
        </ErrorBoundary>
      </main>
    </>
  );
}
