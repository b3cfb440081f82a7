import { describe, expect, it } from 'vitest';
import { kubeconfigFileName } from '../index';

describe('kubeconfigFileName', () => {
  it("names the file from the public URL's host plus -kubeconfig.yaml, the host kept to [A-Za-z0-9.-] (spec §2)", () => {
    expect(kubeconfigFileName('http://localhost:8080')).toBe('localhost-kubeconfig.yaml');
    expect(kubeconfigFileName('https://ops.example.com/console')).toBe('ops.example.com-kubeconfig.yaml');
    expect(kubeconfigFileName('http://127.0.0.1:8080')).toBe('127.0.0.1-kubeconfig.yaml');
    expect(kubeconfigFileName('http://[::1]:8080')).toBe('1-kubeconfig.yaml');
    expect(kubeconfigFileName('not a url')).toBe('watchkeeper-kubeconfig.yaml');
  });
});
