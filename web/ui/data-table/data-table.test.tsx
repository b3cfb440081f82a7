// @vitest-environment jsdom
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DataTable, type ColumnDef, type PaginationState, type SortingState } from './index';
import { clampPageNumber, pageCountOf } from './pagination';
import { readStoredPageSize, storePageSize } from './page-size';
import { sortingFromParams, sortingToParams } from './sorting';

interface Item {
  id: string;
  name: string;
  team: string;
  size: number;
}
const columns: ColumnDef<Item>[] = [
  { accessorKey: 'name', header: 'Name' },
  { accessorKey: 'team', header: 'Team' },
  { accessorKey: 'size', header: 'Size', aggregationFn: 'sum', aggregatedCell: ({ getValue }) => `Σ ${String(getValue())}` },
];
const items: Item[] = [
  { id: '1', name: 'bravo', team: 'red', size: 2 },
  { id: '2', name: 'alpha', team: 'blue', size: 1 },
  { id: '3', name: 'charlie', team: 'red', size: 3 },
];
const bodyNames = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).queryAllByRole('cell')[0]?.textContent ?? '')
    .filter(Boolean);

beforeEach(() => localStorage.clear());

describe('DataTable', () => {
  it("says 'No data available' when empty and 'loading data...' while loading", () => {
    const { rerender } = render(<DataTable data={[]} columns={columns} isLoading />);
    expect(screen.getByText('loading data...')).toBeTruthy();
    rerender(<DataTable data={[]} columns={columns} />);
    expect(screen.getByText('No data available')).toBeTruthy();
  });

  it('sorts by one column, cycling ascending, descending and none', async () => {
    const user = userEvent.setup();
    render(<DataTable data={items} columns={columns} getRowId={(r) => r.id} />);
    expect(bodyNames()).toEqual(['bravo', 'alpha', 'charlie']);
    const nameHeader = screen.getByRole('button', { name: /Name/ });
    await user.click(nameHeader);
    expect(bodyNames()).toEqual(['alpha', 'bravo', 'charlie']);
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('ascending');
    await user.click(nameHeader);
    expect(bodyNames()).toEqual(['charlie', 'bravo', 'alpha']);
    await user.click(nameHeader);
    expect(bodyNames()).toEqual(['bravo', 'alpha', 'charlie']);
    // A second column replaces the first: single-column sorting.
    await user.click(screen.getByRole('button', { name: /Team/ }));
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('none');
  });

  it('reports sorting to the page in server mode without sorting rows itself', async () => {
    const user = userEvent.setup();
    const onSortingChange = vi.fn<(next: SortingState) => void>();
    render(<DataTable data={items} columns={columns} manualSorting sorting={[]} onSortingChange={onSortingChange} />);
    await user.click(screen.getByRole('button', { name: /Name/ }));
    expect(onSortingChange).toHaveBeenCalledWith([{ id: 'name', desc: false }]);
    expect(bodyNames()).toEqual(['bravo', 'alpha', 'charlie']);
  });

  it('groups rows and expands a group with click or keyboard', async () => {
    const user = userEvent.setup();
    render(<DataTable data={items} columns={columns} grouping={['team']} />);
    const groupRows = screen.getAllByRole('row').filter((row) => row.hasAttribute('aria-expanded'));
    expect(groupRows).toHaveLength(2);
    const red = groupRows.find((row) => row.textContent?.includes('red'));
    expect(red?.textContent).toContain('(2)');
    expect(red?.textContent).toContain('Σ 5');
    red?.focus();
    await user.keyboard('{Enter}');
    expect(red?.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('charlie')).toBeTruthy();
  });

  it('opens a row with a click or Enter', async () => {
    const user = userEvent.setup();
    const onRowClick = vi.fn<(row: Item) => void>();
    render(<DataTable data={items} columns={columns} onRowClick={onRowClick} />);
    await user.click(screen.getByText('alpha'));
    expect(onRowClick).toHaveBeenLastCalledWith(items[1]);
    const row = screen.getByText('charlie').closest('tr');
    row?.focus();
    await user.keyboard('{Enter}');
    expect(onRowClick).toHaveBeenLastCalledWith(items[2]);
  });

  it('renders only a window of many rows', () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({ id: String(i), name: `row ${i}`, team: 't', size: i }));
    render(<DataTable data={many} columns={columns} />);
    const rendered = screen.getAllByRole('row').length - 1;
    expect(rendered).toBeGreaterThan(10);
    expect(rendered).toBeLessThan(100);
  });
});

function PagedTable({ total }: { total: number }) {
  const [state, setState] = useState<PaginationState>({ pageIndex: 0, pageSize: 50 });
  return (
    <>
      <DataTable data={items} columns={columns} pagination={{ ...state, totalRows: total, onChange: setState }} />
      <output>{`${state.pageIndex}/${state.pageSize}`}</output>
    </>
  );
}

describe('server-side pagination', () => {
  it('moves between pages, clamps the typed page and persists the page size', async () => {
    const user = userEvent.setup();
    render(<PagedTable total={420} />);
    expect(screen.getByText(/Showing 1–50 of 420/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(screen.getByRole('status').textContent).toBe('1/50');
    const input = screen.getByRole('spinbutton', { name: 'Page number' });
    expect(input.getAttribute('min')).toBe('1');
    expect(input.getAttribute('max')).toBe('9');
    await user.clear(input);
    await user.type(input, '99{Enter}');
    expect(screen.getByRole('status').textContent).toBe('8/50');
    await user.selectOptions(screen.getByLabelText('Rows per page'), '200');
    expect(screen.getByRole('status').textContent).toBe('0/200');
    expect(localStorage.getItem('pageSize')).toBe('200');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['50', '100', '200']);
    fireEvent.click(screen.getByRole('button', { name: 'Last page' }));
    expect(screen.getByRole('status').textContent).toBe('2/200');
  });
});

describe('helpers', () => {
  it('counts pages and clamps page numbers to 1..pageCount', () => {
    expect(pageCountOf(0, 50)).toBe(1);
    expect(pageCountOf(101, 50)).toBe(3);
    expect(clampPageNumber(0, 2, 5)).toBe(1);
    expect(clampPageNumber(7, 2, 5)).toBe(5);
    expect(clampPageNumber(Number.NaN, 2, 5)).toBe(2);
  });
  it('keeps only spec page sizes in storage', () => {
    expect(readStoredPageSize()).toBe(50);
    storePageSize(100);
    expect(readStoredPageSize()).toBe(100);
    localStorage.setItem('pageSize', '77');
    expect(readStoredPageSize()).toBe(50);
  });
  it('maps sorting to and from URL parameters', () => {
    expect(sortingFromParams('name', 'desc')).toEqual([{ id: 'name', desc: true }]);
    expect(sortingFromParams('evil', 'asc', ['name'])).toEqual([]);
    expect(sortingToParams([{ id: 'name', desc: false }])).toEqual({ sortBy: 'name', sortOrder: 'asc' });
    expect(sortingToParams([])).toEqual({});
  });
});
