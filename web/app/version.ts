import { useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api';

// Replaced at build time by Vite's `define` with package.json's version and the git commit built from,
// `0.1.0 (6b47328)` (web/vite.config.ts, common/version.ts).
declare const __WATCHKEEPER_VERSION__: string;

/** The console's own version; 'dev' where no build defined it (unit tests). */
export const FRONTEND_VERSION: string = typeof __WATCHKEEPER_VERSION__ === 'string' ? __WATCHKEEPER_VERSION__ : 'dev';

/** Spec §2 user menu: 'frontend X, backend Y', with 'NA' when the backend version is unknown. */
export function versionLine(frontend: string, backend: string | undefined): string {
  return `frontend ${frontend}, backend ${backend ?? 'NA'}`;
}

/** Checks the answer by hand: the shell stays free of a schema library (its first-load budget). */
function parseVersionAnswer(data: unknown): { backend: string } {
  const backend: unknown = data && typeof data === 'object' ? Reflect.get(data, 'backend') : undefined;
  if (typeof backend !== 'string') throw new Error('the answer has no backend version');
  return { backend };
}

/** GET /api/version → the backend version; undefined while loading or when it failed. */
export function useBackendVersion(): { version: string | undefined; failed: boolean } {
  const query = useQuery({
    queryKey: ['platform', 'version'],
    queryFn: ({ signal }) => api.get('/api/version', parseVersionAnswer, { signal }),
    staleTime: Infinity,
    retry: false,
  });
  return { version: query.data?.backend, failed: query.isError };
}
