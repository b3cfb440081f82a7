// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UiText } from '../kratos/schema';
import { FlowMessages, useAutoClear } from './messages';

function Messages({ messages, version }: { messages: UiText[]; version: unknown }) {
  return <FlowMessages messages={useAutoClear(messages, version)} />;
}

describe('flow messages', () => {
  afterEach(() => vi.useRealTimers());

  it('clears outcomes after 10 s (spec §9) and keeps instructions', () => {
    vi.useFakeTimers();
    const messages: UiText[] = [
      { id: 1050001, text: 'Your changes have been saved.', type: 'success' },
      { id: 4000006, text: 'The email address or password is wrong.', type: 'error' },
      { id: 1060003, text: 'Enter the code below.', type: 'info' },
    ];
    const version = {};
    const view = render(<Messages messages={messages} version={version} />);
    expect(screen.getByRole('alert').textContent).toBe('The email address or password is wrong.');
    act(() => {
      vi.advanceTimersByTime(9_900);
    });
    expect(screen.getByText('Your changes have been saved.')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.queryByText('Your changes have been saved.')).toBeNull();
    expect(screen.queryByText('The email address or password is wrong.')).toBeNull();
    expect(screen.getByText('Enter the code below.')).toBeTruthy();

    // A new answer shows its messages again.
    view.rerender(<Messages messages={messages} version={{}} />);
    expect(screen.getByText('Your changes have been saved.')).toBeTruthy();
  });
});
