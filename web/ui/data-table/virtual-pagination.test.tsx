// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DataTable, type ColumnDef, type VirtualPagination } from './index';
import { nextVirtualPageSize } from './virtual-pagination';

interface Item {
  id: string;
  name: string;
}
const columns: ColumnDef<Item>[] = [{ accessorKey: 'name', header: 'Name' }];
const makeRows = (count: number): Item[] => Array.from({ length: count }, (_, i) => ({ id: String(i), name: `row ${i}` }));

/**
 * A page keeping the size in its state and a pretend server: a larger size starts a fetch (isLoading,
 * previous rows kept) that the test finishes with the 'Finish fetch' button.
 */
function VirtualPage({ total, initialSize, onAsk }: { total: number; initialSize: number; onAsk: (size: number) => void }) {
  const [pageSize, setPageSize] = useState(initialSize);
  const [loaded, setLoaded] = useState(initialSize);
  const all = makeRows(total);
  return (
    <>
      <DataTable
        data={all.slice(0, loaded)}
        columns={columns}
        getRowId={(row) => row.id}
        isLoading={loaded < pageSize}
        pagination={{
          mode: 'virtual',
          pageSize,
          totalRows: total,
          onPageSizeChange: (next) => {
            onAsk(next);
            setPageSize(next);
          },
        }}
      />
      <button type="button" onClick={() => setLoaded(pageSize)}>
        Finish fetch
      </button>
    </>
  );
}

const bodyRowCount = () => screen.getAllByRole('row').filter((row) => row.textContent?.startsWith('row ')).length;

describe('virtual pagination', () => {
  it('asks for double the page size at the end, showing a loading row until the rows arrive', async () => {
    const user = userEvent.setup();
    const onAsk = vi.fn<(size: number) => void>();
    render(<VirtualPage total={12} initialSize={5} onAsk={onAsk} />);
    // Five rows fit on screen, so the end is in view at once.
    expect(onAsk.mock.calls).toEqual([[10]]);
    expect(screen.getByText('loading data...')).toBeTruthy();
    expect(bodyRowCount()).toBe(5);
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Finish fetch' }));
    expect(bodyRowCount()).toBe(10);
    // Still at the end and two more rows exist: doubled again.
    expect(onAsk.mock.calls).toEqual([[10], [20]]);
    await user.click(screen.getByRole('button', { name: 'Finish fetch' }));
    expect(bodyRowCount()).toBe(12);
    expect(screen.queryByText('loading data...')).toBeNull();
    expect(onAsk).toHaveBeenCalledTimes(2);
  });

  it('waits for the user to scroll to the end of the loaded rows', async () => {
    const user = userEvent.setup();
    const onAsk = vi.fn<(size: number) => void>();
    render(<VirtualPage total={420} initialSize={50} onAsk={onAsk} />);
    expect(bodyRowCount()).toBeLessThan(50);
    expect(onAsk).not.toHaveBeenCalled();

    const scroller = screen.getByRole('table').parentElement;
    if (!scroller) throw new Error('no scroll container');
    // jsdom does no layout; report the scroll position the browser would.
    Object.defineProperty(scroller, 'scrollTop', { configurable: true, value: 50 * 35 });
    act(() => {
      fireEvent.scroll(scroller);
    });
    expect(screen.getByText('row 49')).toBeTruthy();
    expect(onAsk.mock.calls).toEqual([[100]]);
    expect(screen.getByText('loading data...')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Finish fetch' }));
    expect(screen.queryByText('loading data...')).toBeNull();
    // The new rows extend below the viewport: no further request until the user scrolls on.
    expect(onAsk).toHaveBeenCalledTimes(1);
  });

  it('does not ask while a fetch is under way, and asks once it has finished', () => {
    const onPageSizeChange = vi.fn<(size: number) => void>();
    const data = makeRows(5);
    const pagination: VirtualPagination = { mode: 'virtual', pageSize: 5, totalRows: 12, onPageSizeChange };
    const { rerender } = render(<DataTable data={data} columns={columns} isLoading pagination={pagination} />);
    expect(onPageSizeChange).not.toHaveBeenCalled();
    expect(screen.getByText('loading data...')).toBeTruthy();
    rerender(<DataTable data={data} columns={columns} pagination={pagination} />);
    expect(onPageSizeChange).toHaveBeenCalledExactlyOnceWith(10);
    // Re-rendering with the same rows does not ask again.
    rerender(<DataTable data={data} columns={columns} pagination={{ ...pagination }} />);
    expect(onPageSizeChange).toHaveBeenCalledTimes(1);
  });

  it("shows the table's own loading and empty states before any row", () => {
    const pagination: VirtualPagination = { mode: 'virtual', pageSize: 50, totalRows: 0, onPageSizeChange: () => undefined };
    const { rerender } = render(<DataTable data={[]} columns={columns} isLoading pagination={pagination} />);
    expect(screen.getAllByText('loading data...')).toHaveLength(1);
    rerender(<DataTable data={[]} columns={columns} pagination={pagination} />);
    expect(screen.getByText('No data available')).toBeTruthy();
  });
});

describe('nextVirtualPageSize', () => {
  it('doubles a full page while more rows exist', () => {
    expect(nextVirtualPageSize(50, 50, 420)).toBe(100);
    expect(nextVirtualPageSize(400, 400, 420)).toBe(800);
  });
  it('asks nothing when all rows are here or the current size is not filled yet', () => {
    expect(nextVirtualPageSize(420, 800, 420)).toBeNull();
    expect(nextVirtualPageSize(50, 50, 50)).toBeNull();
    expect(nextVirtualPageSize(50, 100, 420)).toBeNull();
    expect(nextVirtualPageSize(0, 0, 10)).toBe(2);
  });
});
