import { describe, expect, it } from 'vitest';
import { approversOf, isApprover } from './approvers';

describe('approvers', () => {
  it('reads spec.approval.approvers, ignoring what is not a name', () => {
    expect(approversOf({ approval: { approvers: { people: ['ann@example.com', 3, ' '], teams: ['ops'] } } })).toEqual({ people: ['ann@example.com'], teams: ['ops'] });
    expect(approversOf({ actions: [] })).toEqual({ people: [], teams: [] });
    expect(approversOf(null)).toEqual({ people: [], teams: [] });
  });

  it('names a person by id, email or name in any case; teams leave it to the server', () => {
    const ann = { id: 'a1', email: 'Ann@Example.com', name: 'Ann Approver' };
    expect(isApprover({ people: ['ann@example.com'], teams: [] }, ann)).toBe(true);
    expect(isApprover({ people: ['ann approver'], teams: [] }, ann)).toBe(true);
    expect(isApprover({ people: ['a1'], teams: [] }, ann)).toBe(true);
    expect(isApprover({ people: ['bob@example.com'], teams: [] }, ann)).toBe(false);
    expect(isApprover({ people: ['bob@example.com'], teams: ['ops'] }, ann)).toBeUndefined();
  });
});
