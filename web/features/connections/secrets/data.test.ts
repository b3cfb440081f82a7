import { describe, expect, it } from 'vitest';
import { MASK } from '@common/connections';
import { dataFormProblems, dataFormToWrite, initialDataForm } from './data';

describe('secret and config map forms', () => {
  it('shows a secret by its keys only, and keeps a stored value left blank', () => {
    const form = initialDataForm({ id: 's1', name: 'pg', namespace: 'default', keys: ['password', 'user'], labels: { team: 'db' } }, true);
    expect(form.data).toEqual([
      { key: 'password', value: '', stored: true },
      { key: 'user', value: '', stored: true },
    ]);
    form.data[1] = { key: 'user', value: 'reader', stored: true };
    form.data.push({ key: 'host', value: 'db', stored: false });
    expect(dataFormToWrite(form, true)).toEqual({ data: { password: MASK, user: 'reader', host: 'db' }, labels: { team: 'db' } });
  });

  it('shows a config map with its values and creates with name and namespace', () => {
    const form = initialDataForm({ id: 'm1', name: 'settings', namespace: 'ops', keys: ['region'], data: { region: 'eu' } }, false);
    expect(form.data).toEqual([{ key: 'region', value: 'eu', stored: false }]);
    expect(dataFormToWrite({ ...form, name: 'copy' }, false)).toEqual({ name: 'copy', namespace: 'ops', data: { region: 'eu' }, labels: {} });
  });

  it('needs a name, and keys that are unique', () => {
    const form = initialDataForm(null, true);
    form.data = [
      { key: 'a', value: '1', stored: false },
      { key: 'a', value: '2', stored: false },
    ];
    expect(dataFormProblems(form)).toEqual({ name: 'This field is required', data: 'The key "a" is given twice' });
  });

  it("shows the server's name rule before saving a new one, and leaves a saved one's name alone", () => {
    const form = { ...initialDataForm(null, true), name: 'DB Creds', namespace: 'Team A' };
    expect(dataFormProblems(form)).toEqual({
      name: `"DB Creds" is not a valid name: use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit (at most 253)`,
      namespace: `"Team A" is not a valid namespace: use lowercase letters, digits and '-', starting and ending with a letter or digit (at most 63)`,
    });
    expect(dataFormProblems(form, true)).toEqual({});
    expect(dataFormProblems({ ...form, name: 'db-creds', namespace: 'team-a' })).toEqual({});
  });
});
