import { describe, expect, it } from 'vitest';
import { applyRulesChange, parseRulesFilters, sortRules } from './rules-filters';
import { parseRuleYaml, EXAMPLE_RULE_YAML } from './rule-yaml';

describe('rules list state', () => {
  it('reads the URL with defaults: sorted by name, counts over the last day', () => {
    const filters = parseRulesFilters(new URLSearchParams(''));
    expect(filters).toMatchObject({ search: '', sortBy: 'name', sortOrder: 'asc', pageIndex: 0, pageSize: undefined, edit: undefined });
    expect(filters.range).toMatchObject({ type: 'relative', range: '1d' });
    const other = parseRulesFilters(new URLSearchParams('q=web&range=7d&sortBy=failed&sortOrder=desc&pageIndex=2&pageSize=25&edit=new'));
    expect(other).toMatchObject({ search: 'web', sortBy: 'failed', sortOrder: 'desc', pageIndex: 2, pageSize: 25, edit: 'new' });
    expect(other.range).toMatchObject({ range: '7d' });
  });

  it('starts a new search at the first page', () => {
    const next = applyRulesChange(new URLSearchParams('pageIndex=3&range=7d'), { q: 'db' });
    expect(next.get('pageIndex')).toBeNull();
    expect(next.get('q')).toBe('db');
    expect(next.get('range')).toBe('7d');
  });

  it('sorts by counts over the range, then by name', () => {
    const rows = [
      { name: 'b', sent: 1, failed: 0, pending: 0 },
      { name: 'a', sent: 1, failed: 2, pending: 0 },
      { name: 'c', sent: 5, failed: 0, pending: 0 },
    ];
    expect(sortRules(rows, 'sent', 'desc').map((row) => row.name)).toEqual(['c', 'a', 'b']);
    expect(sortRules(rows, 'failed', 'desc').map((row) => row.name)).toEqual(['a', 'b', 'c']);
    expect(sortRules(rows, 'name', 'asc').map((row) => row.name)).toEqual(['a', 'b', 'c']);
  });

  it('starts the editor with a Notification that reads without problems', () => {
    const parsed = parseRuleYaml(EXAMPLE_RULE_YAML);
    expect(parsed.problems).toEqual([]);
    expect(parsed.doc).toMatchObject({ name: 'check-failures', namespace: 'default', spec: { events: ['check.failed'], to: { email: 'oncall@example.com' } } });
  });
});
