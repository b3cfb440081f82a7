import { errorBodyMessage } from '@web/lib/api';

/** GET /api/kubeconfig (spec §7): a kubeconfig for the signed-in person, with a new token in it. */
export const KUBECONFIG_PATH = '/api/kubeconfig';

/** The name the file is saved under when the server does not name it. */
export const KUBECONFIG_FILE = 'watchkeeper.kubeconfig';

/** The file name of a Content-Disposition header (plain or RFC 5987), only its last path segment; else the default. */
export function kubeconfigFileName(disposition: string | null): string {
  if (!disposition) return KUBECONFIG_FILE;
  const encoded = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(disposition)?.[1];
  let name: string | undefined;
  if (encoded) {
    try {
      name = decodeURIComponent(encoded.trim());
    } catch {
      name = undefined;
    }
  }
  name ??= /filename\s*=\s*"([^"]*)"/i.exec(disposition)?.[1] ?? /filename\s*=\s*([^;\s]+)/i.exec(disposition)?.[1];
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base && base !== '.' && base !== '..' ? base : KUBECONFIG_FILE;
}

/** What to run once the file is in the downloads folder. */
export function kubeconfigUsage(file: string): string {
  return `export KUBECONFIG=~/Downloads/${file}; kubectl get canaries -A`;
}

/** Fetches the kubeconfig and saves it (Blob and a link click); answers the file name, throws with the server's message. */
export async function downloadKubeconfig(): Promise<string> {
  const response = await fetch(KUBECONFIG_PATH, { credentials: 'same-origin', headers: { accept: 'application/yaml, application/json, text/plain' } });
  const text = await response.text();
  if (!response.ok) {
    let data: unknown = text;
    try {
      data = JSON.parse(text);
    } catch {
      // A text body: its own words, if any.
    }
    throw new Error(errorBodyMessage(data) ?? (`Failed to download kubeconfig: ${response.status} ${response.statusText}`.trim()));
  }
  const file = kubeconfigFileName(response.headers.get('content-disposition'));
  const url = URL.createObjectURL(new Blob([text], { type: response.headers.get('content-type') ?? 'application/yaml' }));
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = file;
    link.style.display = 'none';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // After the click has started the download.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
  return file;
}
