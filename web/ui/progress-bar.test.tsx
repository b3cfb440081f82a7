// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProgressBar, progressTone, progressWidth } from './progress-bar';

describe('progressTone', () => {
  it('is green up to 75, orange above 75, red above 90, none below 1', () => {
    expect(progressTone(0)).toBe('none');
    expect(progressTone(0.5)).toBe('none');
    expect(progressTone(1)).toBe('green');
    expect(progressTone(75)).toBe('green');
    expect(progressTone(75.1)).toBe('orange');
    expect(progressTone(90)).toBe('orange');
    expect(progressTone(91)).toBe('red');
    expect(progressTone(Number.NaN)).toBe('none');
  });
});

describe('progressWidth', () => {
  it('clamps the drawn value to 5..100', () => {
    expect(progressWidth(0)).toBe(5);
    expect(progressWidth(50)).toBe(50);
    expect(progressWidth(250)).toBe(100);
  });
});

describe('ProgressBar', () => {
  it('renders the tone and clamped width', () => {
    render(<ProgressBar value={95} label="Disk" />);
    const bar = screen.getByRole('progressbar', { name: 'Disk' });
    expect(bar.dataset.tone).toBe('red');
    expect(bar.getAttribute('aria-valuenow')).toBe('95');
  });
});
