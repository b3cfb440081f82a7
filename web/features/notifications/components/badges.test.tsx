// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TooltipProvider } from '@web/ui/primitives/tooltip';
import { RuleStatusBadge, SendStatusBadge } from './badges';
import { selectionSummary } from './status-filter';

describe('notification badges', () => {
  it('shows a rule status, with the error as the accessible name and focusable for its tooltip', () => {
    render(
      <TooltipProvider>
        <RuleStatusBadge status="ok" />
        <RuleStatusBadge status="error" error="spec.filter: undefined field 'nope'" />
        <RuleStatusBadge status="disabled" />
      </TooltipProvider>,
    );
    expect(screen.getByText('OK')).toBeTruthy();
    expect(screen.getByText('Disabled')).toBeTruthy();
    const error = screen.getByLabelText("Error: spec.filter: undefined field 'nope'");
    expect(error.getAttribute('tabindex')).toBe('0');
  });

  it('shows a send status in words', () => {
    render(<SendStatusBadge status="repeat-interval" />);
    expect(screen.getByText('Repeat interval')).toBeTruthy();
  });

  it('summarises a status selection as a count at 4 or more (spec §9)', () => {
    const label = (value: string) => value.toUpperCase();
    expect(selectionSummary([], label)).toBe('All');
    expect(selectionSummary(['sent', 'error'], label)).toBe('SENT, ERROR');
    expect(selectionSummary(['a', 'b', 'c', 'd'], label)).toBe('4 selected');
  });
});
