import { describe, expect, it } from 'vitest';
import { checkPageBody, checkPageRequest } from '../api/check-page';
import { ALL_TAB } from './checks';
import { parseHealthParams } from './params';
import { nextSort } from './sort';

const state = (search: string) => parseHealthParams(new URLSearchParams(search));

describe('the list request', () => {
  it('sends the URL state, the tab and the page; the table groups, the cards do not', () => {
    const request = checkPageRequest(state('timeRange=24h&query=+db+&hidePassing=false&labels=team%3Dweb:-1&groupBy=type&tabBy=team&sortBy=latency&sortDesc=true'), { tab: 'web', pageIndex: 2, pageSize: 100 });
    expect(request).toEqual({
      timeRange: '24h',
      query: 'db',
      hidePassing: false,
      labels: [{ key: 'team', value: 'web', state: -1 }],
      tabBy: 'team',
      tab: 'web',
      groupBy: 'type',
      sortBy: 'latency',
      sortDesc: true,
      page: 2,
      pageSize: 100,
      recent: 20,
    });
    expect(checkPageBody(request)).toMatchObject({ start: '24h', groupBy: 'type' });
    expect(checkPageBody(request)).not.toHaveProperty('timeRange');
    const cards = checkPageRequest(state('layout=card'), { tab: ALL_TAB.value, pageIndex: 0, pageSize: 50 });
    expect(cards.groupBy).toBe('no-group');
    expect(cards).not.toHaveProperty('tab');
    expect(checkPageRequest(state(''), { tab: ALL_TAB.value, pageIndex: 0, pageSize: 50, group: 'web' }).group).toBe('web');
  });

  it('sends an absolute range as its two instants', () => {
    const body = checkPageBody(checkPageRequest(state('timeRange=2024-05-01T00:00:00.000Z,2024-05-02T00:00:00.000Z'), { tab: ALL_TAB.value, pageIndex: 0, pageSize: 50 }));
    expect(body).toMatchObject({ start: '2024-05-01T00:00:00.000Z', end: '2024-05-02T00:00:00.000Z' });
  });
});

describe('header clicks of the grouped table', () => {
  it('cycle a column: numbers descending first, the name ascending first, the third click removes it', () => {
    expect(nextSort({ sortBy: 'name', sortDesc: false }, 'uptime')).toEqual({ sortBy: 'uptime', sortDesc: true });
    expect(nextSort({ sortBy: 'uptime', sortDesc: true }, 'uptime')).toEqual({ sortBy: 'uptime', sortDesc: false });
    expect(nextSort({ sortBy: 'uptime', sortDesc: false }, 'uptime')).toBeUndefined();
    expect(nextSort({ sortBy: 'name', sortDesc: false }, 'name')).toEqual({ sortBy: 'name', sortDesc: true });
    expect(nextSort({ sortBy: 'name', sortDesc: true }, 'name')).toBeUndefined();
    expect(nextSort({ sortBy: 'latency', sortDesc: true }, 'name')).toEqual({ sortBy: 'name', sortDesc: false });
  });
});
