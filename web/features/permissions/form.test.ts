import { describe, expect, it } from 'vitest';
import {
  actionOptions,
  EMPTY_FORM,
  formOf,
  NOT_AN_ID,
  payloadOf,
  permissionFormSchema,
  PLAYBOOK_ACTION_ONLY,
  REQUIRED,
  resourceKindPatch,
  subjectKindPatch,
  type PermissionFormValues,
} from './form';
import type { Permission } from './schema';

const PERSON = '6f1c2f3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f';
const CONFIG = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

function messages(values: PermissionFormValues): Record<string, string> {
  const result = permissionFormSchema.safeParse(values);
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
}

function row(overrides: Partial<Permission>): Permission {
  return {
    id: 'p1', name: null, namespace: null, description: null, action: 'read', deny: false, subject: PERSON, subject_type: 'person',
    person_id: PERSON, team_id: null, notification_id: null, object: null, object_selector: null, config_id: null, component_id: null,
    canary_id: null, playbook_id: null, connection_id: null, tags: null, agents: null, until: null, source: 'UI',
    created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', person: null, team: null, group: null, created_by_person: null, waiting_for: [],
    ...overrides,
  };
}

describe('permission form validation (spec §5)', () => {
  it('requires the subject and, for Global, the object', () => {
    expect(messages(EMPTY_FORM)).toEqual({ subject: REQUIRED, object: REQUIRED });
    expect(messages({ ...EMPTY_FORM, subject: '  ' })).toMatchObject({ subject: REQUIRED });
  });

  it('requires the resource of a selector kind: an id, or tags or agents', () => {
    const catalog = { ...EMPTY_FORM, subject: PERSON, resourceKind: 'catalog' as const };
    expect(messages(catalog)).toEqual({ resourceId: REQUIRED });
    expect(messages({ ...catalog, resourceId: CONFIG })).toEqual({});
    expect(messages({ ...catalog, tags: [{ key: 'env', value: 'prod' }] })).toEqual({});
    expect(messages({ ...catalog, agents: [{ name: 'edge' }] })).toEqual({});
    // An empty row does not count as a selector; a value without a key is an error on the key.
    expect(messages({ ...catalog, tags: [{ key: '', value: '' }] })).toEqual({ resourceId: REQUIRED });
    expect(messages({ ...catalog, agents: [{ name: 'a' }], tags: [{ key: '', value: 'prod' }] })).toEqual({ 'tags.0.key': REQUIRED });
  });

  it('wants ids to be ids, except a role', () => {
    expect(messages({ ...EMPTY_FORM, subject: 'pat', object: 'canaries' })).toEqual({ subject: NOT_AN_ID });
    expect(messages({ ...EMPTY_FORM, subjectKind: 'group', subject: 'viewer', object: 'canaries' })).toEqual({});
    expect(messages({ ...EMPTY_FORM, subject: PERSON, resourceKind: 'connection', resourceId: 'nope' })).toEqual({ resourceId: NOT_AN_ID });
  });

  it('offers playbook actions only for playbooks', () => {
    expect(actionOptions({ resourceKind: 'global', object: 'canaries', action: 'read' })).not.toContain('playbook:run');
    expect(actionOptions({ resourceKind: 'global', object: 'playbooks', action: 'read' })).toContain('playbook:*');
    expect(actionOptions({ resourceKind: 'playbook', object: '', action: 'read' })).toContain('playbook:approve');
    expect(actionOptions({ resourceKind: 'global', object: 'rbac', action: 'playbook:run' })).toContain('playbook:run');
    expect(messages({ ...EMPTY_FORM, subject: PERSON, object: 'rbac', action: 'playbook:run' })).toEqual({ action: PLAYBOOK_ACTION_ONLY });
  });
});

describe('clearing rules (spec §4)', () => {
  it('changing the subject kind clears the subject', () => {
    expect(subjectKindPatch('team')).toEqual({ subjectKind: 'team', subject: '' });
  });

  it('changing the resource kind clears the object and the id; Global drops the selector', () => {
    const current = { tags: [{ key: 'env', value: 'prod' }], agents: [{ name: 'edge' }] };
    expect(resourceKindPatch('component', current)).toEqual({ resourceKind: 'component', object: '', resourceId: '', ...current });
    expect(resourceKindPatch('global', current)).toEqual({ resourceKind: 'global', object: '', resourceId: '', tags: [], agents: [] });
  });
});

describe('rows to forms and back', () => {
  it('writes every resource column, so nothing of an old kind stays', () => {
    const payload = payloadOf({ ...EMPTY_FORM, subject: PERSON, object: 'canaries', deny: true, description: '  no  ' });
    expect(payload).toEqual({
      subject_type: 'person', subject: PERSON, notification_id: null, object: 'canaries', config_id: null, component_id: null,
      connection_id: null, playbook_id: null, canary_id: null, tags: null, agents: null, action: 'read', deny: true, description: 'no', until: null,
    });
  });

  it('a selector without an id carries its kind’s object', () => {
    const payload = payloadOf({ ...EMPTY_FORM, subjectKind: 'group', subject: 'editor', resourceKind: 'component', tags: [{ key: ' team ', value: ' ops ' }, { key: '', value: '' }], agents: [{ name: ' edge ' }] });
    expect(payload).toMatchObject({ object: 'topology', component_id: null, tags: { team: 'ops' }, agents: ['edge'] });
    expect(payloadOf({ ...EMPTY_FORM, subject: PERSON, resourceKind: 'catalog', resourceId: CONFIG })).toMatchObject({ object: null, config_id: CONFIG });
  });

  it('reads a row back into the form it came from', () => {
    expect(formOf(row({ object: 'canaries', deny: true }))).toMatchObject({ subjectKind: 'person', subject: PERSON, resourceKind: 'global', object: 'canaries', deny: true });
    expect(formOf(row({ config_id: CONFIG }))).toMatchObject({ resourceKind: 'catalog', resourceId: CONFIG, object: '' });
    expect(formOf(row({ object: 'playbooks', tags: { env: 'prod' } }))).toMatchObject({ resourceKind: 'playbook', resourceId: '', tags: [{ key: 'env', value: 'prod' }] });
    expect(formOf(row({ subject_type: 'group', subject: 'viewer', person_id: null, object: 'rbac' }))).toMatchObject({ subjectKind: 'group', subject: 'viewer' });
    const values = formOf(row({ object: 'rbac', action: 'create,read,update,delete', until: '2030-05-01T10:00:00Z' }));
    expect(payloadOf(values)).toMatchObject({ object: 'rbac', action: 'create,read,update,delete', until: '2030-05-01T10:00:00.000Z' });
  });
});
