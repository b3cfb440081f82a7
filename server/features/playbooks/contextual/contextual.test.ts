import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderTemplateSegments } from '../../../platform/expressions/template/index';
import type { ActionSpec } from '../spec';
import { renderActionInContext } from './action';
import { TemplateValueRefused } from './shared';
import { renderScript } from './shell';
import { renderQuery } from './sql';
import { renderUrl } from './url';

const dir = mkdtempSync(path.join(os.tmpdir(), 'wk-tpl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const marker = () => path.join(dir, `pwned-${Math.random().toString(36).slice(2)}`);

function script(template: string, params: Record<string, unknown>) {
  return renderScript('a.exec.script', renderTemplateSegments('a.exec.script', template, { params }));
}

/** Runs the rendered script with bash (or sh) and its env, as the exec action does. */
function run(template: string, params: Record<string, unknown>, shell = 'bash'): { stdout: string; status: number | null; script: string } {
  const rendered = script(template, params);
  const ran = spawnSync(shell, ['-c', rendered.script], { env: { PATH: process.env.PATH, ...rendered.env }, encoding: 'utf8', cwd: dir });
  return { stdout: ran.stdout, status: ran.status, script: rendered.script };
}

const PAYLOADS = (file: string) => [
  `$(touch ${file})`,
  `\`touch ${file}\``,
  `x"; touch ${file}; echo "`,
  `x'; touch ${file}; echo '`,
  `x\ntouch ${file}\n`,
  `x;touch ${file}`,
  `x|touch ${file}`,
  `x && touch ${file}`,
  `\${IFS}$(touch ${file})`,
  `\\"; touch ${file}; #`,
];

describe('exec scripts: template values are data', () => {
  it('prints the same as plain rendering for ordinary values (Mission Control examples)', () => {
    expect(run('echo "hello {{.params.name}}"', { name: 'world' }).stdout).toBe('hello world\n');
    expect(run("echo 'hello {{.params.name}}'", { name: 'world' }).stdout).toBe('hello world\n');
    expect(run('echo hello {{.params.name}}', { name: 'world' }).stdout).toBe('hello world\n');
    expect(run('echo kubectl rollout restart deployment {{.params.name}} -n {{.params.ns}}', { name: 'web', ns: 'prod' }).stdout).toBe('kubectl rollout restart deployment web -n prod\n');
    expect(run('X={{.params.n}}; echo "n=$X" v{{.params.n}}-x', { n: '42' }).stdout).toBe('n=42 v42-x\n');
    expect(run('exit {{.params.code}}', { code: '3' }).status).toBe(3);
    expect(run('echo "${HOME:-x}{{.params.a}}" ${NOPE:-{{.params.a}}}', { a: 'b c' }).stdout).toBe('xb c b c\n');
    expect(run('echo $(( {{.params.n}} + 1 ))', { n: '41' }).stdout).toBe('42\n');
    expect(run('cat <<EOF\nvalue: {{.params.v}}\nEOF\necho after', { v: 'a b' }).stdout).toBe('value: a b\nafter\n');
    expect(run("cat <<'EOF'\nvalue: {{.params.v}} $HOME\nEOF", { v: 'a b' }).stdout).toBe('value: a b $HOME\n');
    expect(run('echo $\'tab\\t{{.params.v}}\'', { v: 'x' }).stdout).toBe('tab\tx\n');
    expect(run('echo "$(echo "in {{.params.v}}")" `echo {{.params.v}}`', { v: 'sub' }).stdout).toBe('in sub sub\n');
    expect(run('# a comment {{.params.v}}\necho ok', { v: 'x\nid' }).stdout).toBe('ok\n');
    expect(run('echo "a\\{{.params.v}}"', { v: 'n' }).stdout).toBe('a\\n\n');
    expect(run('echo ${{.params.v}}', { v: 'HOME' }).stdout).toBe('$HOME\n');
    expect(run('echo got \\{{.params.v}}', { v: 'v' }).stdout).toBe('got v\n');
  });

  it('keeps literal template text code, inside {{if}} and {{range}} too', () => {
    const file = marker();
    const ran = run(`{{if .params.go}}touch ${file}; echo "made {{.params.go}}"{{end}}{{range .params.list}}; echo "item {{.}}"{{end}}`, { go: 'yes', list: ['a', '$(id)'] });
    expect(ran.stdout).toBe('made yes\nitem a\nitem $(id)\n');
    expect(existsSync(file)).toBe(true);
  });

  for (const [label, template] of [
    ['double quotes', 'echo "got {{.params.x}}"'],
    ['single quotes', "echo 'got {{.params.x}}'"],
    ['unquoted', 'echo got {{.params.x}}'],
    ['assignment', 'X={{.params.x}}; echo "got $X"'],
    ['${…}', 'echo "got ${UNSET:-{{.params.x}}}"'],
    ['unquoted ${…}', 'echo got ${UNSET:-{{.params.x}}}'],
    ['$(…) in double quotes', 'echo "$(echo "got {{.params.x}}")"'],
    ['backticks', 'echo `echo got {{.params.x}}`'],
    ['heredoc', 'cat <<EOF\ngot {{.params.x}}\nEOF'],
    ['after a backslash', 'echo got \\{{.params.x}}'],
    ['ANSI-C quotes', "echo $'got {{.params.x}}'"],
  ] as const) {
    it(`runs no payload in ${label}`, () => {
      // One script per shell: the template once per payload, each on its own lines.
      const payloads = PAYLOADS(marker());
      const file = payloads[0]?.match(/\/\S*pwned-[a-z0-9]+/)?.[0] as string;
      const joinedTemplate = payloads.map((_, index) => template.replaceAll('.params.x', `.params.x${index}`)).join('\n');
      const params = Object.fromEntries(payloads.map((payload, index) => [`x${index}`, payload]));
      for (const shell of ['bash', 'sh']) {
        const ran = run(joinedTemplate, params, shell);
        expect(existsSync(file), `${shell} ${label}: ${ran.script}`).toBe(false);
        expect(ran.stdout).toContain('got');
      }
    });
  }

  it('passes the value through unchanged, whatever it holds', () => {
    const payload = 'x"; id; echo \'$(id)` \\ \n end';
    expect(run('printf %s "{{.params.x}}"', { x: payload }).stdout).toBe(payload);
    expect(run("printf %s '{{.params.x}}'", { x: payload }).stdout).toBe(payload);
    expect(run('printf %s {{.params.x}}', { x: payload }).stdout).toBe(payload);
  });

  it('refuses values where they would be code', () => {
    expect(() => script('echo $(( {{.params.x}} ))', { x: 'a[$(id)]' })).toThrow(TemplateValueRefused);
    expect(() => script('[[ "{{.params.x}}" -eq 1 ]]', { x: 'a[$(id)]' })).toThrow(/inside \[\[/);
    expect(() => script('cat <<{{.params.x}}\nhi\n', { x: 'EOF' })).toThrow(/delimiter/);
    expect(() => script("cat <<'EOF'\n{{.params.x}}\nEOF", { x: 'a\nEOF\nid' })).toThrow(/delimiter/);
    expect(() => script('#!/usr/bin/env python3\nprint("{{.params.x}}")', { x: '");import os;os.system("id")#' })).toThrow(/python3/);
    expect(script('#!/usr/bin/env python3\nprint("{{.params.x}}")', { x: 'web-1.prod' }).script).toBe('#!/usr/bin/env python3\nprint("web-1.prod")');
    expect(() => script('echo {{.params.x}}', { x: 'a\0b' })).toThrow(/NUL/);
  });

  it('never shows a refused value in its message', () => {
    try {
      script('echo $(( {{.params.x}} ))', { x: 'hunter2-secret' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2');
      expect((error as Error).message).toContain('a.exec.script');
    }
  });

  it('gives the exec action its variables through exec.env (whose own values are not templated, as in Mission Control)', () => {
    const action = { name: 'a', exec: { script: 'echo "{{.params.x}}" {{.params.y}}', env: [{ name: 'KEEP', value: '{{.params.y}}' }] } } as ActionSpec;
    const out = renderActionInContext(action, { params: { x: '$(id)', y: 'b' } });
    expect(out.exec?.script).toBe('echo "${WK_TPL_1}" "${WK_TPL_2}"');
    expect(out.exec?.env).toEqual([{ name: 'KEEP', value: '{{.params.y}}' }, { name: 'WK_TPL_1', value: '$(id)' }, { name: 'WK_TPL_2', value: 'b' }]);
  });
});

describe('sql queries: template values are values', () => {
  const q = (template: string, x: string, dialect: 'postgres' | 'mysql' = 'postgres') => renderQuery('a.sql.query', renderTemplateSegments('a.sql.query', template, { params: { x } }), dialect).query;
  it('quotes for PostgreSQL', () => {
    expect(q('SELECT * FROM t WHERE id = {{.params.x}}', "'; DROP TABLE t; --")).toBe("SELECT * FROM t WHERE id = E'''; DROP TABLE t; --'");
    expect(q("SELECT * FROM t WHERE name = '{{.params.x}}'", "o'brien")).toBe("SELECT * FROM t WHERE name = 'o''brien'");
    expect(q("SELECT '{{.params.x}}'", 'a\\')).toBe("SET standard_conforming_strings = on;\nSELECT 'a\\'");
    expect(q("SELECT E'{{.params.x}}'", "a\\'")).toBe("SELECT E'a\\\\'''");
    expect(q('SELECT "{{.params.x}}" FROM t', 'a"b')).toBe('SELECT "a""b" FROM t');
    expect(q('SELECT 1 -- {{.params.x}}', 'x\nDROP TABLE t')).toBe('SELECT 1 -- x DROP TABLE t');
    expect(q('SELECT 1 /* {{.params.x}} */', '*/ DROP TABLE t /*')).toBe('SELECT 1 /* * / DROP TABLE t / * */');
    expect(q("SELECT 'it''s', {{.params.x}}", 'v')).toBe("SELECT 'it''s', E'v'");
    expect(() => q('DO $$ BEGIN PERFORM {{.params.x}}; END $$', '1')).toThrow(/dollar-quoted/);
  });
  it('quotes for MySQL', () => {
    expect(q('SELECT * FROM t WHERE id = {{.params.x}}', "\\'; DROP TABLE t; --", 'mysql')).toBe("SELECT * FROM t WHERE id = '\\\\''; DROP TABLE t; --'");
    expect(q("SELECT '{{.params.x}}'", "\\'x", 'mysql')).toBe("SELECT '\\\\''x'");
    expect(q('SELECT `{{.params.x}}`', 'a`b', 'mysql')).toBe('SELECT `a``b`');
    expect(q('SELECT 1 # {{.params.x}}', 'x\nDROP', 'mysql')).toBe('SELECT 1 # x DROP');
  });
});

describe('http urls: template values are encoded for their place', () => {
  const u = (template: string, params: Record<string, unknown>) => renderUrl('a.http.url', renderTemplateSegments('a.http.url', template, { params }));
  it('encodes path segments, query values and fragments', () => {
    expect(u('https://api.example.com/users/{{.params.x}}/roles', { x: 'a/b?c#d' })).toBe('https://api.example.com/users/a%2Fb%3Fc%23d/roles');
    expect(u('https://api.example.com/s?q={{.params.x}}&page=1', { x: 'a&admin=true #x' })).toBe('https://api.example.com/s?q=a%26admin%3Dtrue%20%23x&page=1');
    expect(u('https://api.example.com/x#{{.params.x}}', { x: 'a b' })).toBe('https://api.example.com/x#a%20b');
    expect(new URL(u('https://api.example.com/{{.params.x}}', { x: '@evil.com' })).host).toBe('api.example.com');
    expect(u('https://{{.params.x}}.example.com/x', { x: 'eu-1' })).toBe('https://eu-1.example.com/x');
    expect(u('https://api.example.com:{{.params.x}}/x', { x: '8443' })).toBe('https://api.example.com:8443/x');
    expect(u('{{.params.x}}/restart', { x: 'http://svc:8080' })).toBe('http://svc:8080/restart');
  });
  it('refuses a value that would change the host or climb the path', () => {
    expect(() => u('https://{{.params.x}}/x', { x: 'evil.com/' })).toThrow(/host/);
    expect(() => u('https://{{.params.x}}/x', { x: 'a@evil.com' })).toThrow(/host/);
    expect(() => u('https://api.example.com:{{.params.x}}/x', { x: '80@evil.com' })).toThrow(/port/);
    expect(() => u('https://api.example.com/a/{{.params.x}}/b', { x: '..' })).toThrow(/climb/);
    expect(() => u('{{.params.x}}', { x: 'file:///etc/passwd' })).toThrow(/http/);
    expect(() => u('http{{.params.x}}://a/', { x: 's' })).toThrow(/scheme/);
  });
  it('refuses line ends in header values', () => {
    const action = { name: 'a', http: { url: 'https://h/', headers: [{ name: 'X-Who', value: '{{.params.x}}' }] } } as ActionSpec;
    expect(() => renderActionInContext(action, { params: { x: 'a\r\nX-Admin: 1' } })).toThrow(/line end/);
    expect(renderActionInContext(action, { params: { x: 'ok' } }).http?.headers?.[0]?.value).toBe('ok');
  });
});

describe('sql connections, git remotes, branches and paths', () => {
  const sql = (connection: string, params: Record<string, unknown>) => renderActionInContext({ name: 'a', sql: { connection, query: 'SELECT 1' } } as ActionSpec, { params }).sql?.connection;
  const gitops = (repo: Record<string, unknown>, params: Record<string, unknown>, files: unknown[] = []) =>
    renderActionInContext({ name: 'g', gitops: { repo, commit: { author: 'a', email: 'e', message: 'm' }, files } } as unknown as ActionSpec, { params }).gitops as unknown as { repo: Record<string, string>; files: Array<{ path: string }> };

  it('a sql connection url keeps its host; a name takes a name; pairs take no value', () => {
    expect(sql('postgres://{{.params.u}}@db:5432/app', { u: 'x@evil:1/x?' })).toBe('postgres://x%40evil%3A1%2Fx%3F@db:5432/app');
    expect(sql('postgres://u:{{.params.p}}@db/app', { p: 'p@ss/w:rd' })).toBe('postgres://u:p%40ss%2Fw%3Ard@db/app');
    expect(sql('postgres://u@db/{{.params.d}}?sslmode=disable', { d: 'x?host=evil' })).toBe('postgres://u@db/x%3Fhost%3Devil?sslmode=disable');
    expect(sql('pg-{{.params.env}}', { env: 'prod' })).toBe('pg-prod');
    expect(sql('{{.params.c}}', { c: 'connection://default/pg' })).toBe('connection://default/pg');
    expect(sql('{{.params.c}}', { c: 'mysql://u@db:3306/app' })).toBe('mysql://u@db:3306/app');
    expect(() => sql('pg-{{.params.env}}', { env: 'a/../b' })).toThrow(/connection's name/);
    expect(() => sql('{{.params.c}}', { c: 'file:///etc/passwd' })).toThrow(/starts the URL/);
    expect(() => sql('host=db dbname={{.params.d}}', { d: 'x host=evil' })).toThrow(/not a URL/);
    expect(() => sql('postgres://{{.params.h}}/app', { h: 'evil@db' })).toThrow(/host/);
  });

  it('a git remote: encoded in an https path, checked in a scp-like or local path, its host kept', () => {
    expect(gitops({ url: 'https://github.com/org/{{.params.r}}.git' }, { r: 'a/../../evil' }).repo.url).toBe('https://github.com/org/a%2F..%2F..%2Fevil.git');
    expect(gitops({ url: 'git@github.com:org/{{.params.r}}.git' }, { r: 'app' }).repo.url).toBe('git@github.com:org/app.git');
    expect(gitops({ url: '{{.params.r}}' }, { r: 'ssh://git@host/org/app.git' }).repo.url).toBe('ssh://git@host/org/app.git');
    expect(() => gitops({ url: 'git@github.com:org/{{.params.r}}' }, { r: '..' })).toThrow(/"\.\."/);
    expect(() => gitops({ url: '/srv/git/{{.params.r}}' }, { r: '-u' })).toThrow(/"-"/);
    expect(() => gitops({ url: '/srv/git/{{.params.r}}' }, { r: 'a\nb' })).toThrow(/control character/);
    expect(() => gitops({ url: 'https://{{.params.r}}/org/x' }, { r: 'evil.com/x?' })).toThrow(/host/);
    expect(() => gitops({ url: '{{.params.r}}' }, { r: 'ext::sh -c id' })).toThrow(/git remote/);
    expect(() => gitops({ url: '{{.params.r}}' }, { r: '/etc' })).toThrow(/git remote/);
  });

  it('a branch or path refuses an option, ".." and control characters', () => {
    expect(gitops({ url: 'https://h/r', branch: 'bump/{{.params.b}}', base: '{{.params.base}}' }, { b: 'web-1.2', base: 'main' }).repo).toMatchObject({ branch: 'bump/web-1.2', base: 'main' });
    expect(() => gitops({ url: 'https://h/r', branch: '{{.params.b}}' }, { b: '--upload-pack=id' })).toThrow(/g\.gitops\.repo\.branch: the 1st template value starts a branch name with "-"/);
    expect(() => gitops({ url: 'https://h/r', branch: 'x/{{.params.b}}' }, { b: '-f' })).toThrow(/"-"/);
    expect(() => gitops({ url: 'https://h/r', branch: 'x.{{.params.b}}' }, { b: '.y' })).toThrow(/"\.\."/);
    expect(() => gitops({ url: 'https://h/r', base: '{{.params.b}}' }, { b: 'main\n' })).toThrow(/control character/);
    expect(gitops({ url: 'https://h/r' }, { p: 'web' }, [{ path: 'apps/{{.params.p}}.yaml', content: 'x' }]).files[0]?.path).toBe('apps/web.yaml');
    expect(gitops({ url: 'https://h/r' }, { p: 'a..b' }, [{ path: 'apps/{{.params.p}}.yaml', content: 'x' }]).files[0]?.path).toBe('apps/a..b.yaml');
    expect(() => gitops({ url: 'https://h/r' }, { p: '../..' }, [{ path: 'apps/{{.params.p}}/x', content: 'x' }])).toThrow(/g\.gitops\.files\[0\]\.path: the 1st template value makes the path component "\.\."/);
    expect(() => gitops({ url: 'https://h/r' }, { p: '.' }, [{ path: 'apps/.{{.params.p}}/x', content: 'x' }])).toThrow(/"\.\."/);
    expect(() => gitops({ url: 'https://h/r' }, { p: 'a/-b' }, [{ path: '{{.params.p}}', content: 'x' }])).toThrow(/"-"/);
  });
});
