import { describe, expect, it } from 'vitest';
import { celDuration } from '../cel';
import { ExpressionError } from '../errors';
import { GoDuration } from '../values';
import { KNOWN_DIFFERENCES, runDifferential } from '../../../../test/oracles/gotemplate/differential';
import { compileTemplate, renderTemplate, renderTemplateSegments } from './index';

const where = 'display.template';
const render = (template: string, data?: unknown) => renderTemplate(where, template, data ?? {});
const renderOver = (template: string, data: unknown) => renderTemplate(where, template, data);

/** The ExpressionError a template throws (fails the test when it renders). */
function failure(template: string, data: unknown = {}): ExpressionError {
  try {
    render(template, data);
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error(`${template} rendered`);
}

const data = {
  name: 'api',
  count: 3,
  ok: true,
  no: false,
  empty: '',
  tags: ['x', 'y', 'z'],
  items: [
    { id: 1, name: 'a' },
    { id: 2, name: 'b' },
  ],
  obj: { b: 2, a: 1, c: { d: 'deep' } },
};

describe('Go templates: actions', () => {
  it('prints fields, missing keys as <no value>, maps and lists as Go does', () => {
    expect(render('{{.name}} {{ .obj.c.d }} {{.missing}} {{.missing.deeper}}', data)).toBe('api deep <no value> <no value>');
    expect(render('{{.obj}} {{.tags}}', data)).toBe('map[a:1 b:2 c:map[d:deep]] [x y z]');
    expect(render('{{.count}} {{1.5}} {{0x10}} {{1e6}} {{12345678.0}}', data)).toBe('3 1.5 16 1e+06 1.2345678e+07');
    expect(render('text only')).toBe('text only');
  });

  it('runs pipelines and parenthesised arguments', () => {
    expect(render('{{ .name | printf "%s!" }}', data)).toBe('api!');
    expect(render('{{ "b" | printf "%s-%s" "a" }}', data)).toBe('a-b');
    expect(render('{{ printf "%s=%d" (print "k") (len .tags) }}', data)).toBe('k=3');
    expect(render('{{ (.obj).c.d }}', data)).toBe('deep');
  });

  it('declares and assigns variables, scoped to their block', () => {
    expect(render('{{ $x := .name }}{{ $x }}', data)).toBe('api');
    expect(render('{{ $x := 1 }}{{ if true }}{{ $x = 2 }}{{ end }}{{ $x }}')).toBe('2');
    expect(render('{{ $x := "out" }}{{ if true }}{{ $x := "in" }}{{ $x }}{{ end }} {{ $x }}')).toBe('in out');
    expect(render('{{ range .items }}{{ $.name }}/{{ .id }} {{ end }}', data)).toBe('api/1 api/2 ');
  });

  it('runs if / else if / else and with / else', () => {
    expect(render('{{ if .ok }}yes{{ else }}no{{ end }}', data)).toBe('yes');
    expect(render('{{ if .no }}1{{ else if .ok }}2{{ else }}3{{ end }}', data)).toBe('2');
    expect(render('{{ if .empty }}a{{ end }}{{ if .missing }}b{{ end }}{{ if .tags }}c{{ end }}', data)).toBe('c');
    expect(render('{{ with .obj.c }}{{ .d }}{{ end }}', data)).toBe('deep');
    expect(render('{{ with .missing }}x{{ else }}none{{ end }}', data)).toBe('none');
    expect(render('{{ with .missing }}x{{ else with .name }}{{ . }}{{ end }}', data)).toBe('api');
  });

  it('ranges over lists, maps (sorted keys), integers, with else, break and continue', () => {
    expect(render('{{ range $i, $t := .tags }}{{ $i }}={{ $t }} {{ end }}', data)).toBe('0=x 1=y 2=z ');
    expect(render('{{ range $k, $v := .obj }}{{ $k }}:{{ $v }};{{ end }}', data)).toBe('a:1;b:2;c:map[d:deep];');
    expect(render('{{ range .none }}x{{ else }}empty{{ end }}', data)).toBe('empty');
    expect(render('{{ range 3 }}{{ . }}{{ end }}')).toBe('012');
    expect(render('{{ range .tags }}{{ if eq . "y" }}{{ break }}{{ end }}{{ . }}{{ end }}', data)).toBe('x');
    expect(render('{{ range .tags }}{{ if eq . "y" }}{{ continue }}{{ end }}{{ . }}{{ end }}', data)).toBe('xz');
  });

  it('defines and calls templates, and blocks', () => {
    expect(render('{{ define "x" }}[{{ . }}]{{ end }}{{ template "x" .name }}', data)).toBe('[api]');
    expect(render('{{ block "b" . }}{{ .name }}{{ end }}', data)).toBe('api');
    const tree = { v: 1, next: { v: 2, next: { v: 3 } } };
    expect(render('{{ define "r" }}{{ .v }}{{ with .next }},{{ template "r" . }}{{ end }}{{ end }}{{ template "r" . }}', tree)).toBe('1,2,3');
    expect(failure('{{ define "r" }}{{ template "r" . }}{{ end }}{{ template "r" . }}').reason).toBe('executing at <{{template "r" .}}>: exceeded maximum template depth (1000)');
  });

  it('trims around {{- and -}}, leaves -3 alone, and drops comments', () => {
    expect(render('a  \n {{- .name -}} \n  b', data)).toBe('aapib');
    expect(render('{{ range .tags -}}\n  {{ . }}\n{{- end }}', data)).toBe('xyz');
    expect(render('{{-3}}')).toBe('-3');
    expect(render('a {{- /* a note */ -}} b')).toBe('ab');
  });

  it('reads gomplate\'s delimiter header', () => {
    expect(render('# gotemplate: left-delim=[[ right-delim=]]\n[[ .name ]] {{ kept }}', data)).toBe('api {{ kept }}');
  });
});

describe('Go templates: builtins', () => {
  it('compares with eq, ne, lt, le, gt, ge', () => {
    expect(render('{{ eq .name "api" }} {{ eq .count 3.0 }} {{ eq "a" "b" "a" }} {{ ne 1 2 }}', data)).toBe('true true true true');
    expect(render('{{ lt 1 2 }} {{ le 2 2 }} {{ gt .count 1.5 }} {{ ge "b" "a" }}', data)).toBe('true true true true');
    // An int and a float compare by value (a deliberate difference from Go, see mixedNumbers); a string does not.
    expect(renderOver('{{ eq .count 3 }} {{ lt .count 4 }} {{ gt .count 3 }}', data)).toBe('true true false');
    expect(failure('{{ eq .count "3" }}', data).reason).toBe('executing at <eq .count "3">: error calling eq: incompatible types for comparison');
  });

  it('evaluates and / or lazily, and not', () => {
    expect(render('{{ and 1 0 2 }} {{ and 1 2 }} {{ or 0 "" "x" }} {{ not .ok }}', data)).toBe('0 2 x false');
    expect(render('{{ and .no (index .tags 9) }}', data)).toBe('false');
  });

  it('takes len and index', () => {
    expect(render('{{ len .tags }} {{ len .name }} {{ len .obj }} {{ len "é" }}', data)).toBe('3 3 3 2');
    expect(render('{{ index .tags 1 }} {{ index .obj "b" }} {{ index .items 0 "name" }} {{ index .obj "zz" }}', data)).toBe('y 2 a <no value>');
    expect(failure('{{ index .tags 5 }}', data).reason).toBe('executing at <index .tags 5>: error calling index: index out of range: 5');
  });

  it('uses gomplate\'s slice (coll.Slice), which hides Go\'s builtin', () => {
    expect(render('{{ slice 1 "a" .ok }}', data)).toBe('[1 a true]');
  });

  it('formats with printf verbs as fmt does', () => {
    expect(render('{{ printf "%d|%5d|%-5d|%05d|%+d|%x|%X|%o|%b" 42 42 42 42 42 255 255 8 5 }}')).toBe('42|   42|42   |00042|+42|ff|FF|10|101');
    expect(render('{{ printf "%f %.2f %8.3f %e %g" 3.14159 3.14159 3.14159 1234.5678 0.000012345 }}')).toBe('3.141590 3.14    3.142 1.234568e+03 1.2345e-05');
    expect(render('{{ printf "%s|%q|%v|%10s|%-4s|%t|%c|%U" "hi" "a\\n" .obj "r" "l" true 65 0x1F600 }}', data)).toBe(
      'hi|"a\\n"|map[a:1 b:2 c:map[d:deep]]|         r|l   |true|A|U+1F600',
    );
    expect(render('{{ printf "%T %T %T %T" .name .count 1 .tags }}', data)).toBe('string float64 int []interface {}');
    expect(render('{{ printf "%d" .count }} {{ printf "%s %s" "a" }} {{ printf "%s" "a" "b" }}', data)).toBe('%!d(float64=3) a %!s(MISSING) a%!(EXTRA string=b)');
    expect(render('{{ printf "%.1f%%" 0.25 }}')).toBe('0.2%');
  });

  it('prints, escapes html, js and urlquery', () => {
    expect(render('{{ print 1 2 "a" "b" 3 }}|{{ println "a" 1 }}')).toBe('1 2ab3|a 1\n');
    expect(render('{{ html "<a href=\\"x\\">&\'</a>" }}')).toBe('&lt;a href=&#34;x&#34;&gt;&amp;&#39;&lt;/a&gt;');
    expect(render('{{ js "<a=\'b\'>" }}')).toBe("\\u003Ca\\u003D\\'b\\'\\u003E");
    expect(render('{{ urlquery "a b&c=d/é" }}')).toBe('a+b%26c%3Dd%2F%C3%A9');
  });
});

describe('Go templates: gomplate functions', () => {
  it('has the strings namespace and its top-level aliases', () => {
    expect(render('{{ strings.ToUpper .name }} {{ .name | toUpper }} {{ "ABC" | toLower }} {{ "hello world" | title }}', data)).toBe('API API abc Hello World');
    expect(render('{{ .name | replaceAll "a" "A" }} {{ strings.ReplaceAll "p" "P" .name }} {{ trim "xxhixx" "x" }} {{ strings.TrimSpace "  s  " }}', data)).toBe('Api aPi hi s');
    expect(render('{{ contains .name "p" }} {{ hasPrefix .name "a" }} {{ strings.Contains "z" .name }} {{ split "a,b,c" "," }}', data)).toBe('true true false [a b c]');
    expect(render('{{ strings.Trunc 2 .name }} {{ strings.Repeat 3 "ab" }} {{ strings.Split "," "a,b" }} {{ "a b" | strings.Slug }} {{ "x" | quote }} {{ "it\'s" | squote }}', data)).toBe(
      'ap ababab [a b] a-b "x" \'it\'\'s\'',
    );
    expect(render('{{ "line1\\nline2" | indent 2 }}|{{ strings.Indent 1 "-" "a" }}')).toBe('  line1\n  line2|-a');
  });

  it('has conv and coll: default, has, dict, keys, join, toString…', () => {
    expect(render('{{ .missing | default "d" }} {{ .name | default "d" }} {{ conv.Default "d" .empty }}', data)).toBe('d api d');
    expect(render('{{ has .obj "a" }} {{ has .obj "z" }} {{ coll.Has .tags "y" }}', data)).toBe('true false true');
    expect(render('{{ $d := dict "b" 2 "a" "x" }}{{ $d.a }} {{ keys $d }} {{ values $d }} {{ coll.Dict "k" 1 | toJSON }}')).toBe('x [a b] [x 2] {"k":1}');
    expect(render('{{ join .tags "," }} {{ conv.ToString 5 }} {{ conv.ToInt "42" | printf "%T" }} {{ conv.ToBool "yes" }} {{ conv.Atoi "7" }}', data)).toBe('x,y,z 5 int true 7');
    expect(render('{{ coll.Sort (slice "b" "a" "c") }} {{ coll.Reverse .tags }} {{ coll.Uniq (slice 1 1 2) }} {{ append "w" .tags }}', data)).toBe('[a b c] [z y x] [1 2] [x y z w]');
    expect(render('{{ (coll.Merge (dict "a" 1) (dict "a" 2 "b" 3)) | toJSON }}')).toBe('{"a":1,"b":3}');
  });

  it('has data: toJSON, toJSONPretty, toYAML, json', () => {
    expect(render('{{ toJSON .obj }}', data)).toBe('{"a":1,"b":2,"c":{"d":"deep"}}');
    expect(render('{{ data.ToJSONPretty "  " (dict "a" 1) }}')).toBe('{\n  "a": 1\n}');
    expect(render('{{ (json "{\\"x\\": [1, 2]}").x }} {{ (data.YAML "a: b").a }}')).toBe('[1 2] b');
    expect(render('{{ toYAML .obj }}', data)).toBe('a: 1\nb: 2\nc:\n  d: deep\n');
  });

  it('has test: required, ternary, assert, fail', () => {
    expect(render('{{ required "need a name" .name }} {{ ternary "y" "n" .ok }} {{ kind .tags }}', data)).toBe('api y slice');
    expect(failure('{{ required "need a name" .missing }}', data).reason).toBe('executing at <required "need a name" .missing>: error calling required: need a name');
    expect(failure('{{ fail "stop" }}').reason).toContain('template generation failed: stop');
  });

  it('has math and time', () => {
    expect(render('{{ add 1 2 }} {{ add 1 .count }} {{ sub 5 2 }} {{ mul 2 3 }} {{ div 1 4 }} {{ seq 3 }} {{ math.Max 1 5 2 }}', data)).toBe('3 4 3 6 0.25 [1 2 3] 5');
    expect(render('{{ (time.Parse "2006-01-02" "2024-03-05").Format "Jan 2, 2006" }} {{ time.Second 90 }} {{ (time.ParseDuration "1h30m").Minutes }}')).toBe('Mar 5, 2024 1m30s 90');
    expect(render('{{ (time.Unix 0).UTC.Year }} {{ time.RFC3339 }} {{ time.Now | printf "%T" }}')).toBe('1970 2006-01-02T15:04:05Z07:00 time.Time');
  });

  it('humanises durations and sizes as gomplate does', () => {
    expect(render('{{ humanSize 1536 }} {{ strings.HumanSize 10485760 }} {{ humanDuration (time.Hour 2) }}')).toBe('1.5K 10M 2h');
  });

  it('has regexp, base64 and crypto', () => {
    expect(render('{{ regexp.Replace "(a)(p)" "$2$1" .name }} {{ regexp.Match "^a" .name }} {{ regexp.FindAll "[xz]" "xyz" }}', data)).toBe('pai true [x z]');
    expect(render('{{ base64.Encode "hello" }} {{ base64.Decode "aGVsbG8=" }} {{ crypto.SHA1 "a" }}')).toBe('aGVsbG8= hello 86f7e437faa5a7fce15d1ddcb9eaeaea377667b8');
  });

  it('prints durations as Go\'s Duration.String(), and calls their methods', () => {
    expect(render('{{ .d }} {{ .d.Seconds }} {{ .d.Milliseconds }}', { d: celDuration(1234) })).toBe('1.234s 1.234 1234');
    expect(render('{{ .d }}', { d: new GoDuration(3_723_000_000_000n) })).toBe('1h2m3s');
    expect(render('{{ if gt .d.Milliseconds 1000 }}slow{{ end }}', { d: celDuration(1500) })).toBe('slow');
  });
});

describe('Go templates: jq, jsonpath, matchLabel, semver and Kubernetes health (shared with CEL)', () => {
  const body = '{"items":[{"name":"a","n":1},{"name":"b","n":2}],"count":2}';
  const pod = {
    kind: 'Pod',
    metadata: { name: 'api' },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
  const crashing = {
    kind: 'Pod',
    status: { phase: 'Running', containerStatuses: [{ name: 'app', state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off' } } }] },
  };
  const values = { body, items: JSON.parse(body) as unknown, pod, crashing, podYAML: 'kind: Deployment\nspec: {replicas: 2}\nstatus: {readyReplicas: 1, updatedReplicas: 1}\n', labels: { env: 'prod', region: 'us-east-1' } };

  it('jq and coll.JQ: query first, value last (pipes), JSON text read as an object', () => {
    expect(render('{{ jq ".items[0].name" .body }} {{ .body | jq ".items[] | .name" }} {{ .items | jq ".items | length" }}', values)).toBe('a [a b] 2');
    expect(render('{{ coll.JQ ".items | map(.n) | add" .items }} {{ jq ".items | map(.name)" .items | printf "%T" }}', values)).toBe('3 []interface {}');
    // gomplate: a null output is "", no output an empty list.
    expect(render('[{{ jq ".missing" .items }}] {{ jq ".items[] | select(.name == \\"z\\")" .items }}', values)).toBe('[] []');
    expect(failure('{{ jq "group_by(.a)" .items }}', values).reason).toBe(
      'executing at <jq "group_by(.a)" .items>: error calling jq: jq: \'group_by\' is not supported yet',
    );
  });

  it('jsonpath: one match as is, several as a list, none as ""', () => {
    expect(render('{{ jsonpath "$.items[*].name" .body }} {{ jsonpath "count" .body }} {{ .items | jsonpath "$.items[-1:].name" }} [{{ jsonpath "$.nope" .items }}]', values)).toBe(
      '[a b] 2 b []',
    );
    // filters are JSONPath's beyond the subset: jsonpath-plus answers them
    expect(render('{{ jsonpath "$.items[?(@.name == \'b\')].name" .body }}', values)).toBe('b');
    expect(failure('{{ jsonpath "$.a[?(@.b ==)]" .items }}', values).reason).toMatch(/error calling jsonpath: jsonpath: Expected expression after ==/);
  });

  it('matchLabel labels key pattern…: globs, ! negates, a missing key matches only negations', () => {
    expect(render('{{ matchLabel .labels "region" "us-*" }} {{ matchLabel .labels "region" "eu-*" "us-east-?" "us-*" }} {{ matchLabel .labels "env" "!prod" }}', values)).toBe(
      'true true false',
    );
    expect(render('{{ matchLabel .labels "missing" "!*" }} {{ matchLabel .labels "missing" "x" }}', values)).toBe('true false');
  });

  it('semver, semverCompare and the strings namespace\'s Semver, SemverMap, SemverCompare', () => {
    expect(render('{{ semver "v1.2.3-beta.1+c0ff33" }} {{ (semver "1.2").Minor }} {{ (semver "1.2.3-rc.1").Prerelease }} {{ (semver "v2").Original }}')).toBe(
      '1.2.3-beta.1+c0ff33 2 rc.1 v2',
    );
    expect(render('{{ (semver "1.2.3").LessThan (semver "1.3.0") }} {{ (semver "1.2.3").Compare (semver "1.2.3") }} {{ strings.Semver "1.0.0" | printf "%T" }}')).toBe(
      'true 0 *semver.Version',
    );
    expect(render('{{ semverCompare ">=1.2.0, <2" "1.4.0" }} {{ "2.0.0" | strings.SemverCompare "^1.2" }} {{ semverCompare "1.2.4" "1.2.3" }}')).toBe('true false false');
    expect(render('{{ strings.SemverMap "1.2.3-rc.1" }}')).toBe('map[major:1 metadata: minor:2 original:1.2.3-rc.1 patch:3 prerelease:rc.1]');
    expect(failure('{{ semver "nope" }}').reason).toBe('executing at <semver "nope">: error calling semver: semver: "nope" is not a semantic version');
  });

  it('isHealthy, isReady, getStatus, getHealth and the k8s namespace, over maps and YAML/JSON text', () => {
    expect(render('{{ isHealthy .pod }} {{ isReady .pod }} {{ getStatus .pod }}|{{ getHealth .pod }}', values)).toBe('true true Running: |{Running  healthy true true}');
    expect(render('{{ (getHealth .crashing).Health }} {{ getStatus .crashing }} {{ k8s.IsHealthy .crashing }}', values)).toBe('unhealthy CrashLoopBackOff: back-off false');
    expect(render('{{ getStatus .podYAML }} {{ (getHealth (toJSON .pod)).OK }} {{ k8s.IsReady .podYAML }}', values)).toBe('Updating: 1/2 ready true false');
    expect(render('{{ printf "%+v" (k8s.GetHealth .pod) }} {{ k8s.GetHealthMap .pod }}', values)).toBe(
      '{Status:Running Message: Health:healthy Ready:true OK:true} map[health:healthy message: status:Running]',
    );
    expect(render('{{ getStatus "- a list" }}')).toBe('Error: Invalid spec');
  });

  it('still refuses what gomplate has and this engine does not', () => {
    expect(failure('{{ env.Getenv "HOME" }}', values).reason).toBe('function "env" is refused by design: it reads the server\'s environment variables');
    expect(failure('{{ neat "x" }}').reason).toBe('function "neat" not defined');
  });
});

describe('Go templates: errors', () => {
  it('names the field and the line:column of a parse error', () => {
    const error = failure('ok\n  {{ .name | nosuchfunc }}', data);
    expect(error.where).toBe(where);
    expect(error.position).toEqual({ line: 2, column: 14 });
    expect(error.message).toBe('display.template "ok\\n  {{ .name | nosuchfunc }}" at 2:14: function "nosuchfunc" not defined');
    expect(failure('{{ if .ok }}x').reason).toBe('unexpected EOF');
    expect(failure('x{{ end }}').reason).toBe('unexpected {{end}}');
    expect(failure('{{ .name').reason).toBe('unclosed action');
    expect(failure('{{ $x }}').reason).toBe('undefined variable "$x"');
    expect(failure('{{ break }}').reason).toBe('{{break}} outside {{range}}');
    expect(failure('{{ "abc }}').reason).toBe('unterminated quoted string');
  });

  it('names the action that failed while running', () => {
    const error = failure('a\n{{ index .tags "a" }}', data);
    expect(error.position).toEqual({ line: 2, column: 4 });
    expect(error.reason).toBe('executing at <index .tags "a">: error calling index: cannot index slice/array with type string');
    expect(failure('{{ template "nope" }}').reason).toBe('executing at <{{template "nope"}}>: template "nope" not defined');
    expect(failure('{{ range .count }}x{{ end }}', { count: 3.5 }).reason).toBe("executing at <.count>: range can't iterate over 3.5");
    expect(failure('{{ contains "x" }}').reason).toBe('executing at <contains>: wrong number of args for contains: want 2 got 1');
  });

  it('compiles once and renders many times', () => {
    const compiled = compileTemplate(where, '{{ .n }}');
    expect([1, 2].map((n) => compiled.render({ n }))).toEqual(['1', '2']);
    expect(compileTemplate(where, '{{ .n }}')).not.toBe(undefined);
  });
});

// --- The differential test: outputs Go's own text/template gave (test/oracles/gotemplate). ---------

const differential = runDifferential();

describe(`Go templates: differential against Go ${differential.go}'s text/template`, () => {
  it(`agrees with Go on ${differential.agreeing}/${differential.total} cases (${Object.keys(KNOWN_DIFFERENCES).length} known differences)`, () => {
    const { disagreements } = differential;
    expect(disagreements.filter(({ name }) => !Object.hasOwn(KNOWN_DIFFERENCES, name))).toEqual([]);
    expect(disagreements.map(({ name }) => name).sort()).toEqual(Object.keys(KNOWN_DIFFERENCES).sort());
  });
});

describe('output segments (renderTemplateSegments)', () => {
  it('tells literal text, block bodies included, from what actions printed', () => {
    const segments = renderTemplateSegments(where, 'echo "{{.a}}"{{if .a}} ok {{.b}}{{end}}{{range .l}}[{{.}}]{{end}}{{define "t"}}<{{.}}>{{end}}{{template "t" .a}}{{.missing}}', { a: 'x', b: 2, l: ['p', 'q'] });
    expect(segments).toEqual([
      { text: 'echo "', action: false },
      { text: 'x', action: true },
      { text: '" ok ', action: false },
      { text: '2', action: true },
      { text: '[', action: false },
      { text: 'p', action: true },
      { text: '][', action: false },
      { text: 'q', action: true },
      { text: ']<', action: false },
      { text: 'x', action: true },
      { text: '>', action: false },
      { text: '<no value>', action: true },
    ]);
    expect(segments.map((segment) => segment.text).join('')).toBe(render('echo "{{.a}}"{{if .a}} ok {{.b}}{{end}}{{range .l}}[{{.}}]{{end}}{{define "t"}}<{{.}}>{{end}}{{template "t" .a}}{{.missing}}', { a: 'x', b: 2, l: ['p', 'q'] }));
    expect(renderTemplateSegments(where, 'plain', {})).toEqual([{ text: 'plain', action: false }]);
    expect(renderTemplateSegments(where, '{{"a"}}{{"b"}}', {})).toEqual([{ text: 'a', action: true }, { text: 'b', action: true }]);
  });
});
