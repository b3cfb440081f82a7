import { describe, expect, it } from 'vitest';
import { CODE_OBJECT_MESSAGE, codeToText, formSchema, initialValues, pairsToText, parseCode, valuesToWrite } from './form-values';
import type { ResourceField } from './types';
import { linkedSource } from './values';

const fields: ResourceField[] = [
  { name: 'name', label: 'Name', required: true, immutable: true },
  { name: 'icon', label: 'Icon', defaultValue: 'group' },
  { name: 'spec', label: 'Spec', kind: 'code' },
];

describe('code fields', () => {
  it('read YAML and JSON objects, and blank as an empty object', () => {
    expect(parseCode('')).toEqual({ ok: true, value: {} });
    expect(parseCode('  \n')).toEqual({ ok: true, value: {} });
    expect(parseCode('a: 1\nb:\n  c: [x, y]')).toEqual({ ok: true, value: { a: 1, b: { c: ['x', 'y'] } } });
    expect(parseCode('{"a": true, "b": null}')).toEqual({ ok: true, value: { a: true, b: null } });
  });

  it('refuse lists, bare values and syntax errors with a message', () => {
    expect(parseCode('- a')).toEqual({ ok: false, message: CODE_OBJECT_MESSAGE });
    expect(parseCode('just words')).toEqual({ ok: false, message: CODE_OBJECT_MESSAGE });
    const broken = parseCode('a: [1');
    expect(broken.ok).toBe(false);
    if (!broken.ok) {
      expect(broken.message).toMatch(/^Invalid YAML: /);
      expect(broken.message).not.toContain('\n');
    }
  });

  it('show stored objects as YAML, and an empty one as blank', () => {
    expect(codeToText({})).toBe('');
    expect(codeToText(null)).toBe('');
    expect(codeToText({ a: { b: 1 } })).toBe('a:\n  b: 1\n');
  });
});

describe('form values', () => {
  it('start from the defaults for a new row and from the row otherwise', () => {
    expect(initialValues(fields, null)).toEqual({ name: '', icon: 'group', spec: '' });
    expect(initialValues(fields, { name: 'ops', icon: 'shield', spec: { a: 1 } })).toEqual({ name: 'ops', icon: 'shield', spec: 'a: 1\n' });
  });

  it('validate required and code fields', () => {
    const schema = formSchema(fields);
    expect(schema.safeParse({ name: 'ops', icon: '', spec: 'a: 1' }).success).toBe(true);
    const result = schema.safeParse({ name: ' ', icon: '', spec: '- x' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['name', 'This field is required'],
      ['spec', CODE_OBJECT_MESSAGE],
    ]);
  });

  it('write objects for code, defaults for blanks, and leave immutable fields out of an update', () => {
    expect(valuesToWrite(fields, { name: 'ops', icon: ' ', spec: 'a: 1' }, false)).toEqual({ name: 'ops', icon: 'group', spec: { a: 1 } });
    expect(valuesToWrite(fields, { name: 'renamed', icon: 'shield', spec: '' }, true)).toEqual({ icon: 'shield', spec: {} });
    expect(() => valuesToWrite(fields, { name: 'ops', icon: '', spec: '- x' }, false)).toThrow(`Spec: ${CODE_OBJECT_MESSAGE}`);
  });
});

describe('key-value fields', () => {
  const pairs: ResourceField[] = [{ name: 'labels', label: 'Labels', kind: 'pairs' }];

  it('show an object as rows, write the rows with a key as an object', () => {
    expect(JSON.parse(initialValues(pairs, { labels: { team: 'web', tier: 'db' } }).labels ?? '')).toEqual([
      { name: 'team', value: 'web' },
      { name: 'tier', value: 'db' },
    ]);
    expect(initialValues(pairs, null).labels).toBe('[]');
    const text = pairsToText([{ name: ' team ', value: 'web' }, { name: '', value: '' }]);
    expect(valuesToWrite(pairs, { labels: text }, false)).toEqual({ labels: { team: 'web' } });
  });

  it('need a key for every value and no key twice', () => {
    const issues = (rows: Array<{ name: string; value: string }>) => formSchema(pairs).safeParse({ labels: pairsToText(rows) }).error?.issues.map((issue) => issue.message);
    expect(issues([{ name: '', value: 'web' }])).toEqual(['Every value needs a key']);
    expect(issues([{ name: 'a', value: '1' }, { name: 'a', value: '2' }])).toEqual(['The key "a" is given twice']);
    expect(issues([{ name: 'a', value: '1' }])).toBeUndefined();
  });
});

describe('linked rows', () => {
  it('are rows whose source is not the UI', () => {
    expect(linkedSource({ source: 'KubernetesCRD' })).toBe('KubernetesCRD');
    expect(linkedSource({ source: 'UI' })).toBeUndefined();
    expect(linkedSource({ name: 'no source column' })).toBeUndefined();
    expect(linkedSource(null)).toBeUndefined();
  });

  it("are an agent's own resources pushed here, not those defined here for an agent", () => {
    const agent = '6f1f2b9e-8a57-4a41-9f3a-3d2a0f6b6c11';
    expect(linkedSource({ source: 'UI', agent_id: agent, upstream_origin: false })).toBe('Agent');
    expect(linkedSource({ source: 'UI', agent_id: agent, upstream_origin: true })).toBeUndefined();
    expect(linkedSource({ source: 'UI', agent_id: '00000000-0000-0000-0000-000000000000', upstream_origin: false })).toBeUndefined();
  });
});
