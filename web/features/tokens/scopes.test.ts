import { presetScopes } from '@common/rbac';
import { describe, expect, it } from 'vitest';
import { expiryChoiceOf, expiryPayload, firstExpiryDate, isValidExpiry } from './expiry';
import { actionsOn, applyLevel, levelOf, noObjectActions, presetObjectActions, scopeSummary, scopesOf } from './scopes';
import { createPayload, initialPreset, initialValues, NAME_REQUIRED, SCOPE_REQUIRED, tokenFormSchema } from './token-form';

const keysOn = (flags: Record<string, boolean | undefined>) => Object.keys(flags).filter((key) => flags[key]);

describe('token scopes', () => {
  it('Read grants read on every object and mcp:*', () => {
    expect(keysOn(presetObjectActions('Read'))).toEqual(['mcp:*', 'canaries:read', 'catalog:read', 'application:read', 'playbooks:read', 'notification:read']);
  });

  it('Write grants read and create, and mcp:*', () => {
    const flags = presetObjectActions('Write');
    expect(actionsOn(flags, 'canaries')).toEqual(['read', 'create']);
    expect(actionsOn(flags, 'playbooks')).toEqual(['read', 'create']);
    expect(flags['mcp:*']).toBe(true);
    expect(flags['playbooks:playbook:run']).toBe(false);
  });

  it('Admin grants every action, playbook run and approve included', () => {
    const flags = presetObjectActions('Admin');
    expect(actionsOn(flags, 'playbooks')).toEqual(['read', 'create', 'update', 'delete', 'playbook:run', 'playbook:approve']);
    expect(actionsOn(flags, 'notification')).toEqual(['read', 'create', 'update', 'delete']);
    expect(scopesOf(flags)).toHaveLength(presetScopes('Admin').length);
  });

  it('choosing a preset resets every flag first; Custom leaves them all off', () => {
    const custom = applyLevel(presetObjectActions('Admin'), 'canaries', 'Read');
    expect(keysOn(presetObjectActions('Read'))).not.toContain('canaries:create');
    expect(keysOn(presetObjectActions('Custom'))).toEqual([]);
    expect(keysOn(custom)).toContain('catalog:delete');
  });

  it('maps the levels of spec §4 to actions', () => {
    const none = noObjectActions();
    expect(actionsOn(applyLevel(none, 'catalog', 'Read'), 'catalog')).toEqual(['read']);
    expect(actionsOn(applyLevel(none, 'catalog', 'Write'), 'catalog')).toEqual(['read', 'create']);
    expect(actionsOn(applyLevel(none, 'catalog', 'Admin'), 'catalog')).toEqual(['read', 'create', 'update', 'delete']);
    expect(actionsOn(applyLevel(none, 'playbooks', 'Run'), 'playbooks')).toEqual(['read', 'playbook:run']);
    expect(actionsOn(applyLevel(none, 'playbooks', 'Approve'), 'playbooks')).toEqual(['read', 'playbook:run', 'playbook:approve']);
    expect(actionsOn(applyLevel(none, 'playbooks', 'Write'), 'playbooks')).toEqual(['read', 'create', 'delete', 'playbook:run', 'playbook:approve']);
    expect(actionsOn(applyLevel(none, 'mcp', 'Admin'), 'mcp')).toEqual(['*']);
    // A lower level takes away what a higher one gave, and touches no other object.
    const lowered = applyLevel(presetObjectActions('Admin'), 'canaries', 'Read');
    expect(actionsOn(lowered, 'canaries')).toEqual(['read']);
    expect(actionsOn(lowered, 'catalog')).toEqual(['read', 'create', 'update', 'delete']);
    expect(actionsOn(applyLevel(lowered, 'canaries', 'None'), 'canaries')).toEqual([]);
  });

  it('reads the level back, or none for a mixture', () => {
    const flags = presetObjectActions('Write');
    expect(levelOf(flags, 'canaries')).toBe('Write');
    expect(levelOf(flags, 'mcp')).toBe('Admin');
    expect(levelOf(noObjectActions(), 'playbooks')).toBe('None');
    expect(levelOf(presetObjectActions('Admin'), 'playbooks')).toBeUndefined();
    expect(levelOf(applyLevel(flags, 'playbooks', 'Approve'), 'playbooks')).toBe('Approve');
  });

  it('MCP mode starts on Custom with only mcp:* on (spec §4); the Tokens page on Read', () => {
    expect(initialPreset('mcp')).toBe('Custom');
    expect(keysOn(initialValues('mcp').objectActions)).toEqual(['mcp:*']);
    expect(initialValues('mcp').name).toBe('mcp-client');
    expect(initialPreset('default')).toBe('Read');
    expect(keysOn(initialValues('default').objectActions)).toContain('catalog:read');
    expect(initialValues('default').name).toBe('');
  });

  it('summarises scopes compactly', () => {
    expect(
      scopeSummary([
        { object: 'canaries', action: 'create' },
        { object: 'canaries', action: 'read' },
        { object: 'playbooks', action: 'playbook:run' },
      ]),
    ).toBe('canaries: read, create · playbooks: run');
    expect(scopeSummary([{ object: 'mcp', action: '*' }])).toBe('mcp: all');
    expect(scopeSummary([])).toBe('');
  });
});

describe('token form', () => {
  const valid = { name: '  ci  ', expiry: 'never', objectActions: presetObjectActions('Read') };

  it('requires a name that is not blank once trimmed', () => {
    for (const name of ['', '   ']) {
      const result = tokenFormSchema.safeParse({ ...valid, name });
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([NAME_REQUIRED]);
    }
  });

  it('requires at least one scope', () => {
    const result = tokenFormSchema.safeParse({ ...valid, objectActions: noObjectActions() });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([SCOPE_REQUIRED]);
  });

  it('builds the create payload: trimmed name, expiry, scopes with an empty subject', () => {
    const parsed = tokenFormSchema.parse(valid);
    expect(createPayload(parsed)).toEqual({
      name: 'ci',
      expiry: 'never',
      scope: presetScopes('Read'),
    });
    expect(createPayload(tokenFormSchema.parse({ ...valid, expiry: '30d' })).expiry).toBe('30d');
  });
});

describe('token expiry', () => {
  const now = new Date(2026, 5, 15, 12, 0, 0);

  it('keeps choices and recognises dates as custom', () => {
    expect(expiryChoiceOf('never')).toBe('never');
    expect(expiryChoiceOf('90d')).toBe('90d');
    expect(expiryChoiceOf('2027-01-31')).toBe('custom');
    expect(expiryChoiceOf('')).toBe('custom');
  });

  it('accepts only real dates after today', () => {
    expect(firstExpiryDate(now)).toBe('2026-06-16');
    expect(isValidExpiry('2026-06-16', now)).toBe(true);
    expect(isValidExpiry('2026-06-15', now)).toBe(false);
    expect(isValidExpiry('2026-02-31', now)).toBe(false);
    expect(isValidExpiry('', now)).toBe(false);
    expect(isValidExpiry('1y', now)).toBe(true);
  });

  it('sends a custom date as the end of that local day', () => {
    expect(expiryPayload('2027-01-31')).toBe(new Date(2027, 0, 31, 23, 59, 59, 999).toISOString());
    expect(expiryPayload('never')).toBe('never');
  });
});
