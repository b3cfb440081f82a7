// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '@web/app/providers';
import { testQueryClient } from '@web/app/test-utils';
import { KubeconfigModal } from './kubeconfig-modal';

/** The server's GET /api/kubeconfig/file: the name it gives the download, or an error status. */
function serveFileName(answer: string | number) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    const body = url.pathname !== '/api/kubeconfig/file' ? { error: 'not_found', message: 'not scripted' } : typeof answer === 'number' ? { error: 'internal_error', message: 'the server is restarting' } : { file: answer };
    const status = url.pathname !== '/api/kubeconfig/file' ? 404 : typeof answer === 'number' ? answer : 200;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderModal(file: string | number = 'localhost-kubeconfig.yaml') {
  const onClose = vi.fn();
  const fetchMock = serveFileName(file);
  render(
    <Providers queryClient={testQueryClient()} sessionSource={undefined}>
      <KubeconfigModal open onClose={onClose} />
    </Providers>,
  );
  return { onClose, fetchMock, user: userEvent.setup(), dialog: screen.getByRole('dialog', { name: 'Download and install kubeconfig' }) };
}

describe('Download and install kubeconfig', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('has the three steps: download in a new tab, the kubectl command with the host-named file, Learn more', async () => {
    const { dialog } = renderModal('ops.example.com-kubeconfig.yaml');
    const steps = within(within(dialog).getByRole('list', { name: 'Steps' })).getAllByRole('listitem');
    expect(steps.map((step) => within(step).getByRole('heading').textContent)).toEqual(['Download the file', 'Apply it with kubectl', 'Learn more']);

    const download = within(steps[0]!).getByRole('link', { name: 'Download kubeconfig' });
    expect(download.getAttribute('href')).toBe('/api/kubeconfig');
    expect(download.getAttribute('target')).toBe('_blank');
    expect(await within(steps[0]!).findByText('ops.example.com-kubeconfig.yaml')).toBeTruthy();

    expect((await within(steps[1]!).findByTestId('kubeconfig-command')).textContent).toBe('KUBECONFIG=~/Downloads/ops.example.com-kubeconfig.yaml kubectl get canaries -A');

    const learn = within(steps[2]!).getByRole('link', { name: 'Learn more' });
    expect(learn.getAttribute('href')).toBe('/docs/KUBECTL.md');
    expect(learn.getAttribute('target')).toBe('_blank');
    expect(within(dialog).getByRole('link', { name: 'Help' }).getAttribute('href')).toBe('/docs/KUBECTL.md');
  });

  // Issue 38: a browser at 127.0.0.1 downloads localhost-kubeconfig.yaml (the server's public URL names it).
  it('names the file the server gives the download, not the host in the address bar', async () => {
    const { dialog, fetchMock } = renderModal('ops.internal-kubeconfig.yaml');
    expect(window.location.hostname).not.toBe('ops.internal');
    expect((await within(dialog).findByTestId('kubeconfig-command')).textContent).toBe('KUBECONFIG=~/Downloads/ops.internal-kubeconfig.yaml kubectl get canaries -A');
    expect(fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost').pathname)).toEqual(['/api/kubeconfig/file']);
  });

  it('says so when the name cannot be read, and guesses none', async () => {
    const { dialog } = renderModal(500);
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Could not read the name of the downloaded file: the server is restarting');
    expect(within(dialog).queryByTestId('kubeconfig-command')).toBeNull();
  });

  it('copies the command', async () => {
    const { user, dialog } = renderModal('localhost-kubeconfig.yaml');
    await within(dialog).findByTestId('kubeconfig-command');
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(within(dialog).getByRole('button', { name: 'Copy command' }));
    expect(writeText).toHaveBeenCalledWith('KUBECONFIG=~/Downloads/localhost-kubeconfig.yaml kubectl get canaries -A');
    expect(await screen.findByText('Copied to clipboard')).toBeTruthy();
  });

  it('closes with its Close button, the corner button and Escape', async () => {
    for (const close of ['footer', 'corner', 'escape'] as const) {
      const { user, dialog, onClose } = renderModal();
      const [corner, footer] = within(dialog).getAllByRole('button', { name: 'Close' });
      if (close === 'escape') await user.keyboard('{Escape}');
      else await user.click((close === 'footer' ? footer : corner)!);
      expect(onClose).toHaveBeenCalledTimes(1);
      cleanup();
    }
  });
});
