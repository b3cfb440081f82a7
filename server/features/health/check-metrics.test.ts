import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { inOrganization } from '../../platform/db/tenant';
import { CheckMetrics } from './check-metrics';

describe('the checks\' own metrics on /metrics', () => {
  const sample = { name: 'orders_pending', type: 'gauge', value: 3, labels: { shop: 'north' } };

  it('exports a sample of the console\'s own checks', async () => {
    const registry = new Registry();
    expect(new CheckMetrics(registry).export([sample])).toEqual([]);
    expect(await registry.metrics()).toContain('orders_pending{shop="north"} 3');
  });

  it('exports nothing of an organization sharing the console (hosted mode), and says why', async () => {
    const registry = new Registry();
    const problems = inOrganization('6f1c1c2e-2b8a-4d55-9d7e-8f3f3c1d2a10', () => new CheckMetrics(registry).export([sample]));
    expect(problems).toEqual([expect.stringContaining("metrics: not exported: this console's /metrics is shared by its organizations")]);
    expect(await registry.metrics()).not.toContain('orders_pending');
  });
});
