/** GET /api/kubeconfig (spec §7): a kubeconfig for the signed-in person, with a new token in it. */
export const KUBECONFIG_PATH = '/api/kubeconfig';

/** docs/KUBECTL.md, served by this server (server/features/docs.ts): the modal's Learn more and help links. */
export const KUBECTL_DOCS_PAGE = 'KUBECTL.md';

/**
 * Spec §2: the file is named from the backend host plus '-kubeconfig.yaml', the host kept to
 * [A-Za-z0-9.-]; the server names its Content-Disposition the same way (server/features/kube/index.ts).
 */
export function kubeconfigFileName(host: string): string {
  const safe = host.replace(/[^A-Za-z0-9.-]+/g, '-').replace(/^[.-]+|[.-]+$/g, '');
  return `${safe || 'watchkeeper'}-kubeconfig.yaml`;
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
