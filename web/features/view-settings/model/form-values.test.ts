import { describe, expect, it } from 'vitest';
import { sameDocument } from '@web/features/canaries/model/document';
import { documentToForm, formTargetOf, formToDocument, newColumn, newQuery, newViewForm, parseViewYaml, viewFormSchema, viewToYaml } from './form-values';

const pods = {
  name: 'pods',
  namespace: 'mc',
  labels: { team: 'platform' },
  spec: {
    display: { title: 'Pods', icon: 'pod', sidebar: true, ordinal: 2, card: { columns: 2 } },
    columns: [
      { name: 'name', type: 'string', primaryKey: true, description: 'The pod name.' },
      { name: 'health', type: 'health' },
      { name: 'raw', type: 'labels', hidden: true },
    ],
    merge: 'SELECT * FROM pod',
    queries: {
      pod: { configs: { search: '@order=name', tagSelector: 'namespace in (media)', types: ['Kubernetes::Pod'] } },
      metrics: { prometheus: { connection: 'connection://mc/prometheus', query: 'up' } },
      recent: { changes: { types: ['Kubernetes::Pod', 'Kubernetes::Deployment'] }, columns: { name: 'string' } },
    },
    mapping: { created: 'row.created_at' },
  },
};

describe('view form ↔ spec', () => {
  it('reads display, columns and queries into the form and keeps everything else', () => {
    const form = documentToForm(pods);
    expect(form).toMatchObject({ name: 'pods', namespace: 'mc', title: 'Pods', icon: 'pod', sidebar: true, ordinal: '2', labels: [{ name: 'team', value: 'platform' }] });
    expect(form.displayRest).toEqual({ card: { columns: 2 } });
    expect(form.specRest).toEqual({ merge: 'SELECT * FROM pod', mapping: { created: 'row.created_at' } });
    expect(form.columns).toEqual([
      { name: 'name', type: 'string', primaryKey: true, hidden: false, rest: { description: 'The pod name.' } },
      { name: 'health', type: 'health', primaryKey: false, hidden: false, rest: {} },
      { name: 'raw', type: 'labels', primaryKey: false, hidden: true, rest: {} },
    ]);
    expect(form.queries).toEqual([
      { name: 'pod', kind: 'configs', types: 'Kubernetes::Pod', search: '@order=name', rest: {}, block: { tagSelector: 'namespace in (media)' } },
      { name: 'metrics', kind: 'prometheus', types: '', search: '', rest: {}, block: { connection: 'connection://mc/prometheus', query: 'up' } },
      { name: 'recent', kind: 'changes', types: 'Kubernetes::Pod, Kubernetes::Deployment', search: '', rest: { columns: { name: 'string' } }, block: {} },
    ]);
  });

  it('writes back the same spec it read', () => {
    expect(sameDocument(formToDocument(documentToForm(pods)), pods)).toBe(true);
  });

  it('writes a new view from the form: display, queries by name, columns with their flags', () => {
    const values = {
      ...newViewForm(),
      name: ' deployments ',
      namespace: '',
      title: 'Deployments',
      sidebar: true,
      ordinal: '-3',
      queries: [{ ...newQuery('deps', 'configs'), types: 'Kubernetes::Deployment, , Kubernetes::StatefulSet', search: ' health=healthy ' }],
      columns: [{ ...newColumn('name', 'string'), primaryKey: true }, { ...newColumn('replicas', 'number'), hidden: true }],
    };
    expect(viewFormSchema.safeParse(values).success).toBe(true);
    expect(formToDocument(values)).toEqual({
      name: 'deployments',
      namespace: 'default',
      labels: {},
      spec: {
        display: { title: 'Deployments', sidebar: true, ordinal: -3 },
        queries: { deps: { configs: { types: ['Kubernetes::Deployment', 'Kubernetes::StatefulSet'], search: 'health=healthy' } } },
        columns: [
          { name: 'name', type: 'string', primaryKey: true },
          { name: 'replicas', type: 'number', hidden: true },
        ],
      },
    });
  });

  it('leaves out an empty display, no queries and no columns', () => {
    expect(formToDocument({ ...newViewForm(), name: 'empty' }).spec).toEqual({});
  });

  it('refuses what the form can tell: names missing or repeated, no type, an ordinal that is not whole', () => {
    const result = viewFormSchema.safeParse({
      ...newViewForm(),
      ordinal: '1.5',
      columns: [newColumn('a'), newColumn('a'), { ...newColumn(''), type: '' }],
      queries: [newQuery(''), newQuery('q'), newQuery('q')],
    });
    expect(result.success).toBe(false);
    const issues = (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(issues).toEqual(
      expect.arrayContaining([
        'name: This field is required',
        'ordinal: Must be a whole number',
        'columns.1.name: Another column is named a',
        'columns.2.name: This field is required',
        'columns.2.type: This field is required',
        'queries.0.name: This field is required',
        'queries.2.name: Another query is named q',
      ]),
    );
  });

  it('round-trips through the Code tab YAML as kind: View', () => {
    const yaml = viewToYaml(pods);
    expect(yaml).toContain('apiVersion: mission-control.flanksource.com/v1');
    expect(yaml).toContain('kind: View');
    expect(yaml.indexOf('display:')).toBeLessThan(yaml.indexOf('queries:'));
    const parsed = parseViewYaml(yaml);
    expect(parsed.problems).toEqual([]);
    expect(parsed.doc && sameDocument(parsed.doc, pods)).toBe(true);
    expect(parseViewYaml('kind: Playbook\nmetadata:\n  name: x\nspec: {}\n').problems).toEqual([{ path: ['kind'], message: 'must be View' }]);
  });

  it("places the server's problems on their fields", () => {
    const form = documentToForm(pods);
    expect(formTargetOf('spec.columns[1].type', form)).toBe('columns.1.type');
    expect(formTargetOf('body.spec.columns.0.type', form)).toBe('columns.0.type');
    expect(formTargetOf('spec.columns[2]', form)).toBe('columns.2.name');
    expect(formTargetOf('spec.columns[9].type', form)).toBeUndefined();
    expect(formTargetOf('spec.display.ordinal', form)).toBe('ordinal');
    expect(formTargetOf('spec.display.card', form)).toBeUndefined();
    expect(formTargetOf('spec.queries.recent.changes.types', form)).toBe('queries.2.types');
    expect(formTargetOf('spec.queries.pod.configs.search', form)).toBe('queries.0.search');
    expect(formTargetOf('spec.queries.pod', form)).toBe('queries.0.name');
    expect(formTargetOf('spec.queries.metrics.prometheus.query', form)).toBeUndefined();
    expect(formTargetOf('name', form)).toBe('name');
  });
});
