import { describe, expect, it } from 'vitest';
import { matchTarget, objectSelectorApplies, parseObjectSelector } from './object-selector';
import type { AccessTarget } from './types';

const target: AccessTarget = { kind: 'playbook', id: 'p1', name: 'restart-pod', namespace: 'mc', labels: { team: 'sre' } };

describe('Mission Control object selectors', () => {
  it('matches by name pattern, namespace, labels and label selectors; unknown fields never allow', () => {
    const selector = parseObjectSelector({ playbooks: [{ name: 'restart-*', namespace: 'mc', labelSelector: 'team in (sre,ops)' }] });
    const matcher = selector?.byKind.playbook?.[0];
    if (!matcher) throw new Error('no matcher');
    expect(matchTarget(matcher, target)).toBe('match');
    expect(matchTarget(matcher, { ...target, name: 'delete-pod' })).toBe('no');
    expect(matchTarget(matcher, { kind: 'playbook', id: 'p1' })).toBe('unknown');
    const unknown = parseObjectSelector({ playbooks: [{ name: 'restart-pod', search: 'x' }] });
    expect(unknown && objectSelectorApplies(unknown, false, 'playbooks', target)).toBe(false);
    expect(unknown && objectSelectorApplies(unknown, true, 'playbooks', target)).toBe(true);
  });

  it('speaks only about requests on one resource of a selected kind and the resources that kind covers', () => {
    const selector = parseObjectSelector({ playbooks: [{}] });
    if (!selector) throw new Error('no selector');
    expect(objectSelectorApplies(selector, false, 'playbook_runs', target)).toBe(true);
    expect(objectSelectorApplies(selector, false, 'canaries', target)).toBe(false);
    expect(objectSelectorApplies(selector, false, 'playbooks', undefined)).toBe(false);
    expect(objectSelectorApplies(selector, false, 'connections', { kind: 'connection', id: 'c1' })).toBe(false);
    const both = parseObjectSelector({ playbooks: [{}], configs: [{}] });
    if (!both) throw new Error('no selector');
    expect(objectSelectorApplies(both, false, 'playbooks', target)).toBe(false);
    expect(objectSelectorApplies(both, true, 'playbooks', target)).toBe(true);
    expect(parseObjectSelector({ views: [] })).toBeNull();
  });
});
