import type { CheckSummary } from './api/schema';
import { LOCAL_AGENT_ID } from './state/checks';

/** A check as the summary answers it, for tests: healthy, one pass, 1 ms. */
export function check(overrides: Partial<CheckSummary> = {}): CheckSummary {
  return {
    id: 'id',
    canary_id: 'canary',
    canary_name: 'web',
    canary_namespace: 'default',
    agent_id: LOCAL_AGENT_ID,
    name: 'check',
    namespace: 'default',
    type: 'tcp',
    icon: null,
    description: null,
    endpoint: null,
    labels: {},
    owner: null,
    severity: 'info',
    status: 'healthy',
    transformed_from: null,
    uptime: { passed: 1, failed: 0, last_pass: null, last_fail: null },
    latency: { p50: 1, p95: 1, p97: 1, p99: 1, rolling1h: 1 },
    last_runtime: null,
    last_transition_time: null,
    next_runtime: null,
    created_at: '2024-01-01T00:00:00Z',
    ...overrides,
  };
}
