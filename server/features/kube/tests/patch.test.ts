import { describe, expect, it } from 'vitest';
import { jsonPatch, mergePatch, PatchError } from '../patch';

describe('mergePatch (RFC 7386)', () => {
  it('merges objects, replaces lists and scalars, removes keys set to null', () => {
    const doc = { spec: { schedule: '@every 1m', tcp: [{ endpoint: 'a:1' }], env: { A: '1', B: '2' } } };
    expect(mergePatch(doc, { spec: { schedule: '@every 5m', tcp: [{ endpoint: 'b:2' }], env: { B: null, C: '3' } } })).toEqual({
      spec: { schedule: '@every 5m', tcp: [{ endpoint: 'b:2' }], env: { A: '1', C: '3' } },
    });
    expect(doc.spec.env).toEqual({ A: '1', B: '2' });
  });
});

describe('jsonPatch (RFC 6902)', () => {
  const doc = { metadata: { labels: { team: 'ops' } }, spec: { tcp: [{ endpoint: 'a:1' }, { endpoint: 'b:2' }] } };

  it('adds, replaces, removes, moves, copies and tests, leaving the input unchanged', () => {
    const next = jsonPatch(doc, [
      { op: 'add', path: '/metadata/labels/tier', value: 'gold' },
      { op: 'replace', path: '/spec/tcp/0/endpoint', value: 'c:3' },
      { op: 'add', path: '/spec/tcp/-', value: { endpoint: 'd:4' } },
      { op: 'remove', path: '/spec/tcp/1' },
      { op: 'copy', from: '/metadata/labels/team', path: '/metadata/labels/owner' },
      { op: 'move', from: '/metadata/labels/tier', path: '/metadata/labels/level' },
      { op: 'test', path: '/metadata/labels/level', value: 'gold' },
    ]);
    expect(next).toEqual({ metadata: { labels: { team: 'ops', owner: 'ops', level: 'gold' } }, spec: { tcp: [{ endpoint: 'c:3' }, { endpoint: 'd:4' }] } });
    expect(doc.spec.tcp).toHaveLength(2);
    expect(doc.metadata.labels).toEqual({ team: 'ops' });
  });

  it('refuses a path that does not exist, a failed test, an unknown op and a body that is not a list, naming the operation', () => {
    expect(() => jsonPatch(doc, [{ op: 'remove', path: '/spec/nothing' }])).toThrow(new PatchError('[0]: /spec/nothing does not exist'));
    expect(() => jsonPatch(doc, [{ op: 'replace', path: '/spec/tcp/5', value: 1 }])).toThrow('[0]: index 5 is out of range');
    expect(() => jsonPatch(doc, [{ op: 'add', path: '/a', value: 1 }, { op: 'test', path: '/a', value: 2 }])).toThrow('[1]: test failed at /a');
    expect(() => jsonPatch(doc, [{ op: 'frobnicate', path: '/a' }])).toThrow('[0].op: must be add, remove, replace, move, copy or test');
    expect(() => jsonPatch(doc, [{ op: 'add', path: 'spec', value: 1 }])).toThrow('[0].path: must be a JSON pointer');
    expect(() => jsonPatch(doc, { op: 'add' })).toThrow('a JSON patch is a list of operations');
  });
});
