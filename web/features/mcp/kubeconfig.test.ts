// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KUBECONFIG_PATH, kubeconfigCommand, openKubeconfig } from './kubeconfig';

afterEach(() => vi.restoreAllMocks());

describe('kubeconfig', () => {
  it('says how to list canaries with the downloaded file', () => {
    expect(kubeconfigCommand('localhost-kubeconfig.yaml')).toBe('KUBECONFIG=~/Downloads/localhost-kubeconfig.yaml kubectl get canaries -A');
  });

  it('opens /api/kubeconfig in a new tab', () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    openKubeconfig();
    expect(open).toHaveBeenCalledWith(KUBECONFIG_PATH, '_blank', 'noopener');
    expect(KUBECONFIG_PATH).toBe('/api/kubeconfig');
  });
});
