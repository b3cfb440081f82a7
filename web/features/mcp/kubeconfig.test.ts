// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KUBECONFIG_PATH, kubeconfigCommand, kubeconfigFileName, openKubeconfig } from './kubeconfig';

afterEach(() => vi.restoreAllMocks());

describe('kubeconfig', () => {
  it('names the file from the backend host plus -kubeconfig.yaml, the host kept to [A-Za-z0-9.-]', () => {
    expect(kubeconfigFileName('localhost')).toBe('localhost-kubeconfig.yaml');
    expect(kubeconfigFileName('ops.example.com')).toBe('ops.example.com-kubeconfig.yaml');
    expect(kubeconfigFileName('127.0.0.1')).toBe('127.0.0.1-kubeconfig.yaml');
    expect(kubeconfigFileName('[::1]')).toBe('1-kubeconfig.yaml');
    expect(kubeconfigFileName('a/../b c')).toBe('a-..-b-c-kubeconfig.yaml');
    expect(kubeconfigFileName('')).toBe('watchkeeper-kubeconfig.yaml');
  });

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
