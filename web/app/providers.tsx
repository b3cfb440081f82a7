import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';
import { TOAST_DURATION_MS, TOAST_POSITION } from '@web/lib/toast';
import { TooltipProvider } from '@web/ui/primitives/tooltip';
import { SessionProvider, type SessionSource } from './session';

/** Everything a page may rely on: the query cache, the session, tooltips and toasts (spec §9: 5 s, bottom-right). */
export function Providers({ queryClient, sessionSource, children }: { queryClient: QueryClient; sessionSource: SessionSource | undefined; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider source={sessionSource}>
        <TooltipProvider>
          {children}
          <Toaster position={TOAST_POSITION} duration={TOAST_DURATION_MS} closeButton richColors />
        </TooltipProvider>
      </SessionProvider>
    </QueryClientProvider>
  );
}
