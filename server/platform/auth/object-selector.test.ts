import { describe, expect, it } from 'vitest';
import { matchTarget, objectSelectorApplies, parseObjectSelector, scopeAlternatives, selectsKind } from './object-selector';
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

  it('reads a connection selector\'s `type` as one of its types', () => {
    const selector = parseObjectSelector({ connections: [{ type: 's3' }] });
    if (!selector) throw new Error('no selector');
    const bucket: AccessTarget = { kind: 'connection', id: 'c1', name: 'invoices', namespace: 'billing', type: 's3' };
    expect(objectSelectorApplies(selector, false, 'connections', bucket)).toBe(true);
    expect(objectSelectorApplies(selector, false, 'connections', { ...bucket, type: 'postgres' })).toBe(false);
  });

  it('expands a Scope\'s targets into alternatives, one kind each; global stands for every kind', () => {
    const alternatives = scopeAlternatives([{ config: { tagSelector: 'cluster=prod' } }, { playbook: { name: 'restart-*' } }, { global: { agent: 'edge' } }, { unknown: { name: 'x' } }]);
    expect(alternatives.map((alternative) => alternative.kinds)).toEqual([['configs'], ['playbooks'], ['configs'], ['components'], ['playbooks'], ['canaries'], ['views']]);
    const config: AccessTarget = { kind: 'config', id: 'c1', name: 'api', tags: { cluster: 'prod' }, agent: 'core' };
    const applies = (item: AccessTarget, resource: Parameters<typeof objectSelectorApplies>[2]) => alternatives.some((alternative) => objectSelectorApplies(alternative, false, resource, item));
    expect(applies(config, 'config_scrapers')).toBe(true);
    expect(applies({ ...config, tags: { cluster: 'dev' } }, 'config_scrapers')).toBe(false);
    expect(applies({ ...config, tags: { cluster: 'dev' }, agent: 'edge' }, 'config_scrapers')).toBe(true);
    expect(applies(target, 'playbooks')).toBe(true);
    expect(applies({ ...target, name: 'delete-pod' }, 'playbooks')).toBe(false);
    expect(selectsKind({ scopes: alternatives }, 'view')).toBe(true);
    expect(selectsKind({ scopes: scopeAlternatives([{ config: { name: '*' } }]) }, 'view')).toBe(false);
    expect(scopeAlternatives('not a list')).toEqual([]);
  });
});
