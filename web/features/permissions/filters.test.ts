import { describe, expect, it } from 'vitest';
import { applyFilterChange, applyViewChange, dialogParam, parseOpenDialog, parsePermissionFilters } from './filters';
import { searchFilter } from './query';

describe('permissions URL state', () => {
  it('reads filters, falling back on unknown values', () => {
    expect(parsePermissionFilters(new URLSearchParams('subjectType=team&effect=deny&action=playbook:run&q=ops&pageIndex=2&pageSize=100&sortBy=action&sortOrder=asc'))).toEqual({
      subjectType: 'team', effect: 'deny', action: 'playbook:run', search: 'ops', sortBy: 'action', sortOrder: 'asc', pageIndex: 2, pageSize: 100,
    });
    expect(parsePermissionFilters(new URLSearchParams('subjectType=robot&effect=maybe&action=fly&sortBy=password&pageIndex=-1&__proto__=x'))).toEqual({
      subjectType: '', effect: '', action: '', search: '', sortBy: 'created_at', sortOrder: 'desc', pageIndex: 0, pageSize: undefined,
    });
  });

  it('starts again at the first page when a filter changes, and drops defaults', () => {
    const next = applyFilterChange(new URLSearchParams('pageIndex=3&effect=deny'), { effect: '', subjectType: 'group' });
    expect(next.toString()).toBe('subjectType=group');
    expect(applyViewChange(new URLSearchParams(''), { sortBy: 'created_at', sortOrder: 'desc', pageIndex: '1' }).toString()).toBe('pageIndex=1');
  });

  it('keeps the open dialog in the URL', () => {
    for (const dialog of [{ kind: 'add' }, { kind: 'check' }, { kind: 'edit', id: 'abc' }] as const) {
      expect(parseOpenDialog(new URLSearchParams({ dialog: dialogParam(dialog) ?? '' }))).toEqual(dialog);
    }
    expect(parseOpenDialog(new URLSearchParams('dialog=nonsense'))).toEqual({ kind: 'none' });
  });

  it('searches with quoted text, so commas and parentheses stay text', () => {
    expect(searchFilter('  ')).toBeUndefined();
    const filter = searchFilter(' a,(b) ');
    expect(filter).toContain('description.ilike."*a,(b)*"');
    expect(filter).toContain('person->>name.ilike."*a,(b)*"');
    expect(searchFilter('say "hi"')).toContain('action.ilike."*say \\"hi\\"*"');
  });
});
