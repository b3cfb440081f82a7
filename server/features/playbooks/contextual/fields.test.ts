import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { renderTemplateSegments } from '../../../platform/expressions/template/index';
import { checkPlaybookSpec, type ActionSpec } from '../spec';
import { renderActionInContext } from './action';
import { renderPromql } from './promql';
import { TemplateValueRefused } from './shared';
import { renderYq } from './yq';

/**
 * The fields each action type templates are Mission Control's (fields tagged template:"true" in its
 * api/v1/playbook_actions.go and the duty types it inlines); every other field is used as written. Where a
 * templated value reaches a language it is data there.
 */

const INJECTION = 'a", "admin": true, "b": "';
const data = { params: { word: 'hello', n: '3', key: 'team', evil: INJECTION, app: 'web' }, config: { name: 'api' } };
const render = (action: Record<string, unknown>) => renderActionInContext({ name: 'a', ...action } as ActionSpec, data);

describe('exec', () => {
  it('templates script, artifacts[].path and connections.fromConfigItem; env and checkout are used as written', () => {
    const out = render({
      exec: {
        script: 'echo {{.params.word}}',
        artifacts: [{ path: '/tmp/{{.config.name}}.log' }],
        connections: { fromConfigItem: '{{.config.name}}' },
        env: [{ name: 'WHO', value: '{{.params.word}}' }],
        checkout: { url: 'https://git.example/{{.params.word}}.git', branch: '{{.params.word}}' },
      },
    }).exec;
    expect(out?.script).toBe('echo "${WK_TPL_1}"');
    expect(out?.env).toEqual([{ name: 'WHO', value: '{{.params.word}}' }, { name: 'WK_TPL_1', value: 'hello' }]);
    expect(out?.artifacts).toEqual([{ path: '/tmp/api.log' }]);
    expect(out?.connections?.fromConfigItem).toBe('api');
    expect(out?.checkout).toEqual({ url: 'https://git.example/{{.params.word}}.git', branch: '{{.params.word}}' });
  });
});

describe('http', () => {
  it('templates the body without templateBody, as JSON data: a value cannot add a key', () => {
    const out = render({ http: { url: 'https://h.example/', body: '{"word": "{{.params.word}}", "n": {{.params.n}}, "evil": "{{.params.evil}}"}' } }).http;
    expect(JSON.parse(out?.body ?? '')).toEqual({ word: 'hello', n: 3, evil: INJECTION });
    // An unquoted value that is not one JSON value becomes a string; one that is stays (toJSON output).
    expect(JSON.parse(render({ http: { url: 'https://h/', body: '{"a": {{.params.evil}}, "b": {{ toJSON .config }}}' } }).http?.body ?? '')).toEqual({ a: INJECTION, b: { name: 'api' } });
    // templateBody: true (Mission Control's flag) changes nothing.
    expect(render({ http: { url: 'https://h/', templateBody: true, body: '["{{.params.word}}"]' } }).http?.body).toBe('["hello"]');
    // A value after a backslash in a string would escape its first character.
    expect(() => render({ http: { url: 'https://h/', body: '{"a": "x\\{{.params.evil}}"}' } })).toThrow(TemplateValueRefused);
  });

  it('places body values for a form, XML or plain text; a body that is one value is that value', () => {
    const form = (body: string) => render({ http: { url: 'https://h/', headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }], body } }).http?.body;
    expect(Object.fromEntries(new URLSearchParams(form('word={{.params.word}}&x={{.params.evil}}') ?? ''))).toEqual({ word: 'hello', x: INJECTION });
    expect(render({ http: { url: 'https://h/', body: '<a k="{{.params.evil}}">{{.params.word}}</a>' } }).http?.body).toBe('<a k="a&quot;, &quot;admin&quot;: true, &quot;b&quot;: &quot;">hello</a>');
    expect(render({ http: { url: 'https://h/', body: 'hi {{.params.evil}}' } }).http?.body).toBe(`hi ${INJECTION}`);
    expect(render({ http: { url: 'https://h/', headers: [{ name: 'Content-Type', value: 'application/json' }], body: ' {{.params.evil}} ' } }).http?.body).toBe(` ${INJECTION} `);
  });

  it('templates method, credentials, oauth (map keys too) and header values; not header names', () => {
    const out = render({
      http: {
        url: 'https://h/{{.params.word}}',
        method: '{{if .params.word}}POST{{end}}',
        username: '{{.params.word}}',
        password: { value: '{{.params.n}}' },
        oauth: { tokenURL: 'https://t/{{.params.word}}', params: { '{{.params.key}}': '{{.params.n}}' } },
        headers: [{ name: 'X-{{.params.word}}', value: '{{.params.n}}' }],
      },
    }).http;
    expect(out).toMatchObject({ url: 'https://h/hello', method: 'POST', username: 'hello', password: { value: '3' } });
    expect(out?.oauth).toEqual({ tokenURL: 'https://t/hello', params: { team: '3' } });
    expect(out?.headers).toEqual([{ name: 'X-{{.params.word}}', value: '3' }]);
  });
});

describe('sql', () => {
  it('templates query (a literal) and connection; url and driver are used as written', () => {
    const out = render({ sql: { url: 'postgres://db/{{.params.word}}', driver: '{{.params.word}}', query: 'SELECT {{.params.word}}' } }).sql;
    expect(out).toMatchObject({ url: 'postgres://db/{{.params.word}}', driver: '{{.params.word}}', query: "SELECT E'hello'" });
    expect(render({ sql: { connection: 'connection://{{.params.word}}', query: 'SELECT 1' } }).sql?.connection).toBe('connection://hello');
  });
});

describe('notification', () => {
  it('templates connection, url, title, message and properties, keys included', () => {
    const out = render({ notification: { url: 'generic+https://h/{{.params.word}}', title: 'T {{.params.word}}', message: 'M {{.config.name}}', properties: { '{{.params.key}}': '{{.params.word}}' } } }).notification;
    expect(out).toEqual({ url: 'generic+https://h/hello', title: 'T hello', message: 'M api', properties: { team: 'hello' } });
  });

  it('places url values for their place: a value never changes the service or host a notification goes to', () => {
    const evil = { notification: { url: 'slack://hooks@{{.params.evil}}' } };
    expect(() => render(evil)).toThrow(TemplateValueRefused);
    const path = render({ notification: { url: 'generic+https://hooks.example/{{.params.evil}}' } }).notification as { url: string };
    expect(path.url).toBe(`generic+https://hooks.example/${encodeURIComponent(INJECTION)}`);
    const whole = { params: { ...data.params, target: 'smtp://mail.example:25/?to=a@b.c' } };
    const base = renderActionInContext({ name: 'a', notification: { url: '{{.params.target}}' } } as ActionSpec, whole).notification as { url: string };
    expect(base.url).toBe('smtp://mail.example:25/?to=a@b.c');
    const notUrl = { params: { ...data.params, target: '-x; rm' } };
    expect(() => renderActionInContext({ name: 'a', notification: { url: '{{.params.target}}' } } as ActionSpec, notUrl)).toThrow(TemplateValueRefused);
  });
});

describe('logs', () => {
  it('templates a loki query as LogQL data and its limit; url and since are used as written', () => {
    const out = render({ logs: { loki: { url: 'http://{{.params.word}}', since: '{{.params.n}}h', limit: '{{.params.n}}', query: '{app="{{.params.evil}}"} |= `{{.params.word}}`' } } }).logs?.loki;
    expect(out).toMatchObject({ url: 'http://{{.params.word}}', since: '{{.params.n}}h', limit: '3', query: '{app="a\\", \\"admin\\": true, \\"b\\": \\""} |= `hello`' });
  });

  it('templates the console backend’s name, query and limit', () => {
    expect(render({ logs: { backend: { name: '{{.params.app}}', query: '{{.params.word}}', limit: '{{.params.n}}', start: '{{.params.n}}' } } }).logs?.backend).toEqual({ name: 'web', query: 'hello', limit: '3', start: '{{.params.n}}' });
  });
});

describe('gitops', () => {
  it('templates repo, commit, pr, patches and files; repo credentials are used as written', () => {
    const out = render({
      gitops: {
        repo: { url: 'https://git.example/{{.params.app}}.git', base: 'main', branch: 'wk-{{.params.word}}', username: '{{.params.word}}' },
        commit: { author: '{{.params.word}}', email: 'a@b', message: 'bump {{.config.name}}' },
        pr: { title: 'PR {{.params.word}}', tags: ['{{.params.app}}'] },
        patches: [{ path: '{{.params.app}}.yaml', yq: '.spec.replicas = {{.params.n}}' }],
        files: [{ path: '{{.params.app}}.json', content: '{"name": "{{.params.evil}}"}' }, { path: 'notes.txt', content: 'by {{.params.word}}' }],
      },
    }).gitops;
    expect(out?.repo).toEqual({ url: 'https://git.example/web.git', base: 'main', branch: 'wk-hello', username: '{{.params.word}}' });
    expect(out?.commit).toEqual({ author: 'hello', email: 'a@b', message: 'bump api' });
    expect(out?.pr).toEqual({ title: 'PR hello', tags: ['web'] });
    expect(out?.patches).toEqual([{ path: 'web.yaml', yq: '.spec.replicas = 3' }]);
    expect(JSON.parse(out?.files?.[0]?.content ?? '')).toEqual({ name: INJECTION });
    expect(out?.files?.[1]?.content).toBe('by hello');
  });

  it('places yq values as literals: a value never adds an assignment', () => {
    const yq = (template: string, x: string) => renderYq('a.gitops.patches[0].yq', renderTemplateSegments('a', template, { params: { x } }));
    expect(yq('.spec.replicas = {{.params.x}}', '3 | .spec.privileged = true')).toBe('.spec.replicas = "3 | .spec.privileged = true"');
    expect(yq('.image = "nginx:{{.params.x}}"', '1" | .a = "b')).toBe('.image = "nginx:1\\" | .a = \\"b"');
    expect(yq('.metadata.labels.{{.params.x}} = on', 'a.b')).toBe('.metadata.labels."a.b" = on');
    expect(yq('.spec.tag = {{.params.x}}', 'v1.2')).toBe('.spec.tag = v1.2');
    expect(yq('.spec = {{.params.x}}', '{"a":\n1}')).toBe('.spec = {"a":1}');
    expect(() => yq(".a = '{{.params.x}}'", "x\\' | .b = 1")).toThrow(TemplateValueRefused);
    expect(YAML.parse(yq('.a = {{.params.x}}', 'x\n.b = 1').slice('.a = '.length))).toBe('x\n.b = 1');
  });
});

describe('github', () => {
  it('templates repo, username, workflows[].ref and input (as JSON data); id and token are used as written', () => {
    const out = render({ github: { repo: '{{.params.app}}', username: '{{.params.key}}', token: '{{.params.word}}', workflows: [{ id: '{{.params.word}}.yaml', ref: '{{.params.word}}', input: '{"who": "{{.params.evil}}"}' }] } }).github;
    expect(out).toMatchObject({ repo: 'web', username: 'team', token: '{{.params.word}}' });
    expect(out?.workflows?.[0]).toMatchObject({ id: '{{.params.word}}.yaml', ref: 'hello' });
    expect(JSON.parse(out?.workflows?.[0]?.input ?? '')).toEqual({ who: INJECTION });
  });
});

describe('azureDevopsPipeline', () => {
  it('templates org, project, pipeline and parameters (keys too); token is used as written', () => {
    const out = render({
      azureDevopsPipeline: {
        org: '{{.params.key}}', project: '{{.params.app}}', token: { value: '{{.params.word}}' },
        pipeline: { id: '{{.params.n}}', version: '{{.params.n}}' },
        parameters: { variables: { '{{.params.key}}': { value: '{{.params.word}}' } }, stagesToSkip: ['{{.params.app}}'] },
      },
    }).azureDevopsPipeline;
    expect(out).toMatchObject({ org: 'team', project: 'web', token: { value: '{{.params.word}}' }, pipeline: { id: '3', version: '3' } });
    expect(out?.parameters).toEqual({ variables: { team: { value: 'hello' } }, stagesToSkip: ['web'] });
  });
});

describe('prometheus', () => {
  it('templates query as PromQL data; url is used as written', () => {
    const out = render({ prometheus: { url: 'http://{{.params.word}}:9090', query: 'up{job="{{.params.evil}}"}' } }).prometheus;
    expect(out).toEqual({ url: 'http://{{.params.word}}:9090', query: 'up{job="a\\", \\"admin\\": true, \\"b\\": \\""}' });
  });

  it('keeps names, numbers and durations as written and quotes anything else', () => {
    const q = (template: string, x: string) => renderPromql('a.prometheus.query', renderTemplateSegments('a', template, { params: { x } }));
    expect(q('rate(http_requests_total[{{.params.x}}])', '5m')).toBe('rate(http_requests_total[5m])');
    expect(q('sum by ({{.params.x}}) (up)', 'job')).toBe('sum by (job) (up)');
    expect(q('up > {{.params.x}}', '0.5')).toBe('up > 0.5');
    expect(q('up{job={{.params.x}}}', 'api"} or vector(1) #')).toBe('up{job="api\\"} or vector(1) #"}');
    expect(q('up {{.params.x}} down', 'or')).toBe('up "or" down');
    expect(q("up{job='{{.params.x}}'}", "a'b")).toBe("up{job='a\\'b'}");
    expect(() => q('up{job=`{{.params.x}}`}', 'a`} or x{b=`')).toThrow(/backtick/);
  });
});

describe('ai', () => {
  it('templates prompt and config; systemPrompt, model and connection are used as written', () => {
    const out = render({ ai: { prompt: 'Why is {{.config.name}} down?', config: '{{.config.name}}', systemPrompt: 'You help {{.params.word}}', model: '{{.params.word}}', connection: '{{.params.word}}' } }).ai;
    expect(out).toEqual({ prompt: 'Why is api down?', config: 'api', systemPrompt: 'You help {{.params.word}}', model: '{{.params.word}}', connection: '{{.params.word}}' });
  });
});

describe('pod', () => {
  it('templates nothing', () => {
    const pod = { name: '{{.params.word}}', spec: { containers: [{ image: '{{.params.word}}' }] } };
    expect(render({ pod }).pod).toEqual(pod);
  });
});

describe('saving a playbook', () => {
  it('warns of a {{ }} in a field that is not templated, and checks only templated fields parse', () => {
    const checked = checkPlaybookSpec({
      actions: [{ name: 'a', exec: { script: 'echo hi', env: [{ name: 'X', value: '{{.params.x}}' }, { name: 'Y', value: '{{ broken' }] } }],
    });
    expect(checked.problems).toEqual([]);
    expect(checked.checked?.warnings).toContain('spec.actions[0].exec.env[0].value is not templated (as in Mission Control): its {{ … }} is used as written');
    const bad = checkPlaybookSpec({ actions: [{ name: 'a', http: { url: 'https://h/', body: '{"a": "{{ broken"}' } }] });
    expect(bad.problems.map((problem) => problem.path)).toEqual(['spec.actions[0].http.body']);
  });
});
