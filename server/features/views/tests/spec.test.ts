import { describe, expect, it } from 'vitest';
import { checkViewSpec, viewSpecJsonSchema } from '../spec';

/** The View spec checked whole (server/features/views/spec.ts): problems by path, unread fields warned. */

const good = () => ({
  display: { title: 'Pods', icon: 'kubernetes::pod', sidebar: true, ordinal: 2, table: { sort: '-created', size: 20 } },
  columns: [
    { name: 'id', type: 'string', primaryKey: true, hidden: true },
    { name: 'name', type: 'config_item', configItem: { idField: 'id' }, url: { config: 'row.id' } },
    { name: 'cpu', type: 'gauge', gauge: { max: '1000', thresholds: [{ percent: 0, color: 'green' }, { value: '80', color: 'red' }] } },
    { name: 'link', type: 'url', for: 'name' },
    { name: 'created', type: 'datetime' },
  ] as Array<Record<string, unknown>>,
  queries: { pods: { configs: { types: ['Kubernetes::Pod'], tagSelector: 'namespace=$(.var.namespace)' } } } as Record<string, unknown>,
  mapping: { id: 'row.id', name: 'row.name', created: 'row.created_at', cpu: 'has(row.cpu) ? row.cpu : 0' } as Record<string, string>,
  panels: [{ name: 'Health', type: 'piechart', piechart: { showLabels: true }, query: 'SELECT health, COUNT(*) AS count FROM pods GROUP BY health' }] as Array<Record<string, unknown>>,
  templating: [
    { key: 'cluster', label: 'Cluster', values: ['a', 'b'], default: 'a' },
    { key: 'namespace', label: 'Namespace', dependsOn: ['cluster'], valueFrom: { config: { types: ['Kubernetes::Namespace'] } } },
  ] as Array<Record<string, unknown>>,
  cache: { maxAge: '15m', minAge: '10s', refreshTimeout: '5s' },
});

function problems(spec: Record<string, unknown>) {
  return checkViewSpec(spec).problems;
}

describe('checkViewSpec', () => {
  it('accepts a full spec, without warnings', () => {
    const checked = checkViewSpec(good());
    expect(checked.problems).toEqual([]);
    expect(checked.checked?.warnings).toEqual([]);
    expect(checked.checked?.spec.columns?.[2]?.gauge?.thresholds?.[1]?.value).toBe(80);
  });

  it('checks one spec object once', () => {
    const spec = good();
    expect(checkViewSpec(spec)).toBe(checkViewSpec(spec));
  });

  it('refuses an unknown column type with its path', () => {
    const spec = good();
    spec.columns[2] = { name: 'cpu', type: 'percent' };
    expect(problems(spec)).toEqual([{ path: 'spec.columns[2].type', message: expect.stringMatching(/^must be one of string, number, boolean, datetime, duration, health, status, gauge, bytes, decimal, millicore, url, badge, config_item, labels$/) }]);
  });

  it('refuses two columns of one name, no primary key, and a for naming no column', () => {
    const spec = good();
    spec.columns = [{ name: 'name', type: 'string' }, { name: 'name', type: 'number' }, { name: 'link', type: 'url', for: 'nope' }];
    spec.mapping = {};
    expect(problems(spec)).toEqual([
      { path: 'spec.columns[1].name', message: '"name" is named twice: column names are unique in a view' },
      { path: 'spec.columns[2].for', message: '"nope" is not a column of this view (name, link)' },
      { path: 'spec.columns', message: 'needs a primary key: set primaryKey: true on the column(s) that identify a row' },
    ]);
  });

  it('refuses a gauge column without gauge options', () => {
    const spec = good();
    spec.columns[2] = { name: 'cpu', type: 'gauge' };
    expect(problems(spec)).toEqual([{ path: 'spec.columns[2].gauge', message: 'is required for a gauge column: {min, max, thresholds}' }]);
  });

  it('refuses a mapping that does not parse as CEL; warns for a key that is no column', () => {
    const spec = good();
    spec.mapping = { ...spec.mapping, name: 'row.name +' };
    expect(problems(spec)).toEqual([{ path: 'spec.mapping.name', message: expect.stringContaining('does not parse') }]);
    const extra = good();
    extra.mapping = { ...extra.mapping, namespace: 'row.tags.namespace' };
    expect(checkViewSpec(extra).checked?.warnings).toEqual(['spec.mapping.namespace is not a column of this view: its value is computed but not shown']);
  });

  it('warns for CEL this console cannot evaluate (Mission Control functions), naming the field', () => {
    const spec = good();
    spec.columns[1] = { name: 'name', type: 'string', url: { config: 'f("name=$(.namespace)", row)' } };
    const checked = checkViewSpec(spec);
    expect(checked.problems).toEqual([]);
    expect(checked.checked?.warnings).toEqual([expect.stringMatching(/^spec\.columns\[1\]\.url\.config: .*f.*this field gives no value here$/)]);
  });

  it('refuses a query with no source, or two', () => {
    const spec = good();
    spec.queries = { pods: { columns: { id: 'string' } }, both: { configs: {}, changes: {} } };
    expect(problems(spec)).toEqual([
      { path: 'spec.queries.pods', message: 'names no source: give one of configs, changes, sql, http, prometheus, viewTableSelector' },
      { path: 'spec.queries.both', message: 'names configs and changes: a query has exactly one source' },
    ]);
  });

  it('refuses sql without a query, http without a url or connection', () => {
    expect(problems({ ...good(), queries: { a: { sql: { connection: 'connection://db' } }, b: { http: { method: 'GET' } } } })).toEqual([{ path: 'spec.queries.a.sql.query', message: 'is required' }]);
    expect(problems({ ...good(), queries: { b: { http: { method: 'GET' } } } })).toEqual([{ path: 'spec.queries.b.http', message: 'needs a url or a connection' }]);
  });

  it('warns of a panel without a query (Mission Control applies it and fails the panel when run)', () => {
    for (const panel of [{ name: 'A', type: 'number', query: '  ' }, { name: 'A', type: 'number' }]) {
      const checked = checkViewSpec({ ...good(), panels: [panel] });
      expect(checked.problems).toEqual([]);
      expect(checked.checked?.warnings).toEqual(['spec.panels[0].query is empty: the panel shows the error "query is required" (give SQL over the view\'s query results)']);
    }
    expect(problems({ ...good(), panels: [{ name: 'A', type: 'number', query: 42 }] })).toEqual([{ path: 'spec.panels[0].query', message: 'must be text: SQL over the view\'s query results' }]);
  });

  it('refuses a panel of an unknown type, or with options of another type', () => {
    expect(problems({ ...good(), panels: [{ name: 'A', type: 'sparkline', query: 'SELECT 1' }] })).toEqual([{ path: 'spec.panels[0].type', message: expect.stringMatching(/^must be one of piechart, text, gauge, number, table, duration, bargauge, properties, timeseries, heatmap$/) }]);
    expect(problems({ ...good(), panels: [{ name: 'A', type: 'number', gauge: {}, query: 'SELECT 1' }] })).toEqual([{ path: 'spec.panels[0].gauge', message: 'is for gauge panels only; this panel is number' }]);
  });

  it('refuses a variable with neither values nor valueFrom, and dependsOn naming no variable', () => {
    const spec = good();
    spec.templating = [{ key: 'env', label: 'Env' }, { key: 'ns', label: 'Ns', values: ['a'], dependsOn: ['cluster'] }];
    expect(problems(spec)).toEqual([
      { path: 'spec.templating[0]', message: 'has no values: give values: [..] or valueFrom: {config: <selector>}' },
      { path: 'spec.templating[1].dependsOn[0]', message: '"cluster" is not a variable of this view' },
    ]);
  });

  it('refuses a bad cache duration and a view that shows nothing', () => {
    const spec = good();
    expect(problems({ ...spec, cache: { maxAge: 'soon' } })).toEqual([{ path: 'spec.cache.maxAge', message: 'is not a duration such as 30s, 5m or 1h' }]);
    expect(problems({ queries: spec.queries })).toEqual([{ path: 'spec', message: 'shows nothing: give columns, panels or sections' }]);
    expect(problems({ columns: spec.columns, mapping: spec.mapping })).toEqual([{ path: 'spec.queries', message: 'is required: a view needs queries (or sections embedding other views)' }]);
  });

  it('refuses a section without a view', () => {
    expect(problems({ sections: [{ title: 'x' }] })).toEqual([{ path: 'spec.sections[0].viewRef', message: 'is required: {namespace, name} of the view to embed' }]);
  });

  it('warns for fields it does not read or run, each by path, and leaves them out of the checked spec', () => {
    const spec = {
      ...good(),
      title: 'Old place',
      mcp: { description: 'for LLMs' },
      panels: [{ name: 'Run', type: 'playbooks', query: '' }],
      sections: [{ title: 'Changes', uiRef: { changes: { severity: 'high' } } }],
      columns: [...good().columns, { name: 'x', type: 'string', cardPosition: 'body', sparkle: true }],
    };
    const checked = checkViewSpec(spec);
    expect(checked.problems).toEqual([]);
    expect(checked.checked?.warnings).toEqual([
      'spec.columns[5].sparkle is not read by this console and was ignored',
      'spec.title is not read by this console and was ignored',
      'spec.columns[5].cardPosition is the older name of card.position: read as card.position',
      'spec.panels[0].type: playbooks panels are not run by this console: the panel is not shown',
      'spec.sections[0].uiRef is not run by this console: the section is not shown (embed a view with viewRef instead)',
    ]);
    expect(checked.checked?.spec.mcp).toEqual({ description: 'for LLMs' });
    expect(checked.checked?.spec.panels).toEqual([]);
    expect(checked.checked?.spec.sections).toEqual([]);
  });

  it('has a JSON schema naming every part', () => {
    expect(Object.keys((viewSpecJsonSchema().properties ?? {}) as object)).toEqual(expect.arrayContaining(['display', 'queries', 'merge', 'columns', 'mapping', 'panels', 'templating', 'cache', 'sections', 'mcp']));
  });
});
