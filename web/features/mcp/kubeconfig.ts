import { useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api';

/** GET /api/kubeconfig (spec §7): a kubeconfig for the signed-in person, with a new token in it. */
export const KUBECONFIG_PATH = '/api/kubeconfig';

/** GET /api/kubeconfig/file: the name the server gives the download (server/features/kube/index.ts). */
export const KUBECONFIG_FILE_PATH = '/api/kubeconfig/file';

/** docs/KUBECTL.md, served by this server (server/features/docs.ts): the modal's Learn more and help links. */
export const KUBECTL_DOCS_PAGE = 'KUBECTL.md';

function parseFileAnswer(data: unknown): string {
  const file: unknown = data && typeof data === 'object' ? Reflect.get(data, 'file') : undefined;
  if (typeof file !== 'string' || file === '') throw new Error('the answer has no file name');
  return file;
}

/**
 * Spec §2: the file is named from the backend host plus '-kubeconfig.yaml'. The server names it from its
 * public URL, which need not be the host this browser reached it by (127.0.0.1 against localhost), so the
 * modal asks it rather than guessing from the address bar.
 */
export function useKubeconfigFile(enabled: boolean): { file: string | undefined; error: Error | null } {
  const query = useQuery({
    queryKey: ['kube', 'kubeconfig-file'],
    queryFn: ({ signal }) => api.get(KUBECONFIG_FILE_PATH, parseFileAnswer, { signal }),
    staleTime: Infinity,
    retry: false,
    enabled,
  });
  return { file: query.data, error: query.error };
}

/** Spec §2 step 2: the kubectl command that lists canaries with the downloaded file. */
export function kubeconfigCommand(file: string): string {
  return `KUBECONFIG=~/Downloads/${file} kubectl get canaries -A`;
}

/**
 * Opens /api/kubeconfig in a new tab (spec §2). The session cookie goes along (same origin) and the
 * server's attachment header makes the browser save the file and close the tab.
 */
export function openKubeconfig(): void {
  window.open(KUBECONFIG_PATH, '_blank', 'noopener');
}
