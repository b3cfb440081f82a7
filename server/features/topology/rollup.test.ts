import { describe, expect, it } from 'vitest';
import { rollupAll, type RollupInput } from './rollup';

const node = (id: string, extra: Partial<RollupInput> = {}): [string, RollupInput] => [id, { id, type: null, own: null, ownReason: null, children: [], checks: [], configs: [], ...extra }];

describe('rollupAll', () => {
  it('takes the worst of own, children, checks and configs, and says why', () => {
    const result = rollupAll(
      new Map([
        node('app', { children: ['p1', 'p2', 'p3'], checks: [{ name: 'http', status: 'healthy' }] }),
        node('p1', { type: 'Kubernetes::Pod', own: 'unhealthy', ownReason: 'CrashLoopBackOff' }),
        node('p2', { type: 'Kubernetes::Pod', own: 'unhealthy' }),
        node('p3', { type: 'Kubernetes::Pod', own: 'healthy' }),
      ]),
    );
    expect(result.get('app')).toEqual({
      health: 'unhealthy',
      reason: 'unhealthy: 2 of 3 pods unhealthy',
      children: { healthy: 1, unhealthy: 2, warning: 0, unknown: 0 },
      checks: { healthy: 1, unhealthy: 0, warning: 0, unknown: 0 },
      configs: { healthy: 0, unhealthy: 0, warning: 0, unknown: 0 },
    });
    expect(result.get('p1')?.reason).toBe('unhealthy: CrashLoopBackOff');
  });

  it('names a single failing check or config, counts several, and sums checks from below', () => {
    const result = rollupAll(
      new Map([
        node('svc', { children: ['db'], checks: [{ name: 'login', status: 'unhealthy' }] }),
        node('db', { type: 'Database', configs: [{ name: 'orders', health: 'warning' }, { name: 'users', health: 'warning' }, { name: 'x', health: 'healthy' }], checks: [{ name: 'tcp', status: 'healthy' }] }),
      ]),
    );
    expect(result.get('db')?.reason).toBe('warning: 2 of 3 configs warning');
    expect(result.get('svc')).toMatchObject({ health: 'unhealthy', reason: 'unhealthy: check login failing', checks: { healthy: 1, unhealthy: 1 } });
  });

  it('is unknown when nothing is known, healthy without a reason, and survives a cycle', () => {
    const result = rollupAll(new Map([node('a', { children: ['b'] }), node('b', { children: ['a'], own: 'healthy' })]));
    expect(result.get('b')).toMatchObject({ health: 'healthy', reason: null });
    expect(result.get('a')?.health).toBe('healthy');
    expect(rollupAll(new Map([node('lonely')])).get('lonely')).toMatchObject({ health: 'unknown', reason: null });
  });
});
