import { describe, expect, it } from 'vitest';
import { applyMergePatch, changedPaths, compareConfigs, fingerprint, mergePatch, normalize, summarizePaths, unifiedDiff, type Json } from './changes';

describe('normalize and fingerprint', () => {
  it('orders keys and drops what JSON drops, so reordered configs are equal', () => {
    const a = normalize({ b: 1, a: { d: [1, undefined, 'x'], c: new Date(Date.UTC(2026, 0, 2)) }, skip: undefined, n: Number.NaN });
    expect(JSON.stringify(a)).toBe('{"a":{"c":"2026-01-02T00:00:00.000Z","d":[1,null,"x"]},"b":1,"n":null}');
    expect(fingerprint(normalize({ x: 1, y: [2, 3] }))).toBe(fingerprint(normalize({ y: [2, 3], x: 1 })));
    expect(fingerprint(normalize({ x: 1, y: [2, 3] }))).not.toBe(fingerprint(normalize({ x: 1, y: [3, 2] })));
  });
});

describe('merge patches (RFC 7386)', () => {
  // The examples of RFC 7386 appendix A: target, patch, result.
  const examples: Array<[Json, Json, Json]> = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];

  it('applies as the RFC says', () => {
    for (const [target, patch, result] of examples) expect(applyMergePatch(target, patch), JSON.stringify(patch)).toEqual(result);
  });

  it('generates the patch that turns one config into the other, and none for equal ones', () => {
    expect(mergePatch({ a: 1, b: { c: 2, d: 3 } }, { a: 1, b: { c: 2, d: 4 }, e: 'x' })).toEqual({ b: { d: 4 }, e: 'x' });
    expect(mergePatch({ a: 1, gone: true }, { a: 1 })).toEqual({ gone: null });
    expect(mergePatch({ a: [1, 2] }, { a: [1, 2] })).toBeUndefined();
    // Any two null-free configs round-trip through the generated patch.
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const value = (depth: number): Json => {
      const r = random();
      if (depth > 2 || r < 0.3) return r < 0.1 ? true : r < 0.2 ? Math.floor(random() * 5) : `s${Math.floor(random() * 4)}`;
      if (r < 0.45) return [value(depth + 1), value(depth + 1)];
      const out: { [key: string]: Json } = {};
      for (let i = 0; i < 4; i += 1) if (random() < 0.6) out[`k${i}`] = value(depth + 1);
      return out;
    };
    for (let i = 0; i < 500; i += 1) {
      const before = value(0);
      const after = value(0);
      const patch = mergePatch(before, after);
      expect(patch === undefined ? before : applyMergePatch(before, patch)).toEqual(after);
    }
  });
});

describe('changed paths and diffs', () => {
  const before = normalize({
    metadata: { name: 'api', labels: { 'app.kubernetes.io/name': 'api', tier: 'web' } },
    spec: { replicas: 2, containers: [{ name: 'api', image: 'api:1.0' }, { name: 'proxy', image: 'envoy:1' }] },
  });
  const after = normalize({
    metadata: { name: 'api', labels: { 'app.kubernetes.io/name': 'api-v2', tier: 'web' } },
    spec: { replicas: 3, containers: [{ name: 'api', image: 'api:1.1' }] },
  });

  it('names each changed path in document order', () => {
    expect(changedPaths(before, after)).toEqual(['metadata.labels["app.kubernetes.io/name"]', 'spec.containers[0].image', 'spec.containers[1]', 'spec.replicas']);
    expect(changedPaths(before, after, 2)).toHaveLength(2);
    expect(changedPaths({ a: 1 }, [1])).toEqual(['']);
    expect(summarizePaths(changedPaths(before, after))).toBe('metadata.labels["app.kubernetes.io/name"], spec.containers[0].image, spec.containers[1] and 1 more');
  });

  it('shows a unified diff of the YAML with three lines of context', () => {
    const diff = unifiedDiff(before, after);
    expect(diff.startsWith('@@ -1,')).toBe(true);
    expect(diff).toContain('-    app.kubernetes.io/name: api\n+    app.kubernetes.io/name: api-v2');
    expect(diff).toContain('-  replicas: 2\n+  replicas: 3');
    expect(diff).toContain('-    - image: envoy:1');
    expect(unifiedDiff(before, before)).toBe('');
  });

  it('compares two configs into one change, or none', () => {
    expect(compareConfigs(before, normalize(JSON.parse(JSON.stringify(before))))).toBeUndefined();
    const change = compareConfigs(before, after);
    expect(change?.fingerprint).toBe(fingerprint(after));
    expect(change?.paths).toHaveLength(4);
    expect(applyMergePatch(before, change?.patches ?? null)).toEqual(after);
    expect(change?.summary).toContain('spec.containers[0].image');
  });
});
