import { describe, expect, it } from 'vitest';
import { fieldKey, paramsBody, paramsProblems, paramWaits } from './params';

describe('dependsOn', () => {
  const params = [
    { name: 'cluster', label: 'Cluster', type: 'text', required: true, default: undefined },
    { name: 'namespace', label: 'Namespace', type: 'text', required: true, dependsOn: ['cluster'], default: undefined },
  ];

  it('asks for a parameter only once the ones it depends on have values', () => {
    const empty = { [fieldKey(0)]: '', [fieldKey(1)]: '' };
    expect(paramWaits(params, empty, 1)).toBe(true);
    expect(Object.keys(paramsProblems(params, empty))).toEqual([fieldKey(0)]);
    const chosen = { [fieldKey(0)]: 'east', [fieldKey(1)]: '' };
    expect(paramWaits(params, chosen, 1)).toBe(false);
    expect(paramsProblems(params, chosen)).toEqual({ [fieldKey(1)]: 'This field is required' });
    expect(paramsBody(params, { [fieldKey(0)]: '', [fieldKey(1)]: 'kept' })).toEqual({});
  });
});
