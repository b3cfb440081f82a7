import { describe, expect, it } from 'vitest';
import { relativeRange } from '@web/ui/time-range';
import { activeFilterCount, applyHealthPatch, closeCheckPatch, HEALTH_PARAM_KEYS, parseHealthParams } from './params';

const parse = (query: string) => parseHealthParams(new URLSearchParams(query));

describe('Health URL state', () => {
  it('has the spec §2 parameters, exactly', () => {
    expect(HEALTH_PARAM_KEYS).toEqual(['checkId', 'timeRange', 'layout', 'sortBy', 'sortDesc', 'query', 'labels', 'groupBy', 'tabBy', 'hidePassing', 'pivotBy', 'pivotLabel', 'pivotCellType']);
  });

  it('defaults to spec §9: hidePassing, tabs by namespace, groups by canary, table, name ascending, the last hour', () => {
    const state = parse('');
    expect(state).toMatchObject({ hidePassing: true, tabBy: 'namespace', groupBy: 'canary_name', layout: 'table', sortBy: 'name', sortDesc: false, query: '', labels: [], pivotCellType: 'health' });
    expect(state.timeRange).toEqual(relativeRange('1h'));
    expect(state.timeRangeChosen).toBe(false);
    expect(state.checkId).toBeUndefined();
    expect(state.pivotBy).toBeUndefined();
  });

  it('reads every parameter', () => {
    const state = parse('checkId=c1&timeRange=2w&layout=card&sortBy=uptime&sortDesc=true&query=name%3Dgrafana&labels=env%3Dprod%3A1&groupBy=team&tabBy=agent_id&hidePassing=false&pivotBy=type&pivotLabel=env&pivotCellType=uptime');
    expect(state).toMatchObject({
      checkId: 'c1',
      timeRangeChosen: true,
      layout: 'card',
      sortBy: 'uptime',
      sortDesc: true,
      query: 'name=grafana',
      labels: [{ key: 'env', value: 'prod', state: 1 }],
      groupBy: 'team',
      tabBy: 'agent_id',
      hidePassing: false,
      pivotBy: 'type',
      pivotLabel: 'env',
      pivotCellType: 'uptime',
    });
    expect(state.timeRange).toEqual(relativeRange('2w'));
  });

  it('falls back to the defaults on unknown values', () => {
    const warn = console.warn;
    console.warn = () => undefined;
    const state = parse('layout=grid&sortBy=owner&sortDesc=maybe&hidePassing=1&timeRange=forever&pivotCellType=colour');
    console.warn = warn;
    expect(state).toMatchObject({ layout: 'table', sortBy: 'name', sortDesc: false, hidePassing: true, pivotCellType: 'health' });
    expect(state.timeRange).toEqual(relativeRange('1h'));
  });

  it('ignores __proto__ and constructor (spec §5)', () => {
    const state = parse('__proto__=x&constructor=y&groupBy=__proto__&tabBy=constructor&pivotBy=prototype');
    expect(state.groupBy).toBe('canary_name');
    expect(state.tabBy).toBe('namespace');
    expect(state.pivotBy).toBeUndefined();
    expect(Object.getPrototypeOf(state)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('keeps absolute and quick ranges in the one timeRange parameter', () => {
    const quick = parse('timeRange=now-1d%2Fd,now-1d%2Fd').timeRange;
    expect(quick).toMatchObject({ type: 'mapped', display: 'Yesterday' });
    const absolute = parse('timeRange=2024-05-01T00:00:00.000Z,2024-05-02T00:00:00.000Z').timeRange;
    expect(absolute).toMatchObject({ type: 'absolute', from: '2024-05-01T00:00:00.000Z', to: '2024-05-02T00:00:00.000Z' });
    expect(applyHealthPatch(new URLSearchParams(), { timeRange: absolute }).get('timeRange')).toBe('2024-05-01T00:00:00.000Z,2024-05-02T00:00:00.000Z');
  });

  it('writes changes, leaving defaults out of the URL', () => {
    let params = applyHealthPatch(new URLSearchParams('other=1'), { hidePassing: false, groupBy: 'canary_name', tabBy: 'team', query: '  x  ', timeRange: relativeRange('1h') });
    expect(params.toString()).toBe('other=1&query=x&tabBy=team&hidePassing=false');
    params = applyHealthPatch(params, { hidePassing: true, labels: [{ key: 'env', value: 'prod', state: -1 }] });
    expect(params.get('hidePassing')).toBeNull();
    expect(params.get('labels')).toBe('env=prod:-1');
    params = applyHealthPatch(params, { labels: [] });
    expect(params.has('labels')).toBe(false);
  });

  it('closing the check removes checkId and resets the range to 1h (spec §2)', () => {
    const params = applyHealthPatch(new URLSearchParams('checkId=c1&timeRange=3d&hidePassing=false'), closeCheckPatch());
    expect(params.toString()).toBe('hidePassing=false');
    expect(parseHealthParams(params).timeRange).toEqual(relativeRange('1h'));
  });

  it('counts active filters for the filter-menu badge', () => {
    expect(activeFilterCount(parse(''))).toBe(1);
    expect(activeFilterCount(parse('hidePassing=false'))).toBe(0);
    expect(activeFilterCount(parse('labels=a%3Db%3A1,c%3Dd%3A-1'))).toBe(3);
  });
});
