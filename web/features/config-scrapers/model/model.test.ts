import { describe, expect, it } from 'vitest';
import { SCHEDULE_PRESETS } from '@common/constants';
import { codeDiagnostics } from '@web/features/canaries/model/diagnostics';
import { REQUIRED } from '@web/lib/validation';
import { documentToWrite, documentToYaml, parseScraperYaml, rowToDocument, type ScraperDocument } from './document';
import { entryForm } from './entry-forms';
import { documentToForm, formToDocument, newEntry, newScraperForm, scraperFormSchema, type ScraperFormValues } from './form-values';
import { formTargetOf, targetPath } from './problems';
import { scraperTypesOf, specTypes } from './scraper-types';

const TYPES = ['file', 'kubernetesFile', 'sql', 'http', 'exec', 'git'];

function messages(form: ScraperFormValues): Record<string, string> {
  const result = scraperFormSchema.safeParse(form);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('scraper types from the schema endpoint', () => {
  it('lists the spec properties that are lists of entries, labelled by their description, in order', () => {
    const schema = {
      type: 'object',
      properties: {
        schedule: { type: 'string' },
        full: { type: 'boolean' },
        retention: { type: 'object' },
        file: { type: 'array', description: 'File' },
        kubernetesFile: { type: 'array', description: 'Kubernetes manifests' },
        sql: { type: 'array', description: 'SQL' },
        mystery: { type: 'array' },
      },
    };
    expect(scraperTypesOf(schema)).toEqual([
      { type: 'file', label: 'File', icon: 'file' },
      { type: 'kubernetesFile', label: 'Kubernetes manifests', icon: 'kubernetes' },
      { type: 'sql', label: 'SQL', icon: 'database' },
      { type: 'mystery', label: 'mystery', icon: 'mystery' },
    ]);
    expect(specTypes({ schedule: '@hourly', file: [{}], sql: [], retention: {} })).toEqual(['file', 'sql']);
    expect(specTypes(null)).toEqual([]);
  });
});

describe('form ↔ spec ↔ YAML', () => {
  const file = { ...newEntry('file'), fields: { ...newEntry('file').fields, paths: '/etc/app/*.yaml\n/srv/extra.json', type: 'App::Settings', id: '$.id' } };
  const http = {
    ...newEntry('http'),
    fields: { ...newEntry('http').fields, url: 'https://api.example.com/items', method: 'POST', body: '{}', headers: [{ name: 'Accept', value: 'application/json' }], password: 's3cret', timeout: '20', items: '$.data[*]' },
    rest: { transform: { exclude: [{ jsonpath: '$.secret' }] } },
  };
  const form: ScraperFormValues = {
    name: 'apps',
    namespace: 'ops',
    labels: [{ name: 'team', value: 'web' }],
    schedule: '@every 30m',
    entries: [file, http],
    specRest: { retention: { staleItemAge: '2h' } },
  };

  it('writes the spec in config-db field names, typed, blanks left out', () => {
    expect(formToDocument(form)).toEqual({
      name: 'apps',
      namespace: 'ops',
      labels: { team: 'web' },
      spec: {
        schedule: '@every 30m',
        retention: { staleItemAge: '2h' },
        file: [{ paths: ['/etc/app/*.yaml', '/srv/extra.json'], type: 'App::Settings', id: '$.id' }],
        http: [
          {
            url: 'https://api.example.com/items',
            method: 'POST',
            headers: [{ name: 'Accept', value: 'application/json' }],
            body: '{}',
            password: { value: 's3cret' },
            timeout: 20,
            items: '$.data[*]',
            transform: { exclude: [{ jsonpath: '$.secret' }] },
          },
        ],
      },
    });
  });

  it('comes back the same through the YAML of the Code tab', () => {
    const doc = formToDocument(form);
    const yaml = documentToYaml(doc);
    expect(yaml).toMatch(/^apiVersion: configs\.flanksource\.com\/v1\nkind: ScrapeConfig\nmetadata:\n {2}name: apps\n {2}namespace: ops\n/);
    expect(yaml.indexOf('schedule:')).toBeLessThan(yaml.indexOf('file:'));
    const parsed = parseScraperYaml(yaml);
    expect(parsed.problems).toEqual([]);
    expect(parsed.doc).toEqual(doc);
    const again = documentToForm(parsed.doc ?? rowToDocument(null), TYPES);
    expect(again).toEqual(form);
    expect(formToDocument(again)).toEqual(doc);
    expect(documentToWrite(doc, 'kept')).toEqual({ name: 'apps', namespace: 'ops', labels: { team: 'web' }, description: 'kept', spec: doc.spec });
    expect(documentToWrite(doc)).not.toHaveProperty('description');
  });

  it('keeps what the form cannot show, and types it has no form for', () => {
    const doc: ScraperDocument = {
      name: 'x',
      namespace: 'default',
      labels: {},
      spec: {
        full: true,
        aws: [{ region: 'eu-west-1' }],
        file: [{ paths: 'not-a-list', type: { expr: 'config.kind' }, tags: [{ name: 'env', value: 'prod' }] }],
      },
    };
    const values = documentToForm(doc, TYPES);
    expect(values.schedule).toBe('');
    expect(values.specRest).toEqual({ full: true, aws: [{ region: 'eu-west-1' }] });
    expect(values.entries[0]?.rest).toEqual({ paths: 'not-a-list', type: { expr: 'config.kind' }, tags: [{ name: 'env', value: 'prod' }] });
    expect(formToDocument(values).spec).toEqual(doc.spec);
  });

  it('sends a body only with POST and PUT, and starts a new scraper hourly', () => {
    const get = { ...http, fields: { ...http.fields, method: 'GET' } };
    expect(formToDocument({ ...form, entries: [get] }).spec.http).toEqual([expect.not.objectContaining({ body: expect.anything() })]);
    expect(newEntry('http').fields.method).toBe('GET');
    expect(newScraperForm('file')).toEqual({ name: '', namespace: 'default', labels: [], schedule: '@hourly', entries: [newEntry('file')], specRest: {} });
    expect(SCHEDULE_PRESETS.scraper).toContain('@hourly');
  });
});

describe('form validation (spec §3, §5)', () => {
  it("says 'This field is required' for the name and each type's required fields, and wants numbers in number fields", () => {
    const entries = TYPES.map((type) => newEntry(type));
    const sql = entries[2];
    if (sql) sql.fields.timeout = 'soon';
    expect(messages({ ...newScraperForm(undefined), name: ' ', entries })).toEqual({
      name: REQUIRED,
      'entries.0.fields.paths': REQUIRED,
      'entries.1.fields.paths': REQUIRED,
      'entries.2.fields.connection': REQUIRED,
      'entries.2.fields.query': REQUIRED,
      'entries.2.fields.timeout': 'This field must be a number',
      'entries.3.fields.url': REQUIRED,
      'entries.4.fields.script': REQUIRED,
      'entries.5.fields.url': REQUIRED,
    });
  });

  it('has a form with the mapping fields for every type the server runs', () => {
    for (const type of TYPES) expect(entryForm(type)?.map((field) => field.name)).toEqual(expect.arrayContaining(['type', 'id', 'name', 'items']));
    expect(entryForm('aws')).toBeUndefined();
  });
});

describe('server problems', () => {
  const entries = [newEntry('sql'), newEntry('file'), newEntry('file')];
  it('places a path on its field, or leaves it to the list', () => {
    expect(formTargetOf('body.name', entries)).toEqual({ kind: 'name' });
    expect(formTargetOf('spec.schedule', entries)).toEqual({ kind: 'schedule' });
    const second = formTargetOf('spec.file[1].paths', entries);
    expect(second && targetPath(second)).toBe('entries.2.fields.paths');
    expect(formTargetOf('spec.file[0].transform', entries)).toBeUndefined();
    expect(formTargetOf('spec.file[5].paths', entries)).toBeUndefined();
    expect(formTargetOf('spec', entries)).toBeUndefined();
  });

  it('marks the Code tab with the parse and unchangeable-name problems, in the scraper words', () => {
    const renamed = parseScraperYaml('kind: ScrapeConfig\nmetadata:\n  name: other\nspec: {}\n');
    expect(codeDiagnostics({ parsed: renamed, original: { name: 'apps', namespace: 'default' }, noun: 'scraper' }).map((d) => d.message)).toEqual([
      'metadata.name: cannot be changed once the scraper exists (it is apps)',
    ]);
    expect(parseScraperYaml('kind: Canary\nmetadata: {name: a}\nspec: {}\n').problems).toEqual([{ path: ['kind'], message: 'must be ScrapeConfig' }]);
    expect(parseScraperYaml('metadata: {name: a}\nspec: []\n').problems).toEqual([{ path: ['spec'], message: 'must be a mapping with the schedule and the scrapers by type (file, sql, …)' }]);
  });
});
