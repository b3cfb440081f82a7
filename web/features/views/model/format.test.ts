import { describe, expect, it } from 'vitest';
import { columnSchema } from '../api/schema';
import { badgeColor, cellLink, configItemOf, formatCellText, formatMillicores, formatViewDuration, gaugeCell, gaugeReading, healthWord, isSafeLink, labelPairs, simpleRowValue, withUnit } from './format';

const col = (input: Record<string, unknown>) => columnSchema.parse(input);

describe('view cell formatting', () => {
  it('formats numbers, decimals, bytes, millicores and durations by column type', () => {
    expect(formatCellText({ type: 'number', unit: null }, 1234)).toBe('1,234');
    expect(formatCellText({ type: 'number', unit: 'pods' }, '3')).toBe('3 pods');
    expect(formatCellText({ type: 'decimal', unit: '$/hr' }, 0.042)).toBe('0.04 $/hr');
    expect(formatCellText({ type: 'bytes', unit: null }, 536870912)).toBe('512 MB');
    expect(formatCellText({ type: 'bytes', unit: null }, '512Mi')).toBe('512Mi');
    expect(formatMillicores(625)).toBe('625m');
    expect(formatMillicores(1500)).toBe('1.5 cores');
    // Go durations are nanoseconds: a day.
    expect(formatViewDuration(86400000000000)).toBe('1d');
    expect(formatViewDuration('2h30m')).toBe('2h30m');
    expect(formatCellText({ type: 'boolean', unit: null }, 't')).toBe('Yes');
    expect(formatCellText({ type: 'string', unit: null }, null)).toBe('');
    expect(formatCellText({ type: 'string', unit: null }, { a: 1 })).toBe('{"a":1}');
  });

  it('puts units after values the way Mission Control files write them', () => {
    expect(withUnit('5', ' workloads')).toBe('5 workloads');
    expect(withUnit('70', '%')).toBe('70%');
    expect(withUnit('3', 'GB')).toBe('3 GB');
    expect(withUnit('', 'GB')).toBe('');
  });

  it('maps health words to the four catalog healths', () => {
    expect(healthWord('Healthy')).toBe('healthy');
    expect(healthWord('warning')).toBe('warning');
    expect(healthWord('degraded')).toBe('unknown');
    expect(healthWord(null)).toBe('unknown');
  });

  it('reads labels from an object or its JSON text, sorted by key', () => {
    expect(labelPairs({ env: 'prod', app: 'api' })).toEqual([
      ['app', 'api'],
      ['env', 'prod'],
    ]);
    expect(labelPairs('{"n": 2}')).toEqual([['n', '2']]);
    expect(labelPairs('not json')).toEqual([]);
    expect(labelPairs(['a'])).toEqual([]);
  });

  it('places a gauge reading between min and max with the colour of the last threshold reached', () => {
    const options = { thresholds: [{ percent: 0, color: 'green' }, { percent: 70, color: 'orange' }, { percent: 85, color: 'red' }] };
    expect(gaugeReading(50, options)).toMatchObject({ percent: 50, color: 'green', min: 0, max: 100 });
    expect(gaugeReading(75, options).color).toBe('orange');
    expect(gaugeReading(300, { ...options, max: '200' })).toMatchObject({ percent: 100, color: 'red' });
    // Older files give thresholds as values, not percents.
    expect(gaugeReading(60, { min: 0, max: 200, thresholds: [{ value: 0, color: 'green' }, { value: 100, color: 'red' }] }).color).toBe('green');
    expect(gaugeReading(5, null, { min: 0, max: 10 }).percent).toBe(50);
    expect(gaugeCell({ value: '3', max: 4 })).toEqual({ value: 3, min: undefined, max: 4 });
    expect(gaugeCell('x')).toBeNull();
  });

  it('evaluates only trivial CEL: row fields and literals', () => {
    expect(simpleRowValue('row.id', { id: 'abc' })).toBe('abc');
    expect(simpleRowValue('row["name"]', { name: 'n' })).toBe('n');
    expect(simpleRowValue('"literal"', {})).toBe('literal');
    expect(simpleRowValue('row.a + row.b', { a: 1, b: 2 })).toBeUndefined();
    expect(simpleRowValue('row.missing', {})).toBeUndefined();
  });

  it('links a cell to an item, another view with variables, a helper url column or its own url', () => {
    const id = '550e8400-e29b-41d4-a716-446655440001';
    const toItem = col({ name: 'name', type: 'string', url: { config: 'row.id' } });
    expect(cellLink(toItem, { name: 'n', id }, [toItem])).toBe(`/catalog/${id}`);
    const toView = col({ name: 'ns', type: 'string', url: { view: { namespace: 'mc', name: 'pods', filter: { namespace: 'row.ns' } } } });
    expect(cellLink(toView, { ns: 'kube-system' }, [toView])).toBe('/view/mc/pods?var-namespace=kube-system');
    const main = col({ name: 'component', type: 'string' });
    const helper = col({ name: 'component_url', type: 'url', for: 'component' });
    expect(cellLink(main, { component: 'c', component_url: 'https://example.com/c' }, [main, helper])).toBe('https://example.com/c');
    const own = col({ name: 'dashboard', type: 'url' });
    expect(cellLink(own, { dashboard: '/health' }, [own])).toBe('/health');
    expect(cellLink(main, { component: 'c' }, [main])).toBeUndefined();
    expect(isSafeLink('javascript:alert(1)')).toBe(false);
    expect(isSafeLink('https://x')).toBe(true);
  });

  it('finds the item of a config_item cell by idField, and badge colours from badge.color.map', () => {
    const item = col({ name: 'name', type: 'config_item', configItem: { idField: 'uid' } });
    expect(configItemOf(item, { name: 'api', uid: 'u-1', type: 'Kubernetes::Pod' })).toEqual({ id: 'u-1', name: 'api', type: 'Kubernetes::Pod' });
    expect(configItemOf(col({ name: 'name', type: 'config_item' }), { name: 'api' })).toBeNull();
    const badge = col({ name: 'action', type: 'string', badge: { color: { map: { failed: '#DC2626', evil: 'url(x)' } } } });
    expect(badgeColor(badge, 'failed')).toBe('#DC2626');
    expect(badgeColor(badge, 'evil')).toBeUndefined();
    expect(badgeColor(badge, 'toString')).toBeUndefined();
  });
});
