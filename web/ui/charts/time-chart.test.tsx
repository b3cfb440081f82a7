// @vitest-environment jsdom
import { formatLatency } from '@common/format/latency';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setDisplayPreference } from '@web/lib/preferences';
import type { ChartUnit, TimeChartProps } from './types';
import UPlotChart from './uplot-chart';

/**
 * uPlot drawn in jsdom: jsdom has no canvas, so the 2D context here records the text uPlot draws (the axes'
 * ticks and titles) and ignores the rest; everything else (scales, cursor, selection, hooks) is uPlot's own.
 */
const drawn: string[] = [];
const original = { getContext: HTMLCanvasElement.prototype.getContext, Path2D: (globalThis as { Path2D?: unknown }).Path2D };
// uPlot asks matchMedia for the pixel ratio as it loads, before any test runs; jsdom has none.
vi.hoisted(() => {
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia;
});

function recordingContext(): CanvasRenderingContext2D {
  const state: Record<string | symbol, unknown> = {};
  return new Proxy(state, {
    get(target, key) {
      if (key === 'fillText') return (text: string) => drawn.push(String(text));
      if (key === 'measureText') return (text: string) => ({ width: String(text).length * 6 });
      if (key in target) return target[key];
      return () => undefined;
    },
    set(target, key, value) {
      target[key] = value;
      return true;
    },
  }) as unknown as CanvasRenderingContext2D;
}

beforeAll(() => {
  HTMLCanvasElement.prototype.getContext = (() => recordingContext()) as unknown as typeof HTMLCanvasElement.prototype.getContext;
  (globalThis as { Path2D?: unknown }).Path2D = class {
    constructor() {
      return new Proxy(this, { get: (target, key) => (key in target ? Reflect.get(target, key) : () => undefined) });
    }
  };
});
afterAll(() => {
  HTMLCanvasElement.prototype.getContext = original.getContext;
  (globalThis as { Path2D?: unknown }).Path2D = original.Path2D;
});

const latency: ChartUnit = { key: 'ms', label: 'Latency', format: formatLatency };
const from = Date.parse('2024-01-01T10:00:00Z');
const minute = 60_000;
const times = [0, 1, 2, 3, 5].map((i) => from + i * 10 * minute);

function chart(extra: Partial<TimeChartProps> = {}): TimeChartProps {
  return {
    label: 'Latency over the range',
    times,
    series: [{ label: 'Mean latency', values: [120, 80, 1500, 95, 40], color: '#2563eb', unit: latency }],
    span: { from, to: from + 60 * minute },
    step: 10 * minute,
    strip: { label: 'Results: 4 passed, 2 failed', tones: ['pass', 'fail', 'mixed', 'pass', 'pass'] },
    details: (index) => [`bucket ${index}`],
    ...extra,
  };
}

/** The plot's interaction layer, where uPlot listens to the mouse (jsdom puts it at the page's 0,0), once laid out. */
async function plotLayer(): Promise<{ over: HTMLElement; width: number }> {
  return waitFor(() => {
    const over = document.querySelector<HTMLElement>('.u-over');
    const width = parseFloat(over?.style.width ?? '');
    if (!over || !(width > 0)) throw new Error('no plot drawn yet');
    return { over, width };
  });
}

describe('<TimeChart/> (uPlot)', () => {
  beforeEach(() => {
    sessionStorage.clear();
    drawn.length = 0;
    setDisplayPreference('timeZone', 'UTC');
  });

  it('draws a time axis in the person’s date format and a value axis with its unit', async () => {
    setDisplayPreference('dateFormat', 'full');
    render(<UPlotChart {...chart()} />);
    await waitFor(() => expect(drawn).toContain('Latency'));
    // Ticks of the value axis carry the unit; the time axis reads 'Jan 1 10:30' (full, to the minute).
    expect(drawn.some((text) => /^\d+(ms|\.\d+s|s)$/.test(text) && text !== '0ms')).toBe(true);
    expect(drawn).toContain('0ms');
    expect(drawn.some((text) => /^Jan 1 1[01]:\d\d$/.test(text))).toBe(true);
    expect(screen.getByRole('img', { name: 'Latency over the range' })).toBeTruthy();

    drawn.length = 0;
    act(() => setDisplayPreference('dateFormat', 'timestamp'));
    await waitFor(() => expect(drawn.some((text) => /^2024-01-01 1[01]:\d\d$/.test(text))).toBe(true));
  });

  it('shows the exact time and values of the point under the cursor', async () => {
    setDisplayPreference('dateFormat', 'timestamp');
    render(<UPlotChart {...chart()} />);
    const { over, width } = await plotLayer();
    // The third bucket (10:20) sits a third of the way along the hour.
    fireEvent.mouseMove(over, { clientX: (width * 20) / 60 + 1, clientY: 20 });
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip.textContent).toContain('2024-01-01 10:20:00.000');
    expect(tooltip.textContent).toContain('Mean latency');
    expect(tooltip.textContent).toContain('1.5s');
    expect(tooltip.textContent).toContain('bucket 2');

    // An age is not an exact time: 'short' reads as 'full' in the tooltip.
    act(() => setDisplayPreference('dateFormat', 'short'));
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    const redrawn = await plotLayer();
    fireEvent.mouseMove(redrawn.over, { clientX: 1, clientY: 20 });
    await waitFor(() => expect(screen.getByRole('tooltip').textContent).toContain('Jan 1 10:00:00.000'));
    expect(screen.getByRole('tooltip').textContent).toContain('120ms');

    fireEvent.mouseLeave(redrawn.over);
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
  });

  it('breaks the line where buckets are missing: no tooltip in the gap', async () => {
    render(<UPlotChart {...chart()} />);
    const { over, width } = await plotLayer();
    // 10:40 to 10:50 has no bucket (the results skip from the 10:30 bucket to 10:50).
    fireEvent.mouseMove(over, { clientX: (width * 43) / 60, clientY: 20 });
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    fireEvent.mouseMove(over, { clientX: (width * 50) / 60 + 1, clientY: 20 });
    expect((await screen.findByRole('tooltip')).textContent).toContain('40ms');
  });

  it('hands a dragged range to the page as its time range', async () => {
    const onZoom = vi.fn();
    render(<UPlotChart {...chart({ onZoom })} />);
    const { over, width } = await plotLayer();
    fireEvent.mouseDown(over, { clientX: width / 4, clientY: 30, button: 0 });
    fireEvent.mouseMove(over, { clientX: width / 2, clientY: 30, buttons: 1, movementX: 10 });
    fireEvent.mouseUp(document, { clientX: width / 2, clientY: 30, button: 0 });
    await waitFor(() => expect(onZoom).toHaveBeenCalledTimes(1));
    const [start, end] = onZoom.mock.calls[0] as [Date, Date];
    // A quarter to a half of the hour: 10:15 to 10:30, within a pixel's worth of time.
    const pixel = (60 * minute) / width;
    expect(Math.abs(start.getTime() - (from + 15 * minute))).toBeLessThanOrEqual(pixel);
    expect(Math.abs(end.getTime() - (from + 30 * minute))).toBeLessThanOrEqual(pixel);
    // The selection is handed over, not left on the chart.
    expect(parseFloat(document.querySelector<HTMLElement>('.u-select')?.style.width ?? '0')).toBe(0);
  });

  it('draws the result strip under the plot, one segment per bucket, coloured by status', async () => {
    render(<UPlotChart {...chart()} />);
    const strip = await screen.findByRole('img', { name: 'Results: 4 passed, 2 failed' });
    const tones = [...strip.querySelectorAll('[data-tone]')].map((segment) => segment.getAttribute('data-tone'));
    expect(tones).toEqual(['pass', 'fail', 'mixed', 'pass', 'pass']);
    const lefts = [...strip.querySelectorAll<HTMLElement>('[data-tone]')].map((segment) => parseFloat(segment.style.left));
    const { width } = await plotLayer();
    // The fifth bucket starts at 10:50: five sixths along the plot.
    expect(Math.abs((lefts[4] ?? 0) - (width * 5) / 6)).toBeLessThan(1);
  });

  it('names every series in a legend when there are several', async () => {
    const values = [1, 2, 3, 4, 5];
    const count: ChartUnit = { key: 'count', label: 'value', format: (v) => `${v} pods` };
    render(<UPlotChart {...chart({ strip: undefined, series: [{ label: 'a', values, color: '#000000', unit: count }, { label: 'b', values, color: '#ff0000', unit: count, style: 'area' }] })} />);
    await waitFor(() => expect(drawn).toContain('value'));
    expect(drawn.some((text) => text.endsWith(' pods'))).toBe(true);
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['a', 'b']);
  });
});
