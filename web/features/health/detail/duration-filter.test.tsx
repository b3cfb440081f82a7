// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DURATION_CHOICES, DURATION_ERROR, parseDuration } from './duration-filter';
import { DurationFilterField } from './duration-filter-field';

describe('check history duration filter (spec §5)', () => {
  it('offers All, 100ms, 500ms, 1s, 5s, 10s, 30s and a custom value', () => {
    expect(DURATION_CHOICES).toEqual(['All', '100ms', '500ms', '1s', '5s', '10s', '30s', 'custom']);
  });

  it('reads milliseconds and seconds (×1000)', () => {
    expect(parseDuration('All')).toEqual({ ms: 0 });
    expect(parseDuration('100ms')).toEqual({ ms: 100 });
    expect(parseDuration('30s')).toEqual({ ms: 30_000 });
    expect(parseDuration(' 1.5s ')).toEqual({ ms: 1500 });
    expect(parseDuration('250 ms')).toEqual({ ms: 250 });
  });

  it('refuses anything else with the spec’s message', () => {
    for (const text of ['', '5', '5m', '1h', 'ms', '-5s', 'abc', '5sec']) expect(parseDuration(text)).toEqual({ error: DURATION_ERROR });
    expect(DURATION_ERROR).toBe('duration is allowed only in milli seconds & seconds');
  });

  it('applies a choice at once and a custom value on Enter, showing the error for a bad one', async () => {
    const onChange = vi.fn();
    render(<DurationFilterField onChange={onChange} />);
    const select = screen.getByLabelText('Duration');
    await userEvent.selectOptions(select, '500ms');
    expect(onChange).toHaveBeenLastCalledWith(500);
    await userEvent.selectOptions(select, 'custom');
    const custom = screen.getByLabelText('Custom duration');
    await userEvent.type(custom, '2 minutes{Enter}');
    expect(screen.getByRole('alert').textContent).toBe(DURATION_ERROR);
    expect(onChange).toHaveBeenCalledTimes(1);
    await userEvent.clear(custom);
    await userEvent.type(custom, '2s{Enter}');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(onChange).toHaveBeenLastCalledWith(2000);
  });
});
