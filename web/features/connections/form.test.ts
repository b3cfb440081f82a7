import { describe, expect, it } from 'vitest';
import { connectionType, MASK, type ConnectionTypeDef } from '@common/connections';
import { answerProblems, formToInput, formToPatch, initialFormValues, problemsByField, secretFromStored, validateForm } from './form';
import { pickableGroups } from './type-picker';
import type { ConnectionRow } from './schema';

function def(type: string): ConnectionTypeDef {
  const found = connectionType(type);
  if (!found) throw new Error(type);
  return found;
}

const postgresRow: ConnectionRow = {
  id: 'c1',
  name: 'db',
  namespace: 'default',
  type: 'postgres',
  url: 'postgres://u:******@db:5432/app',
  username: 'postgres',
  password: MASK,
  certificate: null,
  insecure_tls: false,
  properties: {},
  source: 'UI',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

describe('connection form values', () => {
  it('pre-fills the type defaults and the default namespace', () => {
    const email = initialFormValues(def('email'), null);
    expect(email.namespace).toBe('default');
    expect(email.fields).toMatchObject({ port: '587', encryption: 'Auto', auth: 'Unknown' });
    expect(initialFormValues(def('git'), null).fields.ref).toBe('main');
    expect(initialFormValues(def('generic_webhook'), null).fields).toMatchObject({ method: 'POST', messageKey: 'message', titleKey: 'title', contentType: 'application/json' });
  });

  it('shows a stored static secret as set and a reference as its name and key', () => {
    expect(secretFromStored(MASK)).toMatchObject({ kept: true });
    expect(secretFromStored('secret://db-creds/password')).toEqual({ mode: 'secret', text: '', refName: 'db-creds', refKey: 'password', kept: false });
    expect(secretFromStored('configmap://settings/token')).toMatchObject({ mode: 'configmap', refName: 'settings', refKey: 'token' });
    expect(secretFromStored('')).toMatchObject({ mode: 'static', kept: false, text: '' });
  });

  it('writes each field at its target, references as text, and leaves blank fields out of a new connection', () => {
    const postgres = def('postgres');
    const values = initialFormValues(postgres, null);
    values.name = ' db ';
    values.fields.url = 'postgres://127.0.0.1:5432/postgres';
    values.fields.username = 'postgres';
    values.secrets.password = { mode: 'secret', text: '', refName: 'pg', refKey: 'password', kept: false };
    expect(formToInput(postgres, values, false)).toEqual({
      name: 'db',
      namespace: 'default',
      type: 'postgres',
      url: 'postgres://127.0.0.1:5432/postgres',
      username: 'postgres',
      password: 'secret://pg/password',
      insecure_tls: false,
    });
    const email = def('email');
    const mail = initialFormValues(email, null);
    expect(formToInput(email, mail, false).properties).toEqual({ port: '587', encryption: 'Auto', auth: 'Unknown' });
  });

  it('checks with the API rules: required fields by their label, numbers, half references', () => {
    const email = def('email');
    const values = initialFormValues(email, null);
    values.fields.port = 'abc';
    const problems = validateForm(email, values);
    expect(problems).toMatchObject({ name: 'Name is required', host: 'Host is required', port: 'Port must be a whole number', fromAddress: 'From Address is required' });
    const postgres = def('postgres');
    const pg = initialFormValues(postgres, null);
    pg.secrets.password = { mode: 'secret', text: '', refName: 'pg', refKey: '', kept: false };
    expect(validateForm(postgres, pg).password).toBe('Password: the secret key is required');
  });

  it('keeps a stored secret by sending the mask, and patches only what changed', () => {
    const postgres = def('postgres');
    const initial = initialFormValues(postgres, postgresRow);
    expect(initial.secrets.password?.kept).toBe(true);
    expect(validateForm(postgres, initial)).toEqual({});
    const edited = { ...initial, fields: { ...initial.fields, username: 'admin' } };
    // The URL answered with its password masked is not written back.
    expect(formToPatch(postgres, initial, edited)).toEqual({ username: 'admin' });
    const changed = { ...initial, secrets: { password: { mode: 'static' as const, text: 'new-pass', refName: '', refKey: '', kept: false } } };
    expect(formToPatch(postgres, initial, changed)).toEqual({ password: 'new-pass' });
  });

  it('places server problems at their fields by path', () => {
    const email = def('email');
    expect(problemsByField(email, [{ path: 'properties.port', message: 'Port must be a whole number' }, { path: 'name', message: 'is taken' }, { path: 'other', message: 'odd' }])).toEqual({
      port: 'Port must be a whole number',
      name: 'Name is taken',
      '': 'odd',
    });
    expect(answerProblems({ details: [{ path: 'url', message: 'URL is required' }, { path: ['properties', 'port'], message: 'bad' }, { path: 'body.name', message: 'is taken' }] })).toEqual([
      { path: 'url', message: 'URL is required' },
      { path: 'properties.port', message: 'bad' },
      { path: 'name', message: 'is taken' },
    ]);
  });
});

describe('type picker', () => {
  it('groups the pickable types by category and hides jmeter', () => {
    const groups = pickableGroups('');
    expect(groups.map((group) => group.category)).toEqual(['Databases', 'Notifications', 'Cloud', 'AI', 'Source control', 'Other']);
    expect(groups.flatMap((group) => group.types).some((type) => type.type === 'jmeter')).toBe(false);
    expect(pickableGroups('postg').flatMap((group) => group.types.map((type) => type.type))).toEqual(['postgres']);
  });
});
