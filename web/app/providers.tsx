import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';
import { ResourceRegistryContext } from '@web/features/settings/resources/registry-context';
import { TOAST_DURATION_MS, TOAST_POSITION } from '@web/lib/toast';
import { TooltipProvider } from '@web/ui/primitives/tooltip';
import { SessionProvider, type SessionSource } from './session';
import { settingsResources } from './settings-resources';

/**
 * Everything a page may rely on: the query cache, the session, the registered settings resources,
 * tooltips and toasts (spec §9: 5 s, bottom-right).
 */
export function Providers({ queryClient, sessionSource, children }: { queryClient: QueryClient; sessionSource: SessionSource | undefined; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider source={sessionSource}>
        <ResourceRegistryContext.Provider value={settingsResources}>
          <TooltipProvider>
            {children}
            <Toaster position={TOAST_POSITION} duration={TOAST_DURATION_MS} closeButton richColors />
          </TooltipProvider>
        </ResourceRegistryContext.Provider>
      </SessionProvider>
    </QueryClientProvider>
  );
}
