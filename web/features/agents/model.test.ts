import { describe, expect, it } from 'vitest';
import { agentLabel, agentNameError, deletedText, healthBadge, lastSeenText, propertiesFrom, propertyRows } from './model';
import { applyAgentsChange, closeAgentPatch, parseAgentFilters } from './filters';
import { LOCAL_AGENT_ID } from './schema';

describe('agent model', () => {
  it('names the nil uuid local, a known agent by name, an unknown one by id', () => {
    const names = new Map([['a1', 'edge-1']]);
    expect(agentLabel(LOCAL_AGENT_ID, names)).toBe('local');
    expect(agentLabel(null)).toBe('local');
    expect(agentLabel('a1', names)).toBe('edge-1');
    expect(agentLabel('b2', names)).toBe('b2');
  });

  it('shows online only for an online agent', () => {
    expect(healthBadge('online')).toEqual({ label: 'Online', tone: 'success' });
    expect(healthBadge('offline')).toEqual({ label: 'Offline', tone: 'danger' });
    expect(healthBadge(null)).toEqual({ label: 'Offline', tone: 'danger' });
  });

  it('reads last seen as an age, never when it has not pushed', () => {
    const now = new Date('2025-01-01T12:00:00Z');
    expect(lastSeenText('2025-01-01T11:58:30Z', now)).toBe('1m ago');
    expect(lastSeenText('2024-12-30T12:00:00Z', now)).toBe('2d ago');
    expect(lastSeenText(null, now)).toBe('never');
    expect(lastSeenText('not a date', now)).toBe('never');
  });

  it('checks the name as the server does', () => {
    expect(agentNameError('')).toBe('This field is required');
    expect(agentNameError('edge-1.eu')).toBeUndefined();
    expect(agentNameError('Edge')).toMatch(/Lower-case/);
    expect(agentNameError('-edge')).toMatch(/Lower-case/);
    expect(agentNameError('edge-')).toMatch(/Lower-case/);
    expect(agentNameError('a'.repeat(63))).toBeUndefined();
    expect(agentNameError('a'.repeat(64))).toBe('At most 63 characters');
  });

  it('turns key/value rows into properties, blank rows skipped, bad rows named', () => {
    const { properties, errors } = propertiesFrom([
      { key: 'region', value: 'eu-west-1' },
      { key: '', value: '' },
      { key: ' cluster ', value: 'prod' },
      { key: '', value: 'orphan' },
      { key: 'region', value: 'us' },
    ]);
    expect(properties).toEqual({ region: 'eu-west-1', cluster: 'prod' });
    expect([...errors]).toEqual([
      [3, 'A property needs a key'],
      [4, 'The key region is given twice'],
    ]);
  });

  it('lists properties sorted, non-strings as JSON', () => {
    expect(propertyRows({ z: 'last', a: { nested: 1 }, n: 3 })).toEqual([
      ['a', '{"nested":1}'],
      ['n', '3'],
      ['z', 'last'],
    ]);
    expect(propertyRows(null)).toEqual([]);
  });

  it('says what a cleanup deleted', () => {
    expect(deletedText('edge-1', {})).toBe('edge-1 deleted successfully');
    expect(deletedText('edge-1', { checks: 3, canaries: 1, topologies: 0, config_items: 1, config_scrapers: 2 })).toBe(
      'edge-1 deleted successfully (also deleted: 3 checks, 1 canary, 1 config, 2 scrapers)',
    );
  });
});

describe('agents page URL state', () => {
  it('reads defaults and the open agent', () => {
    const filters = parseAgentFilters(new URLSearchParams('id=abc&q=edge&sortBy=bogus'));
    expect(filters).toMatchObject({ search: 'edge', sortBy: 'name', sortOrder: 'asc', pageIndex: 0, id: 'abc', adding: false, pageSize: undefined });
    expect(parseAgentFilters(new URLSearchParams('dialog=add&sortBy=last_seen&sortOrder=desc'))).toMatchObject({ adding: true, sortBy: 'last_seen', sortOrder: 'desc' });
  });

  it('a new search goes back to the first page; closing the detail drops its job paging', () => {
    const next = applyAgentsChange(new URLSearchParams('pageIndex=3&id=x'), { q: 'edge' });
    expect(next.get('pageIndex')).toBeNull();
    expect(next.get('q')).toBe('edge');
    const closed = applyAgentsChange(new URLSearchParams('id=x&jobsPage=2&job=j1&q=edge'), closeAgentPatch());
    expect(closed.toString()).toBe('q=edge');
  });
});
