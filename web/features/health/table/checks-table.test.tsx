// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { check } from '../test-fixtures';
import { setDisplayPreference } from '@web/lib/preferences';
import { HealthCell, LatencyCell, UptimeCell } from './cells';
import { ChecksTable } from './checks-table';

const uptime = (passed: number, failed: number) => ({ passed, failed, last_pass: null, last_fail: null });
const latency = (p95: number | null) => ({ p50: p95, p95, p97: p95, p99: p95, rolling1h: p95 });

const checks = [
  check({ id: 'a', name: 'api', canary_name: 'web', status: 'healthy', uptime: uptime(199, 1), latency: latency(250) }),
  check({ id: 'b', name: 'db port', canary_name: 'web', status: 'unhealthy', uptime: uptime(0, 10), latency: latency(1500) }),
  check({ id: 'c', name: 'disk', canary_name: 'host', status: 'healthy', uptime: uptime(5, 0), latency: latency(90_000) }),
];

function renderTable(props: Partial<Parameters<typeof ChecksTable>[0]> = {}) {
  const onOpenCheck = vi.fn();
  const onSortChange = vi.fn();
  render(<ChecksTable checks={checks} groupBy="canary_name" sortBy="name" sortDesc={false} isLoading={false} onOpenCheck={onOpenCheck} onSortChange={onSortChange} {...props} />);
  return { onOpenCheck, onSortChange };
}

describe('uptime and latency cells (spec §9)', () => {
  it('shows uptime as a percentage with one decimal', () => {
    render(<UptimeCell check={{ uptime: uptime(199, 1) }} />);
    expect(screen.getByText('99.5%')).toBeTruthy();
  });
  it('switches latency units at 1000 ms and 60000 ms', () => {
    const { rerender } = render(<LatencyCell ms={999} />);
    expect(screen.getByText('999ms')).toBeTruthy();
    rerender(<LatencyCell ms={1500} />);
    expect(screen.getByText('1.5s')).toBeTruthy();
    rerender(<LatencyCell ms={90_000} />);
    expect(screen.getByText('1.5m')).toBeTruthy();
  });
});

describe('the strip of recent results (Health column)', () => {
  it('shows the newest results oldest first, coloured by outcome, each with its exact time', () => {
    sessionStorage.clear();
    setDisplayPreference('timeZone', 'UTC');
    setDisplayPreference('dateFormat', 'timestamp');
    const recent = { time: ['2024-01-01T10:02:00.000Z', '2024-01-01T10:01:00.000Z', '2024-01-01T10:00:00.000Z'].map(Date.parse), status: [false, true, true] };
    render(<HealthCell check={check({ status: 'unhealthy', recent_statuses: recent })} />);
    const strip = screen.getByRole('img', { name: '3 latest results: 2 passed, 1 failed' });
    const bars = [...strip.querySelectorAll('[data-status]')];
    expect(bars.map((bar) => bar.getAttribute('data-status'))).toEqual(['passed', 'passed', 'failed']);
    expect(bars.map((bar) => bar.getAttribute('title'))).toEqual(['Passed 2024-01-01 10:00:00.000', 'Passed 2024-01-01 10:01:00.000', 'Failed 2024-01-01 10:02:00.000']);
    // Fewer results than slots: empty slots first, so every strip ends at the same place.
    expect(strip.children).toHaveLength(20);
  });

  it('shows no strip for a check without results, or when the answer has none', () => {
    render(<HealthCell check={check({ recent_statuses: { time: [], status: [] } })} />);
    render(<HealthCell check={check()} />);
    expect(screen.queryByRole('img', { name: /latest result/ })).toBeNull();
  });
});

describe('ChecksTable', () => {
  it('groups by canary: group rows show mixed health and passing/total, and expand', async () => {
    renderTable();
    const table = screen.getByRole('table', { name: 'Health checks' });
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Expand', 'Checks', 'Health', 'Uptime', 'Latency', 'Transition']);
    const web = screen.getByRole('row', { name: /web/ });
    expect(within(web).getByRole('img', { name: 'Mixed' }).dataset.tone).toBe('mixed');
    expect(within(web).getByText('0/2')).toBeTruthy();
    const host = screen.getByRole('row', { name: /host/ });
    expect(within(host).getByText('1/1')).toBeTruthy();
    expect(screen.queryByText('api')).toBeNull();

    await userEvent.click(web);
    expect(web.getAttribute('aria-expanded')).toBe('true');
    const api = screen.getByRole('row', { name: /api/ });
    expect(within(api).getByText('99.5%')).toBeTruthy();
    expect(within(api).getByText('250ms')).toBeTruthy();
    expect(within(screen.getByRole('row', { name: /db port/ })).getByText('1.5s')).toBeTruthy();
  });

  it('opens a check from its row', async () => {
    const { onOpenCheck } = renderTable({ groupBy: 'no-group' });
    await userEvent.click(screen.getByRole('row', { name: /disk/ }));
    expect(onOpenCheck).toHaveBeenCalledWith(expect.objectContaining({ id: 'c' }));
  });

  it('sorts by one column at a time and reports a removed sort', async () => {
    const { onSortChange } = renderTable({ groupBy: 'no-group' });
    const names = () => screen.getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell')[0]?.textContent);
    expect(names()).toEqual(['api', 'db port', 'disk']);
    await userEvent.click(screen.getByRole('button', { name: 'Uptime' }));
    expect(onSortChange).toHaveBeenLastCalledWith({ sortBy: 'uptime', sortDesc: true });
    await userEvent.click(screen.getByRole('button', { name: 'Checks' }));
    expect(onSortChange).toHaveBeenLastCalledWith({ sortBy: 'name', sortDesc: true });
  });

  it('orders by the sort it is given, missing values last', () => {
    renderTable({ groupBy: 'no-group', sortBy: 'latency', sortDesc: true });
    const names = screen.getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell')[0]?.textContent);
    expect(names).toEqual(['disk', 'db port', 'api']);
  });

  it("says 'No data available' when empty", () => {
    renderTable({ checks: [] });
    expect(screen.getByText('No data available')).toBeTruthy();
  });
});
