import { describe, expect, it } from 'vitest';
import { RESOURCE_SCHEDULE_OPTIONS } from '@common/constants';
import { ApiError } from '@web/lib/api';
import { REQUIRED } from '@web/lib/validation';
import { CUSTOM_SCHEDULE, SCHEDULE_OPTIONS } from '../editor/schedule-field';
import { HTTP_METHODS, HTTP_RESPONSE_CODES } from './check-forms';
import { codeDiagnostics } from './diagnostics';
import { documentToWrite, documentToYaml, parseCanaryYaml, parseProblemPath, rowToDocument, type CanaryDocument } from './document';
import { canaryFormSchema, documentToForm, formToDocument, newCheck, NUMBER_MESSAGE, type CanaryFormValues } from './form-values';
import { validateJson, type JsonSchema } from './json-schema';
import { formTargetOf, serverProblemsOf, targetPath, toDocPath, warningPath } from './problems';
import { countChecks } from './spec-fields';

const TYPES = ['http', 'tcp', 'exec', 'redis', 'icmp', 'folder', 'webhook'];
const PUSH = ['webhook'];

function values(patch: Partial<CanaryFormValues> = {}): CanaryFormValues {
  return { name: 'web', namespace: 'default', labels: [], schedule: '@every 1m', checks: [], specRest: {}, ...patch };
}

/** The form's messages by path, as react-hook-form's zod resolver would place them. */
function messages(form: CanaryFormValues): Record<string, string> {
  const result = canaryFormSchema.safeParse(form);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('form ↔ spec ↔ YAML', () => {
  const http = {
    ...newCheck('http', 'home'),
    description: 'the front page',
    fields: { ...newCheck('http').fields, url: 'http://localhost/health', method: 'POST', body: '{"ping":true}', headers: [{ name: 'Accept', value: 'text/plain' }], responseCodes: ['200', '204'], thresholdMillis: '500', password: 's3cret' },
  };
  const tcp = { ...newCheck('tcp', 'db'), fields: { ...newCheck('tcp').fields, endpoint: 'db:5432' } };
  const exec = { ...newCheck('exec', 'disk'), fields: { ...newCheck('exec').fields, script: 'df -h', env: [{ name: 'LANG', value: 'C' }] }, rest: { test: { expr: 'exitCode == 0' } } };
  const form = values({ labels: [{ name: 'team', value: 'web' }], checks: [http, tcp, exec], specRest: { severity: 'high', docker: [{ name: 'pull', image: 'nginx' }] } });

  it('writes the spec in canary-checker field names, typed, blanks left out', () => {
    expect(formToDocument(form, PUSH)).toEqual({
      name: 'web',
      namespace: 'default',
      labels: { team: 'web' },
      spec: {
        schedule: '@every 1m',
        severity: 'high',
        docker: [{ name: 'pull', image: 'nginx' }],
        http: [
          {
            name: 'home',
            description: 'the front page',
            url: 'http://localhost/health',
            method: 'POST',
            headers: [{ name: 'Accept', value: 'text/plain' }],
            body: '{"ping":true}',
            responseCodes: [200, 204],
            thresholdMillis: 500,
            password: { value: 's3cret' },
          },
        ],
        tcp: [{ name: 'db', endpoint: 'db:5432' }],
        exec: [{ name: 'disk', script: 'df -h', env: [{ name: 'LANG', value: 'C' }], test: { expr: 'exitCode == 0' } }],
      },
    });
  });

  it('comes back the same from the YAML of the Code tab', () => {
    const doc = formToDocument(form, PUSH);
    const yaml = documentToYaml(doc);
    expect(yaml).toMatch(/^apiVersion: canaries\.flanksource\.com\/v1\nkind: Canary\nmetadata:\n {2}name: web\n/);
    expect(yaml.indexOf('schedule:')).toBeLessThan(yaml.indexOf('http:'));
    const parsed = parseCanaryYaml(yaml);
    expect(parsed.problems).toEqual([]);
    expect(parsed.doc).toEqual(doc);
    const again = documentToForm(parsed.doc ?? rowToDocument(null), TYPES);
    expect(again).toEqual(form);
    expect(formToDocument(again, PUSH)).toEqual(doc);
    expect(documentToWrite(doc)).toEqual({ name: 'web', namespace: 'default', labels: { team: 'web' }, spec: doc.spec });
  });

  it('keeps what the form cannot show, and reads the older http endpoint as the URL', () => {
    const doc: CanaryDocument = {
      name: 'legacy',
      namespace: 'ops',
      labels: {},
      spec: {
        interval: 60,
        http: [{ name: 'old', endpoint: 'http://a', method: 'PATCH', password: { valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }, display: { template: '{{.code}}' } }],
        webhook: { name: 'hook', token: { value: 't' } },
      },
    };
    const form = documentToForm(doc, TYPES);
    const [check, hook] = form.checks;
    expect(check?.fields.url).toBe('http://a');
    expect(check?.rest).toEqual({ method: 'PATCH', password: { valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }, display: { template: '{{.code}}' } });
    expect(hook).toMatchObject({ type: 'webhook', name: 'hook', fields: { token: 't' }, rest: {} });
    expect(form.schedule).toBe('');
    expect(form.specRest).toEqual({ interval: 60 });
    expect(formToDocument(form, PUSH).spec).toEqual({
      interval: 60,
      http: [{ name: 'old', url: 'http://a', method: 'PATCH', password: { valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }, display: { template: '{{.code}}' } }],
      webhook: { name: 'hook', token: { value: 't' } },
    });
  });

  it('sends no body with GET or DELETE (spec §3) and starts a redis check on db 0', () => {
    const get = { ...http, fields: { ...http.fields, method: 'GET' } };
    const del = { ...http, fields: { ...http.fields, method: 'DELETE' } };
    for (const check of [get, del]) expect(formToDocument(values({ checks: [check] })).spec.http).toEqual([expect.not.objectContaining({ body: expect.anything() })]);
    expect(newCheck('redis').fields.db).toBe('0');
    expect(newCheck('http').fields.method).toBe('GET');
    expect(formToDocument(values({ checks: [{ ...newCheck('redis', 'cache'), fields: { ...newCheck('redis').fields, addr: 'cache:6379' } }] })).spec.redis).toEqual([{ name: 'cache', addr: 'cache:6379', db: 0 }]);
  });

  it('offers the methods and response codes of spec §3', () => {
    expect(HTTP_METHODS).toEqual(['GET', 'POST', 'PUT', 'DELETE']);
    expect(HTTP_RESPONSE_CODES).toEqual(['200', '201', '202', '204', '301', '302', '401', '404', '500', '502', '503']);
  });
});

describe('form validation (spec §3, §5)', () => {
  it("says 'This field is required' for the name and each type's required fields, and wants numbers in number fields", () => {
    const checks = ['http', 'exec', 'redis', 'icmp', 'folder', 'tcp', 'tls', 'dns'].map((type) => newCheck(type));
    const found = messages(values({ name: ' ', checks }));
    expect(found).toEqual({
      name: REQUIRED,
      ...Object.fromEntries(checks.map((_, index) => [`checks.${index}.name`, REQUIRED])),
      'checks.0.fields.url': REQUIRED,
      'checks.1.fields.script': REQUIRED,
      'checks.2.fields.addr': REQUIRED,
      'checks.3.fields.endpoint': REQUIRED,
      'checks.4.fields.path': REQUIRED,
      'checks.5.fields.endpoint': REQUIRED,
      'checks.6.fields.endpoint': REQUIRED,
      'checks.7.fields.query': REQUIRED,
    });
    const tcp = { ...newCheck('tcp', 'db'), fields: { endpoint: 'db:5432', thresholdMillis: 'soon' } };
    expect(messages(values({ checks: [tcp], labels: [{ name: '', value: 'x' }] }))).toEqual({ 'checks.0.fields.thresholdMillis': NUMBER_MESSAGE, 'labels.0.name': REQUIRED });
  });

  it('does not ask for a field the form keeps as written', () => {
    const check = { ...newCheck('http', 'a'), rest: { url: { valueFrom: 'x' } } };
    expect(messages(values({ checks: [check] }))).toEqual({});
  });
});

describe("the server's problems", () => {
  const checks = [newCheck('tcp', 'a'), newCheck('http', 'b'), newCheck('tcp', 'c'), newCheck('webhook', 'd')];

  it('go to the field they name, the n-th check of a type being the n-th of that type in the form', () => {
    const place = (path: string) => {
      const target = formTargetOf(path, checks);
      return target ? targetPath(target) : undefined;
    };
    expect(place('body.name')).toBe('name');
    expect(place('namespace')).toBe('namespace');
    expect(place('spec.schedule')).toBe('schedule');
    expect(place('spec.interval')).toBe('schedule');
    expect(place('spec.http[0].url')).toBe('checks.1.fields.url');
    expect(place('spec.http[0].endpoint')).toBe('checks.1.fields.url');
    expect(place('spec.tcp[1].endpoint')).toBe('checks.2.fields.endpoint');
    expect(place('spec.tcp[1].name')).toBe('checks.2.name');
    expect(place('spec.webhook.name')).toBe('checks.3.name');
    // Nothing in the form for these: the editor lists them.
    expect(place('spec.tcp[2].endpoint')).toBeUndefined();
    expect(place('spec.http[0].test.expr')).toBeUndefined();
    expect(place('labels.team')).toBeUndefined();
    expect(place('spec.env.TOKEN')).toBeUndefined();
  });

  it('are read from a 400 only', () => {
    const details = [{ path: 'spec.http[0].url', message: 'must be a URL' }, { nope: true }];
    expect(serverProblemsOf(new ApiError('2 problems', 'http', 400, { error: 'invalid_request', message: '…', details }))).toEqual([details[0]]);
    expect(serverProblemsOf(new ApiError('gone', 'http', 409, { details }))).toEqual([]);
    expect(serverProblemsOf(new Error('x'))).toEqual([]);
  });

  it('have paths that name places in the YAML', () => {
    expect(parseProblemPath('spec.http[0].headers[2].name')).toEqual(['spec', 'http', 0, 'headers', 2, 'name']);
    expect(toDocPath('body.name')).toEqual(['metadata', 'name']);
    expect(toDocPath('labels.team')).toEqual(['metadata', 'labels', 'team']);
    expect(warningPath('spec.http[0].foo is not supported for http checks; it is ignored')).toBe('spec.http[0].foo');
    expect(warningPath('the canary has no checks this version can run')).toBeUndefined();
  });
});

describe('the Code tab', () => {
  const text = ['apiVersion: canaries.flanksource.com/v1', 'kind: Canary', 'metadata:', '  name: web', 'spec:', '  tcp:', '    - name: db', '      endpoint: nowhere', '      foo: 1', ''].join('\n');
  const schema: JsonSchema = { type: 'object', properties: { tcp: { type: 'array', items: { type: 'object', required: ['name', 'endpoint'], properties: { name: { type: 'string', minLength: 1 }, endpoint: { type: 'string', pattern: '^[^:]+:\\d+$' } } } } } };
  const lineAt = (offset: number) => text.slice(0, offset).split('\n').length;

  it('marks schema, server errors and warnings at their lines, the server having the last word', () => {
    const parsed = parseCanaryYaml(text);
    expect(parsed.problems).toEqual([]);
    const local = codeDiagnostics({ parsed, schema, original: null });
    expect(local.map((d) => [lineAt(d.from), d.severity, d.message])).toEqual([[8, 'error', 'spec.tcp[0].endpoint: does not have the expected form (^[^:]+:\\d+$)']]);
    const withServer = codeDiagnostics({
      parsed,
      schema,
      original: null,
      server: { errors: [{ path: 'spec.tcp[0].endpoint', message: 'must be host:port' }], warnings: ['spec.tcp[0].foo is not supported for tcp checks; it is ignored', 'a warning without a path'] },
    });
    expect(withServer.map((d) => [lineAt(d.from), d.severity, d.message])).toEqual([
      [5, 'warning', 'a warning without a path'],
      [8, 'error', 'spec.tcp[0].endpoint: must be host:port'],
      [9, 'warning', 'spec.tcp[0].foo is not supported for tcp checks; it is ignored'],
    ]);
  });

  it('names YAML and shape problems, and keeps the name and namespace of a saved canary', () => {
    const broken = parseCanaryYaml('spec: [1\n');
    expect(broken.doc).toBeNull();
    expect(broken.problems[0]?.range).toBeDefined();
    const nameless = parseCanaryYaml('kind: Canary\nmetadata:\n  name: ""\nspec: {}\n');
    expect(nameless.doc).toMatchObject({ name: '', namespace: 'default' });
    expect(nameless.problems).toEqual([{ path: ['metadata', 'name'], message: 'is required' }]);
    expect(parseCanaryYaml('kind: Canary\nmetadata:\n  name: a\n  labels: {tier: 1}\nspec: {}\n')).toMatchObject({ doc: null, problems: [{ path: ['metadata', 'labels', 'tier'], message: 'must be text (put it in quotes)' }] });
    expect(parseCanaryYaml('kind: Topology\nmetadata: {name: a}\nspec: {}\n').problems).toEqual([{ path: ['kind'], message: 'must be Canary' }]);
    const renamed = parseCanaryYaml('metadata:\n  name: other\n  namespace: ops\nspec: {}\n');
    expect(codeDiagnostics({ parsed: renamed, original: { name: 'web', namespace: 'ops' } }).map((d) => d.message)).toEqual(['metadata.name: cannot be changed once the health check exists (it is web)']);
  });
});

describe('JSON schema checks', () => {
  it('reports every problem with its path', () => {
    const schema: JsonSchema = {
      type: 'object',
      required: ['a'],
      properties: { b: { type: 'integer', exclusiveMinimum: 0 }, c: { enum: ['x', 'y'] }, d: { anyOf: [{ type: 'string' }, { type: 'object', properties: { value: { type: 'string' } } }] } },
      additionalProperties: { type: 'string' },
    };
    expect(validateJson({ b: 0, c: 'z', d: { value: 1 }, e: 2, constructor: 'ok' }, schema)).toEqual([
      { path: ['a'], message: 'is required' },
      { path: ['b'], message: 'must be more than 0' },
      { path: ['c'], message: 'must be one of: x, y' },
      { path: ['d', 'value'], message: 'must be text' },
      { path: ['e'], message: 'must be text' },
    ]);
    expect(validateJson({ a: 'here', d: 'fine' }, schema)).toEqual([]);
  });
});

describe('the list', () => {
  it('counts the checks a spec declares, of every type', () => {
    expect(countChecks({ schedule: '@hourly', env: { A: { value: 'b' } }, http: [{}, {}], docker: [{}], webhook: { name: 'w' } })).toBe(4);
    expect(countChecks(null)).toBe(0);
  });
});

describe('schedules', () => {
  it('offers the resource schedule options of spec §9, then a custom value', () => {
    expect(SCHEDULE_OPTIONS.map((option) => option.value)).toEqual(['@every 30s', '@every 1m', '@every 5m', '@every 30m', '@hourly', '@every 6h', '@daily', '@weekly', CUSTOM_SCHEDULE]);
    expect(RESOURCE_SCHEDULE_OPTIONS).toHaveLength(8);
  });
});
