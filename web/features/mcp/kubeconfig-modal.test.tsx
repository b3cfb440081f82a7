// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Providers } from '@web/app/providers';
import { testQueryClient } from '@web/app/test-utils';
import { KubeconfigModal } from './kubeconfig-modal';

function renderModal(host?: string) {
  const onClose = vi.fn();
  render(
    <Providers queryClient={testQueryClient()} sessionSource={undefined}>
      <KubeconfigModal open onClose={onClose} {...(host === undefined ? {} : { host })} />
    </Providers>,
  );
  return { onClose, user: userEvent.setup(), dialog: screen.getByRole('dialog', { name: 'Download and install kubeconfig' }) };
}

describe('Download and install kubeconfig', () => {
  it('has the three steps: download in a new tab, the kubectl command with the host-named file, Learn more', () => {
    const { dialog } = renderModal('ops.example.com');
    const steps = within(within(dialog).getByRole('list', { name: 'Steps' })).getAllByRole('listitem');
    expect(steps.map((step) => within(step).getByRole('heading').textContent)).toEqual(['Download the file', 'Apply it with kubectl', 'Learn more']);

    const download = within(steps[0]!).getByRole('link', { name: 'Download kubeconfig' });
    expect(download.getAttribute('href')).toBe('/api/kubeconfig');
    expect(download.getAttribute('target')).toBe('_blank');
    expect(within(steps[0]!).getByText('ops.example.com-kubeconfig.yaml')).toBeTruthy();

    expect(within(steps[1]!).getByTestId('kubeconfig-command').textContent).toBe('KUBECONFIG=~/Downloads/ops.example.com-kubeconfig.yaml kubectl get canaries -A');

    const learn = within(steps[2]!).getByRole('link', { name: 'Learn more' });
    expect(learn.getAttribute('href')).toBe('/docs/KUBECTL.md');
    expect(learn.getAttribute('target')).toBe('_blank');
    expect(within(dialog).getByRole('link', { name: 'Help' }).getAttribute('href')).toBe('/docs/KUBECTL.md');
  });

  it("names the file after the browser's host by default", () => {
    const { dialog } = renderModal();
    expect(within(dialog).getByTestId('kubeconfig-command').textContent).toBe(`KUBECONFIG=~/Downloads/${window.location.hostname}-kubeconfig.yaml kubectl get canaries -A`);
  });

  it('copies the command', async () => {
    const { user, dialog } = renderModal('localhost');
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(within(dialog).getByRole('button', { name: 'Copy command' }));
    expect(writeText).toHaveBeenCalledWith('KUBECONFIG=~/Downloads/localhost-kubeconfig.yaml kubectl get canaries -A');
    expect(await screen.findByText('Copied to clipboard')).toBeTruthy();
  });

  it('closes with its Close button, the corner button and Escape', async () => {
    for (const close of ['footer', 'corner', 'escape'] as const) {
      const { user, dialog, onClose } = renderModal('localhost');
      const [corner, footer] = within(dialog).getAllByRole('button', { name: 'Close' });
      if (close === 'escape') await user.keyboard('{Escape}');
      else await user.click((close === 'footer' ? footer : corner)!);
      expect(onClose).toHaveBeenCalledTimes(1);
      cleanup();
    }
  });
});
