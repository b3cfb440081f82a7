// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeServer, renderInShell, signedIn } from '../test-utils';
import { Page } from './page';

describe('page shell', () => {
  it('sets the document title with the product suffix and renders the top bar', () => {
    fakeServer();
    renderInShell(
      <Page title="Feature Flags" extra={<span>extra content</span>}>
        <p>body</p>
      </Page>,
    );
    expect(document.title).toBe('Feature Flags | Watchkeeper');
    expect(screen.getByRole('heading', { level: 1, name: 'Feature Flags' })).toBeTruthy();
    expect(screen.getByText('extra content')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Preferences' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Docs' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'User menu' })).toBeTruthy();
    // No refresh button without onRefresh.
    expect(screen.queryByRole('button', { name: 'Refresh' })).toBeNull();
  });

  it('has a notifications bell to /notifications while the feature is on, and none when it is off', async () => {
    fakeServer();
    const { unmount } = renderInShell(
      <Page title="Health">
        <p>body</p>
      </Page>,
      { sessionSource: signedIn({ permissions: { notifications: ['read'] } }) },
    );
    const bell = await screen.findByRole('link', { name: 'Notifications' });
    expect(bell.getAttribute('href')).toBe('/notifications');
    unmount();

    fakeServer({ properties: [{ name: 'notifications.disable', value: 'true' }] });
    renderInShell(
      <Page title="Health">
        <p>body</p>
      </Page>,
      { sessionSource: signedIn({ permissions: { notifications: ['read'] } }) },
    );
    await screen.findByRole('heading', { level: 1, name: 'Health' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('link', { name: 'Notifications' })).toBeNull();
  });

  it('has a refresh button that spins while refreshing', async () => {
    fakeServer();
    const onRefresh = vi.fn();
    renderInShell(
      <Page title="Jobs" onRefresh={onRefresh} refreshing>
        <p>body</p>
      </Page>,
    );
    const button = screen.getByRole('button', { name: 'Refresh' });
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.querySelector('svg')?.getAttribute('class')).toContain('animate-spin');
    await userEvent.setup().click(button);
    expect(onRefresh).toHaveBeenCalledOnce();
  });
});
