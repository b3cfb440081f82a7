// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { setDisplayPreference } from '@web/lib/preferences';
import { DateTime } from './date-time';

describe('<DateTime/>', () => {
  beforeEach(() => sessionStorage.clear());

  it('follows the date format and time zone preferences', () => {
    render(<DateTime value="2024-03-05T10:30:01.999Z" />);
    act(() => setDisplayPreference('timeZone', 'UTC'));
    expect(screen.getByText('2024-03-05 10:30:01.999')).toBeTruthy();
    act(() => setDisplayPreference('dateFormat', 'full'));
    expect(screen.getByText('Mar 5 10:30:01.999')).toBeTruthy();
    act(() => setDisplayPreference('timeZone', 'Asia/Kolkata'));
    expect(screen.getByText('Mar 5 16:00:01.999')).toBeTruthy();
    expect(screen.getByText('Mar 5 16:00:01.999').getAttribute('datetime')).toBe('2024-03-05T10:30:01.999Z');
  });

  it('renders the empty text for empty and zero dates', () => {
    render(<DateTime value="0001-01-01T00:00:00Z" empty="never" />);
    expect(screen.getByText('never')).toBeTruthy();
  });
});
