// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { futureRange } from './future';
import { relativeRange } from './relative';
import { TimeRangePicker } from './time-range-picker';
import type { FutureTimeRangeValue, TimeRangeValue } from './types';

let last: TimeRangeValue | null = null;
function Harness() {
  const [value, setValue] = useState<TimeRangeValue>(relativeRange('2d'));
  return (
    <TimeRangePicker
      value={value}
      onChange={(next) => {
        last = next;
        setValue(next);
      }}
    />
  );
}

beforeEach(() => {
  localStorage.clear();
  last = null;
  lastFuture = null;
});

describe('TimeRangePicker', () => {
  it('applies a quick range and remembers it', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Time range: Last 2 days' }));
    await user.click(screen.getByRole('button', { name: 'Yesterday' }));
    expect(last).toEqual({ type: 'mapped', display: 'Yesterday', from: 'now-1d/d', to: 'now-1d/d' });
    expect(screen.queryByRole('button', { name: 'Previous week' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Time range: Yesterday' }));
    const recent = screen.getByRole('region', { name: 'Recently used ranges' });
    expect(recent.textContent).toContain('Yesterday');
  });

  it('applies a relative range', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: /Time range/ }));
    await user.click(screen.getByRole('button', { name: 'Last 15 minutes' }));
    expect(last).toEqual({ type: 'relative', display: 'Last 15 minutes', range: '15m' });
  });

  it('keeps Submit disabled until From and To are filled, then applies an absolute range', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: /Time range/ }));
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    const submit = screen.getByRole('button', { name: 'Apply time range' });
    await user.clear(from);
    await user.clear(to);
    expect(submit).toHaveProperty('disabled', true);
    await user.type(from, '2024-01-02 00:00:00');
    expect(submit).toHaveProperty('disabled', true);
    await user.type(to, '2024-01-01');
    await user.click(submit);
    expect(screen.getByRole('alert').textContent).toBe('From must be before To');
    await user.clear(to);
    await user.type(to, '2024-01-03 12:00');
    await user.click(submit);
    expect(last).toEqual({
      type: 'absolute',
      display: '2024-01-02 00:00:00 to 2024-01-03 12:00:00',
      from: new Date(2024, 0, 2).toISOString(),
      to: new Date(2024, 0, 3, 12).toISOString(),
    });
  });

  it('fills From and To with whole days from the calendar', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: /Time range/ }));
    await user.click(screen.getByRole('button', { name: 'Show calendar' }));
    const days = screen.getAllByRole('gridcell').filter((cell) => cell.textContent === '10');
    const dayButton = days[0]?.querySelector('button');
    if (!dayButton) throw new Error('no day 10 in the calendar');
    await user.click(dayButton);
    const from = screen.getByLabelText<HTMLInputElement>('From').value;
    expect(from).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00$/);
  });
});

let lastFuture: FutureTimeRangeValue | null = null;
function FutureHarness() {
  const [value, setValue] = useState<FutureTimeRangeValue>(futureRange('1h'));
  return (
    <TimeRangePicker
      mode="future"
      value={value}
      onChange={(next) => {
        lastFuture = next;
        setValue(next);
      }}
    />
  );
}

describe('TimeRangePicker in future mode', () => {
  it("offers ranges ahead and 'Indefinitely', without past quick ranges or the recent list", async () => {
    const user = userEvent.setup();
    render(<FutureHarness />);
    await user.click(screen.getByRole('button', { name: 'Time range: Next 1 hour' }));
    const relative = screen.getByRole('region', { name: 'Relative ranges' });
    expect(within(relative).getByRole('button', { name: 'Next 1 hour' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(relative).getAllByRole('button').at(-1)?.textContent).toBe('Indefinitely');
    expect(screen.queryByRole('region', { name: 'Quick ranges' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Last 15 minutes' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Indefinitely' }));
    expect(lastFuture).toEqual({ type: 'relative', direction: 'future', display: 'Indefinitely', range: null });
    expect(screen.getByRole('button', { name: 'Time range: Indefinitely' })).toBeTruthy();
    // A future pick must not land in the past picker's recent list.
    expect(localStorage.getItem('recentTimeRanges')).toBeNull();
  });

  it('opens the absolute form at now … the chosen end and applies typed instants', async () => {
    const user = userEvent.setup();
    render(<FutureHarness />);
    await user.click(screen.getByRole('button', { name: /Time range/ }));
    expect(screen.getByLabelText<HTMLInputElement>('To').value).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await user.click(screen.getByRole('button', { name: 'Next 7 days' }));
    expect(lastFuture).toEqual(futureRange('7d'));
    await user.click(screen.getByRole('button', { name: /Time range/ }));
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    await user.clear(from);
    await user.type(from, '2030-01-01');
    await user.clear(to);
    await user.type(to, '2030-01-02');
    await user.click(screen.getByRole('button', { name: 'Apply time range' }));
    expect(lastFuture).toEqual({
      type: 'absolute',
      display: '2030-01-01 00:00:00 to 2030-01-02 00:00:00',
      from: new Date(2030, 0, 1).toISOString(),
      to: new Date(2030, 0, 2).toISOString(),
    });
  });

  it('leaves the To field empty for an endless range', async () => {
    const user = userEvent.setup();
    render(<FutureHarness />);
    await user.click(screen.getByRole('button', { name: /Time range/ }));
    await user.click(screen.getByRole('button', { name: 'Indefinitely' }));
    await user.click(screen.getByRole('button', { name: /Time range/ }));
    expect(screen.getByLabelText<HTMLInputElement>('To').value).toBe('');
  });
});
