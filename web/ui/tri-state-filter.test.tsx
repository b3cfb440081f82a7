// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { nextTriState, TriStateFilter, type TriState } from './tri-state-filter';

describe('nextTriState', () => {
  it('sets the clicked state, and clicking the active state resets to 0', () => {
    expect(nextTriState(0, 1)).toBe(1);
    expect(nextTriState(0, -1)).toBe(-1);
    expect(nextTriState(1, -1)).toBe(-1);
    expect(nextTriState(1, 1)).toBe(0);
    expect(nextTriState(-1, -1)).toBe(0);
  });
});

function Harness() {
  const [value, setValue] = useState<TriState>(0);
  return (
    <>
      <TriStateFilter label="env=prod" value={value} onChange={setValue} />
      <output>{value}</output>
    </>
  );
}

describe('TriStateFilter', () => {
  it('includes, excludes and resets on clicks', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const include = screen.getByRole('button', { name: 'Include env=prod' });
    const exclude = screen.getByRole('button', { name: 'Exclude env=prod' });
    await user.click(include);
    expect(screen.getByRole('status').textContent).toBe('1');
    expect(include.getAttribute('aria-pressed')).toBe('true');
    await user.click(exclude);
    expect(screen.getByRole('status').textContent).toBe('-1');
    await user.click(exclude);
    expect(screen.getByRole('status').textContent).toBe('0');
  });
});
