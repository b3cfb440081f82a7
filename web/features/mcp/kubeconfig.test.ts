// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadKubeconfig, KUBECONFIG_FILE, kubeconfigFileName, kubeconfigUsage } from './kubeconfig';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('kubeconfig download', () => {
  it('names the file from Content-Disposition, never with a path', () => {
    expect(kubeconfigFileName(null)).toBe(KUBECONFIG_FILE);
    expect(kubeconfigFileName('attachment; filename="wk-prod.kubeconfig"')).toBe('wk-prod.kubeconfig');
    expect(kubeconfigFileName('attachment; filename=plain.yaml')).toBe('plain.yaml');
    expect(kubeconfigFileName("attachment; filename*=UTF-8''caf%C3%A9.yaml")).toBe('café.yaml');
    expect(kubeconfigFileName('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(kubeconfigFileName('attachment; filename=".."')).toBe(KUBECONFIG_FILE);
    expect(kubeconfigFileName('attachment')).toBe(KUBECONFIG_FILE);
    expect(kubeconfigUsage('a.yaml')).toBe('export KUBECONFIG=~/Downloads/a.yaml; kubectl get canaries -A');
  });

  it('saves the answer as a file through a link click', async () => {
    const fetch = vi.fn(async () => new Response('apiVersion: v1\nkind: Config\n', { headers: { 'content-type': 'application/yaml', 'content-disposition': 'attachment; filename="wk.kubeconfig"' } }));
    vi.stubGlobal('fetch', fetch);
    let saved: Blob | undefined;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved = blob as Blob;
      return 'blob:kubeconfig';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    expect(await downloadKubeconfig()).toBe('wk.kubeconfig');
    expect(fetch).toHaveBeenCalledWith('/api/kubeconfig', expect.objectContaining({ credentials: 'same-origin' }));
    expect(clicked).toEqual([{ href: 'blob:kubeconfig', download: 'wk.kubeconfig' }]);
    expect(await saved?.text()).toBe('apiVersion: v1\nkind: Config\n');
    expect(document.querySelector('a[download]')).toBeNull();
  });

  it("throws the server's message, and saves nothing, when refused", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ error: 'forbidden', message: 'Tokens cannot create tokens' }), { status: 403 })));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click');
    await expect(downloadKubeconfig()).rejects.toThrow('Tokens cannot create tokens');
    vi.stubGlobal('fetch', vi.fn(async () => new Response('', { status: 404, statusText: 'Not Found' })));
    await expect(downloadKubeconfig()).rejects.toThrow('Failed to download kubeconfig: 404 Not Found');
    expect(click).not.toHaveBeenCalled();
  });
});
