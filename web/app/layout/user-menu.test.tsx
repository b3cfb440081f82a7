// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeServer, renderInShell } from '../test-utils';
import { FRONTEND_VERSION, versionLine } from '../version';
import { UserMenu } from './user-menu';

describe('user menu', () => {
  it('shows the version line with the backend version', async () => {
    fakeServer({ version: '2.3.4' });
    renderInShell(<UserMenu />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'User menu' }));
    expect((await screen.findByText(`frontend ${FRONTEND_VERSION}, backend 2.3.4`)).textContent).toBeTruthy();
  });

  it("shows 'NA' when the backend version cannot be read", async () => {
    fakeServer({ version: 500 });
    renderInShell(<UserMenu />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'User menu' }));
    expect(await screen.findByText(`frontend ${FRONTEND_VERSION}, backend NA`)).toBeTruthy();
    expect(versionLine('1.4.50', undefined)).toBe('frontend 1.4.50, backend NA');
  });

  it('has no greeting and no entries of missing features without a signed-in user', async () => {
    fakeServer();
    renderInShell(<UserMenu />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'User menu' }));
    await screen.findByTestId('version-line');
    expect(screen.queryByText(/^Hi /)).toBeNull();
    for (const entry of ['Your Profile', 'Download kubeconfig', 'Setup MCP', 'Sign out']) expect(screen.queryByText(entry)).toBeNull();
  });

  it('greets the signed-in user with avatar initials', async () => {
    fakeServer();
    renderInShell(<UserMenu />, { sessionSource: { load: async () => ({ id: '1', name: 'Ada Lovelace', roles: ['admin'], permissions: {} }) } });
    expect(await screen.findByText('AL')).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'User menu' }));
    expect(await screen.findByText('Hi Ada Lovelace')).toBeTruthy();
  });

  it('links Your Profile and signs out back to the current path and query', async () => {
    fakeServer();
    const signOut = vi.fn(async () => undefined);
    const user = userEvent.setup();
    renderInShell(<UserMenu />, { path: '/health?tab=x', sessionSource: { load: async () => ({ id: '1', name: 'Ada Lovelace', roles: ['admin'], permissions: {} }), signOut } });
    await screen.findByText('AL');
    await user.click(screen.getByRole('button', { name: 'User menu' }));
    const profile = await screen.findByRole('menuitem', { name: 'Your Profile' });
    expect(profile.getAttribute('href')).toBe(`/profile-settings?return_to=${encodeURIComponent('/health?tab=x')}`);
    expect((await screen.findByRole('menuitem', { name: 'Setup MCP' })).getAttribute('href')).toBe('/settings/tokens?dialog=mcp');
    expect(screen.getByRole('menuitem', { name: 'Download kubeconfig' })).toBeTruthy();
    await user.click(screen.getByRole('menuitem', { name: 'Sign out' }));
    expect(signOut).toHaveBeenCalledWith('/health?tab=x');
  });

  it('Download kubeconfig opens /api/kubeconfig in a new tab and shows the steps, keyboard first', async () => {
    fakeServer({ kubeconfigFile: 'ops.internal-kubeconfig.yaml' });
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const user = userEvent.setup();
    renderInShell(<UserMenu />, { sessionSource: { load: async () => ({ id: '1', name: 'Ada Lovelace', roles: ['viewer'], permissions: {} }) } });
    await screen.findByText('AL');
    screen.getByRole('button', { name: 'User menu' }).focus();
    await user.keyboard('{Enter}');
    (await screen.findByRole('menuitem', { name: 'Download kubeconfig' })).focus();
    await user.keyboard('{Enter}');
    expect(open).toHaveBeenCalledWith('/api/kubeconfig', '_blank', 'noopener');
    const dialog = await screen.findByRole('dialog', { name: 'Download and install kubeconfig' });
    // The name the server gives the download (its public URL's host), whatever host the browser is at.
    expect((await within(dialog).findByTestId('kubeconfig-command')).textContent).toBe('KUBECONFIG=~/Downloads/ops.internal-kubeconfig.yaml kubectl get canaries -A');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Download and install kubeconfig' })).toBeNull();
    expect(open).toHaveBeenCalledTimes(1);
    open.mockRestore();
  });
});
