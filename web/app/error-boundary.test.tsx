// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Page } from './layout/page';
import { fakeServer, renderInShell } from './test-utils';

function Bomb({ explode }: { explode: boolean }) {
  if (explode) throw new Error('Kaboom', { cause: new Error('root cause') });
  return <p>All good</p>;
}

function Harness() {
  const [explode, setExplode] = useState(true);
  return (
    <Page title="Checks" extra={<button onClick={() => setExplode(false)}>Fix</button>}>
      <Bomb explode={explode} />
    </Page>
  );
}

describe('page error boundary', () => {
  afterEach(() => vi.restoreAllMocks());

  it("shows 'Sorry.. there was an error' with the message, stack and cause, and logs the error", async () => {
    fakeServer();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderInShell(<Harness />);
    expect(screen.getByText('Sorry.. there was an error')).toBeTruthy();
    expect(screen.getByText('Kaboom')).toBeTruthy();
    expect(screen.getByText(/Caused by: Error: root cause/)).toBeTruthy();
    // The top bar survives: the page can still be left or retried.
    expect(screen.getByRole('heading', { name: 'Checks', level: 1 })).toBeTruthy();
    expect(logged.mock.calls.some((call) => call.includes('Uncaught error in page'))).toBe(true);

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Fix' }));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('All good')).toBeTruthy();
  });
});
