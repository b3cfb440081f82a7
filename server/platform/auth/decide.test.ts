import { describe, expect, it } from 'vitest';
import { presetScopes } from '../../../common/rbac';
import { decide, mayAllowSome } from './decide';
import { parseObjectSelector } from './object-selector';
import type { Actor, PermissionRule } from './types';

function rule(overrides: Partial<PermissionRule>): PermissionRule {
  return {
    id: 'p1', action: 'read', deny: false, subject_type: 'person', subject: 'u1', object: null, config_id: null, component_id: null,
    canary_id: null, playbook_id: null, connection_id: null, tags: null, agents: null, ...overrides,
  };
}

function actor(overrides: Partial<Actor> = {}): Actor {
  return { id: 'u1', name: 'U', email: null, roles: [], teamIds: [], permissions: [], ...overrides };
}

describe('decide (spec §6: deny wins, then an explicit allow, then the role)', () => {
  it('grants by role, and names the role', () => {
    expect(decide(actor({ roles: ['viewer'] }), 'canaries', 'read')).toEqual({ allowed: true, reason: { kind: 'role', role: 'viewer' } });
    expect(decide(actor({ roles: ['viewer'] }), 'canaries', 'update')).toEqual({ allowed: false, reason: { kind: 'none' } });
  });

  it('lets a deny row win over an admin role and over an allow row', () => {
    const subject = actor({ roles: ['admin'], permissions: [rule({ id: 'allow', object: 'canaries', action: '*' }), rule({ id: 'deny', object: 'canaries', deny: true })] });
    expect(decide(subject, 'canaries', 'read')).toEqual({ allowed: false, reason: { kind: 'deny', permission: 'deny' } });
    expect(decide(subject, 'canaries', 'update')).toEqual({ allowed: true, reason: { kind: 'permission', permission: 'allow' } });
  });

  it('reads global objects and comma lists of actions', () => {
    const subject = actor({ permissions: [rule({ object: 'playbooks', action: 'create,read,update,delete' }), rule({ id: 'run', object: 'playbooks', action: 'playbook:*' })] });
    expect(decide(subject, 'playbook_runs', 'delete').allowed).toBe(true);
    expect(decide(subject, 'playbooks', 'playbook:approve').reason).toEqual({ kind: 'permission', permission: 'run' });
    expect(decide(subject, 'canaries', 'read').allowed).toBe(false);
    expect(decide(actor({ permissions: [rule({ object: 'rbac', action: 'read' })] }), 'permissions', 'read').allowed).toBe(true);
  });

  it('applies rows that name one resource or a selector only to that resource', () => {
    const subject = actor({
      roles: ['viewer'],
      permissions: [
        rule({ id: 'one', canary_id: 'c1', action: 'update' }),
        rule({ id: 'prod', object: 'canaries', tags: { env: 'prod' }, deny: true }),
        rule({ id: 'edge', object: 'canaries', agents: ['edge-1'], action: 'delete' }),
      ],
    });
    expect(decide(subject, 'canaries', 'update').allowed).toBe(false);
    expect(decide(subject, 'canaries', 'update', { kind: 'canary', id: 'c1' }).allowed).toBe(true);
    expect(decide(subject, 'canaries', 'update', { kind: 'canary', id: 'c2' }).allowed).toBe(false);
    expect(decide(subject, 'canaries', 'read').allowed).toBe(true);
    expect(decide(subject, 'canaries', 'read', { kind: 'canary', id: 'c3', tags: { env: 'prod', team: 'a' } }).reason).toEqual({ kind: 'deny', permission: 'prod' });
    expect(decide(subject, 'canaries', 'read', { kind: 'canary', id: 'c3', tags: { env: 'dev' } }).allowed).toBe(true);
    expect(decide(subject, 'canaries', 'delete', { kind: 'canary', id: 'c4', agent: 'edge-1' }).allowed).toBe(true);
    expect(decide(subject, 'canaries', 'delete', { kind: 'canary', id: 'c4', agent: 'edge-2' }).allowed).toBe(false);
  });

  it('limits a token to the intersection of its scopes and its owner', () => {
    const owner = { roles: ['editor' as const] };
    const read = actor({ ...owner, token: { id: 't', scopes: presetScopes('Read') } });
    expect(decide(read, 'canaries', 'read').allowed).toBe(true);
    expect(decide(read, 'canaries', 'create')).toEqual({ allowed: false, reason: { kind: 'token', token: 't' } });
    expect(decide(read, 'database', 'read').allowed).toBe(true);
    const write = actor({ ...owner, token: { id: 't', scopes: presetScopes('Write') } });
    expect(decide(write, 'database', 'create').allowed).toBe(true);
    expect(decide(write, 'database', 'update').allowed).toBe(false);
    const admin = actor({ ...owner, token: { id: 't', scopes: presetScopes('Admin') } });
    expect(decide(admin, 'identities', 'read').allowed).toBe(false);
    const custom = actor({ ...owner, token: { id: 't', scopes: [{ object: 'canaries', action: 'read' }] } });
    expect(decide(custom, 'canaries', 'read').allowed).toBe(true);
    expect(decide(custom, 'database', 'read').allowed).toBe(false);
    expect(decide(custom, 'playbooks', 'read').allowed).toBe(false);
  });

  it('decides a view for permissions selecting views (name with `*`, namespace), a deny winning', () => {
    const alpha = { kind: 'view', id: 'v1', name: 'alpha', namespace: 'default' } as const;
    const beta = { kind: 'view', id: 'v2', name: 'beta', namespace: 'default' } as const;
    const reader = actor({ permissions: [rule({ object_selector: parseObjectSelector({ views: [{ name: 'al*', namespace: 'default' }] }) })] });
    expect(decide(reader, 'views', 'read', alpha).allowed).toBe(true);
    expect(decide(reader, 'views', 'read', beta).allowed).toBe(false);
    expect(decide(reader, 'views', 'read').allowed).toBe(false);
    expect(decide(reader, 'views', 'update', alpha).allowed).toBe(false);
    expect(mayAllowSome(reader, 'views', 'read', 'view')).toBe(true);
    const editor = actor({ roles: ['editor'], permissions: [rule({ id: 'deny', deny: true, object_selector: parseObjectSelector({ views: [{ name: 'alpha' }] }) })] });
    expect(decide(editor, 'views', 'read', alpha)).toEqual({ allowed: false, reason: { kind: 'deny', permission: 'deny' } });
    expect(decide(editor, 'views', 'read', beta).allowed).toBe(true);
    expect(mayAllowSome(actor(), 'views', 'read', 'view')).toBe(false);
  });
});
