import { describe, expect, it } from 'vitest';
import { checkCel, evaluateCel, ExpressionError } from '../index';

const pod = {
  kind: 'Pod',
  metadata: { name: 'api-1', namespace: 'default' },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'main', ready: true, restartCount: 0, state: { running: {} } }] },
};
const crashing = {
  kind: 'Pod',
  metadata: { name: 'api-2' },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'False' }],
    containerStatuses: [{ name: 'main', ready: false, restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff', message: 'Back-off 40s restarting failed container=main' } } }],
  },
};
const deployment = { kind: 'Deployment', metadata: { generation: 2 }, spec: { replicas: 3 }, status: { observedGeneration: 2, replicas: 3, readyReplicas: 3, updatedReplicas: 3, availableReplicas: 3 } };

const vars = {
  results: { stdout: '{"items":[{"name":"a"},{"name":"b"}],"count":2,"ratio":0.5}' },
  pod,
  crashing,
  deployment,
  s: 'hello world',
  t: '2020-01-01T00:00:00Z',
  labels: { environment: 'production', region: 'us-east-1' },
  config: { name: 'api', type: 'Kubernetes::Pod', tags: { cluster: 'aws-prod' } },
};

const run = (expression: string) => evaluateCel('test', expression, vars);

function cases(table: Array<[string, unknown]>): void {
  for (const [expression, expected] of table) {
    it(expression, () => expect(run(expression)).toEqual(expected));
  }
}

describe('CEL: JSON and YAML', () => {
  cases([
    ["{'a': 1}.toJSON()", '{"a":1}'],
    ['\'{"a":[1,2]}\'.JSON().a[1]', 2],
    ['results.stdout.JSON().items[1].name', 'b'],
    ['results.stdout.JSON().count == 2', true],
    ['results.stdout.JSON().ratio', 0.5],
    ["dyn([{'name': 'John', 'age': 30}]).toJSON()", '[{"age":30,"name":"John"}]'],
    ['1.toJSON()', '1'],
    ["toJSON({'b': true, 'a': [1, 2.5, 'x']})", '{"a":[1,2.5,"x"],"b":true}'],
    ["{'name': 'aditya'}.toJSONPretty('\\t')", '{\n\t"name": "aditya"\n}'],
    ['\'["1", "2"]\'.JSONArray()[0]', '1'],
    ["YAML('name: John\\n').name", 'John'],
    ["YAMLArray('- name\\n')[0]", 'name'],
    ["toYAML(['name', 'John'])", '- name\n- John\n'],
    ["{'name': 'John'}.toYAML()", 'name: John\n'],
    ["{'a': 1, 'b': 2}.keys().join(',')", 'a,b'],
    ["{'a': 1, 'b': 2}.values().sum()", 3],
    ["{'a': 'c'}.merge({'b': 'd'}).keys()", ['a', 'b']],
    ["{'a': '1', 'b': '2', 'c': '3'}.omit(['b']).keys()", ['a', 'c']],
    ["Dict(['a', 'b', 'c', 'd']).c", 'd'],
    ["Has(['a', 'b'], 'a')", true],
    ["keyValToMap('a=b,c=d').c", 'd'],
  ]);
});

describe('CEL: jq and JSONPath', () => {
  cases([
    ["jq('.items[0].name', results.stdout)", 'a'],
    ["jq('.items[] | .name', results.stdout.JSON())", ['a', 'b']],
    ["jq('.items | map(.name)', results.stdout.JSON())", ['a', 'b']],
    ["jq('.items[] | select(.name == \"b\") | .name', results.stdout.JSON())", 'b'],
    ["jq('.items | length', results.stdout.JSON())", 2],
    ["jq('.missing', results.stdout.JSON())", null],
    ["jsonpath('$.items[-1:].name', results.stdout.JSON())", 'b'],
    ["jsonpath('$.items[*].name', results.stdout.JSON())", ['a', 'b']],
    ["jsonpath('count', results.stdout.JSON())", 2],
  ]);
});

describe('CEL: strings (cel-go extension and gomplate)', () => {
  cases([
    ["'hello'.upperAscii()", 'HELLO'],
    ["'HeyThERE'.lowerAscii()", 'heythere'],
    ["'hello'.charAt(1)", 'e'],
    ["'hello'.charAt(5)", ''],
    ["'hello hello'.replace('he', 'we')", 'wello wello'],
    ["'hello hello'.replace('he', 'we', 1)", 'wello hello'],
    ["'hello hello'.replace('he', 'we', 0)", 'hello hello'],
    ["'a,b,c'.split(',', 2)", ['a', 'b,c']],
    ["['a', 'b'].join('-')", 'a-b'],
    ["'tacocat'.substring(0, 4)", 'taco'],
    ["'hello mellow'.indexOf('ello', 2)", 7],
    ["'hello mellow'.lastIndexOf('ello')", 7],
    ["'gums'.reverse()", 'smug'],
    ["'  trim\\n'.trim()", 'trim'],
    ["strings.quote('two \"q\"\\n')", '"two \\"q\\"\\n"'],
    ["'hello'.quote()", '"hello"'],
    ['"%s is %d, %.2f, %x".format(["x", 42, 1.5, 255])', 'x is 42, 1.50, ff'],
    ["'KubernetesPod'.abbrev(6)", 'Kub...'],
    ["'Now is the time for all good men'.abbrev(5, 20)", '...s the time for...'],
    ["'the quick brown fox'.camelCase()", 'theQuickBrownFox'],
    ["'hello mellow'.kebabCase()", 'hello-mellow'],
    ['s.snakeCase()', 'hello_world'],
    ['s.title()', 'Hello World'],
    ["'hello world'.indent(4, '-')", '----hello world'],
    ["'hello'.repeat(2)", 'hellohello'],
    ["'hello'.replaceAll('l', 'f')", 'heffo'],
    ['"Hello$World".runeCount()', 11],
    ['"rm -rf /home/*".shellQuote()', "'rm -rf /home/*'"],
    ["'hello there'.slug()", 'hello-there'],
    ['s.squote()', "'hello world'"],
    ["s.trimSuffix(' world')", 'hello'],
    ["s.trimPrefix('hello ')", 'world'],
    ["'testing this line from here'.wordWrap(10)", 'testing\nthis line\nfrom here'],
    ["TrimPrefix('Mr. ', 'Mr. Smith')", 'Smith'],
    ["TrimSuffix('.jpg', 'image.jpg')", 'image'],
    ["ReplaceAll('cat', 'dog', 'The cat sat')", 'The dog sat'],
    ["Repeat(3, 'ab')", 'ababab'],
    ["Contains('ell', 'hello') && HasPrefix('he', 'hello') && HasSuffix('lo', 'hello')", true],
    ["strings.ToUpper('abc') + strings.ToLower('DEF')", 'ABCdef'],
    ["Trunc(3, 'abcdef')", 'abc'],
    ["Indent('> ', 'a\\nb')", '> a\n> b'],
    ["Slug('Hello, World!')", 'hello-world'],
    ["Quote('hi')", '"hi"'],
    ["SnakeCase('HelloWorld') + ' ' + KebabCase('Hello World') + ' ' + CamelCase('hello_world')", 'Hello_world Hello-world helloWorld'],
    ["WordWrap(5, 'Hello World')", 'Hello\nWorld'],
    ["Sort(['b', 'a', 'c'])", ['a', 'b', 'c']],
    ["Semver('1.2.3-beta.1+c0ff33').prerelease", 'beta.1'],
    ["SemverCompare('>=1.2.0, <2', '1.4.0')", true],
    ["SemverCompare('^1.2', '2.0.0')", false],
    ["SemverCompare('1.2.4', '1.2.3')", false],
    ["urlencode('hello world ?')", 'hello+world+%3F'],
    ["urldecode('hello+world+%3F')", 'hello world ?'],
  ]);
});

describe('CEL: regexp, encoding, hashes, uuid, filepath', () => {
  cases([
    ["regexp.Find('[0-9]+', '/path/i-213213/')", '213213'],
    ["regexp.FindAll('a.', -1, 'banana')", ['an', 'an']],
    ["regexp.Match('^h.llo', 'hello')", true],
    ["regexp.QuoteMeta('a.b')", 'a\\.b'],
    ["regexp.Replace('(\\\\w+)@(\\\\w+)', '${2}:$1', 'me@host')", 'host:me'],
    ["regexp.ReplaceLiteral('a.', '$1', 'a.b')", '$1b'],
    ["regexp.Split('\\\\s', 2, 'apple pie is delicious')", ['apple', 'pie is delicious']],
    ["'abc 123'.find('[0-9]+')", '123'],
    ["'ABC-123 x DEF-456'.findAll(r'\\w{3}-\\d{3}')", ['ABC-123', 'DEF-456']],
    ["base64.encode(b'hello')", 'aGVsbG8='],
    ["string(base64.decode('aGVsbG8='))", 'hello'],
    ["base64.Encode('hello') + ' ' + base64.Decode('aGVsbG8=')", 'aGVsbG8= hello'],
    ["crypto.SHA1('hello')", 'aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d'],
    ["crypto.SHA256('hello')", '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824'],
    ["crypto.SHA384('hello').size()", 96],
    ["crypto.SHA512('hello').size()", 128],
    ['uuid.IsValid(uuid.V4()) && uuid.IsValid(uuid.V1()) && uuid.V1() != uuid.Nil()', true],
    ["uuid.Parse('2A42E576-C308-4DB9-8525-0513AF307586')", '2a42e576-c308-4db9-8525-0513af307586'],
    ["filepath.Base('/home/flanksource/projects/gencel')", 'gencel'],
    ["filepath.Clean('/foo/bar/../baz')", '/foo/baz'],
    ["filepath.Dir('/home/flanksource/projects')", '/home/flanksource'],
    ["filepath.Ext('/opt/image.jpg')", '.jpg'],
    ["filepath.IsAbs('projects/image.jpg')", false],
    ["filepath.Join(['/home', 'projects', 'gencel'])", '/home/projects/gencel'],
    ["filepath.Match('*.txt', 'foo.json')", false],
    ["filepath.Rel('/foo/bar', '/foo/bar/baz')", 'baz'],
    ["filepath.Split('/foo/bar/baz')", ['/foo/bar/', 'baz']],
  ]);
});

describe('CEL: lists, sets and optionals', () => {
  cases([
    ['[3, 1, 2].sort()', [1, 2, 3]],
    ["['h', 'b', 'a'].sort()", ['a', 'b', 'h']],
    ['[1, 2, 3, 4].slice(1, 3)', [2, 3]],
    ["['a', ['b', 'c'], 'd'].flatten()", ['a', 'b', 'c', 'd']],
    ['[1, [2, [3]]].flatten(2)', [1, 2, 3]],
    ['[1, 2, 2, 3].distinct()', [1, 2, 3]],
    ['[1, 2, 3, 3, 4].uniq().sum()', 10],
    ['[1, 2, 3].reverse()', [3, 2, 1]],
    ['lists.range(4)', [0, 1, 2, 3]],
    ['[1, 2, 3].min() + [1, 2, 3].max()', 4],
    ['sets.contains([1, 2, 3, 4], [2, 3])', true],
    ['sets.contains([1, 2.0, 3u], [1.0, 2u, 3])', true],
    ['sets.equivalent([1, 2, 3], [3u, 2.0, 1])', true],
    ['sets.intersects([1], [])', false],
    ["results.?missing.orValue('none')", 'none'],
    ['results.?stdout.hasValue()', true],
    ['optional.of(1).value()', 1],
  ]);
});

describe('CEL: math', () => {
  cases([
    ['math.greatest([1, 5, 3])', 5],
    ['math.greatest(-42.0, -21.5, -100.0)', -21.5],
    ['math.least([1, 2, 3])', 1],
    ['math.ceil(1.2) + math.floor(1.8) + math.round(2.5)', 6],
    ['math.abs(-5) + math.sign(-3)', 4],
    ['math.isNaN(0.0 / 0.0)', true],
    ['math.bitOr(1, 2) + math.bitAnd(3, 1) + math.bitXor(3, 1) + math.bitShiftLeft(1, 3) + math.bitShiftRight(16, 2)', 3 + 1 + 2 + 8 + 4],
    ['math.bitNot(0)', -1],
    ['math.Add([1, 2, 3, 4, 5])', 15],
    ['math.Sub(5, 4)', 1],
    ['math.Mul([1, 2, 3, 4])', 24],
    ['math.Div(4, 2)', 2],
    ['math.Rem(4, 3)', 1],
    ['math.Pow(4, 2)', 16],
    ['math.Seq([1, 5])', [1, 2, 3, 4, 5]],
    ['math.Seq([1, 6, 2])', [1, 3, 5]],
    ['math.Abs(-1)', 1],
    ['math.Ceil(5.4) + math.Floor(5.6) + math.Round(5.6)', 17],
    ['math.Max([1, 7, 3]) + math.Min(4, 2, 9)', 9],
    ["math.IsInt(5) && !math.IsInt(5.5) && math.IsFloat(3.14) && math.IsNum('42')", true],
  ]);
});

describe('CEL: time and durations', () => {
  cases([
    ["HumanDuration(duration('1008h'))", '6w0d0h'],
    ["HumanDuration(duration('1h'))", '1h'],
    ["HumanDuration(duration('90s'))", '1m30s'],
    ["HumanDuration(duration('10s'))", '10s'],
    ["HumanDuration(duration('50h'))", '2d2h'],
    ['HumanDuration(1500000)', '1.5ms'],
    ['HumanSize(123456)', '120.6K'],
    ['HumanSize(1048576)', '1M'],
    ['HumanSize(0)', '0B'],
    ["Duration('7d').getHours()", 168],
    ["duration('24h') > Duration('3d')", false],
    ["Age(t) > Duration('3d')", true],
    ["time.Since(timestamp('2020-01-01T00:00:00Z')) > Duration('1d')", true],
    ['time.Now() > timestamp(t)', true],
    ["time.ParseDuration('1h30m').getMinutes()", 90],
    ["time.Parse('2006-01-02', '2023-09-26').getDayOfMonth()", 25],
    ["string(time.Parse('2006-01-02', '2023-09-26'))", '2023-09-26T00:00:00Z'],
    ["string(timestamp('2023-09-26T10:00:20.021Z'))", '2023-09-26T10:00:20.021Z'],
    ["string(duration('30m'))", '1800s'],
    ["string(duration('1.5s'))", '1.5s'],
    ["time.Parse('2006-01-02 15:04 MST', '2023-09-26 10:30 UTC') == timestamp('2023-09-26T10:30:00Z')", true],
    ["time.ParseInLocation('2006-01-02 15:04', 'Europe/Paris', '2023-09-26 10:30') == timestamp('2023-09-26T08:30:00Z')", true],
    ['time.Unix(0) == timestamp(0)', true],
    ['time.Hour > time.Minute', true],
    ["time.InTimeRange('2024-01-01T10:00:00Z', '09:00', '17:00')", true],
    ["time.InTimeRange('2024-01-01T18:30:00Z', '09:00', '17:30:00')", false],
  ]);
});

describe('CEL: Kubernetes and selectors', () => {
  cases([
    ['k8s.isHealthy(pod)', true],
    ['k8s.isReady(pod)', true],
    ['k8s.getHealth(pod).status', 'Running'],
    ['k8s.isHealthy(crashing)', false],
    ['k8s.getHealth(crashing).health', 'unhealthy'],
    ['k8s.getStatus(crashing)', 'CrashLoopBackOff: Back-off 40s restarting failed container=main'],
    ['k8s.isHealthy(deployment)', true],
    ["k8s.isHealthy(dyn({'kind': 'Deployment', 'spec': {'replicas': 3}, 'status': {'readyReplicas': 1, 'updatedReplicas': 3}}))", false],
    ["k8s.is_healthy(dyn({'kind': 'Service', 'spec': {'type': 'ClusterIP'}}))", true],
    ['[pod, crashing].all(p, k8s.isHealthy(p))', false],
    ["k8s.isHealthy('kind: Pod\\nstatus:\\n  phase: Succeeded\\n')", true],
    ["k8s.cpuAsMillicores('150000000n') + k8s.cpuAsMillicores('1.5')", 150 + 1500],
    ["k8s.memoryAsBytes('512Mi')", 536870912],
    ["matchLabel(labels, 'region', 'us-*')", true],
    ["matchLabel(labels, 'region', 'eu-*')", false],
    ["matchLabel(labels, 'environment', '!production')", false],
    ["matchLabel(labels, 'missing', '!*')", true],
    ["matchLabel(labels, 'missing', 'x')", false],
    ["matchQuery(config, 'type=Kubernetes::* tags.cluster=aws-*')", true],
    ["matchQuery(config, 'name!=api')", false],
    ["matchQuery(pod, 'api-* namespace=default')", true],
  ]);
});

describe('CEL: compile-time refusals and checkCel', () => {
  function refusal(expression: string): ExpressionError {
    try {
      checkCel('spec.test', expression);
    } catch (error) {
      if (error instanceof ExpressionError) return error;
      throw error;
    }
    throw new Error(`${expression} was accepted`);
  }

  it('accepts a typical check test', () => {
    expect(() => checkCel('test', "code == 200 && json.items.size() > 0 && headers['Content-Type'].startsWith('application/json')")).not.toThrow();
  });

  it('names an unsupported Flanksource function', () => {
    expect(refusal('aws.arnToMap(x)').reason).toBe('aws.arnToMap is not supported yet');
    expect(refusal('k8s.neat(x)').reason).toBe('k8s.neat is not supported yet');
    expect(refusal("coll.JQ('.a', x)").reason).toBe('coll.JQ is not supported yet');
    expect(refusal("CSV(['a,b'])").reason).toBe('CSV is not supported yet');
    expect(refusal('math.nope(1)').reason).toBe('math.nope is not supported yet');
  });

  it('refuses a jq, JSONPath or JMESPath literal it cannot run', () => {
    expect(refusal("jq('group_by(.a)', x)").reason).toBe("jq: 'group_by' is not supported yet");
    expect(refusal("jsonpath('$.a[?(@.b ==)]', x)").reason).toBe('jsonpath: Expected expression after == at character 9 in "$.a[?(@.b ==)]"');
    expect(refusal("jmespath('items[?', x)").reason).toBe('jmespath: Invalid token (EOF): "" in "items[?"');
  });

  it('names an unknown function with its position', () => {
    const error = refusal('code == 200 &&\n  frobnicate(body)');
    expect(error.reason).toBe('unknown function frobnicate()');
    expect(error.position).toEqual({ line: 2, column: 3 });
    expect(refusal('body.frobnicate()').reason).toBe('unknown function .frobnicate()');
  });

  it('reports where an expression does not parse', () => {
    const error = refusal('code ==\n  200 &&');
    expect(error.reason).toMatch(/^does not parse/);
    expect(error.position?.line).toBe(2);
    expect(error.message).toContain('at 2:');
  });

  it('refuses a type error at compile time', () => {
    expect(refusal("1 + 'a'").reason).toMatch(/^does not type-check/);
  });

  it('evaluation errors name the expression', () => {
    expect(() => run("'{bad'.JSON()")).toThrow(ExpressionError);
    expect(() => run("'[1]'.JSON()")).toThrow(/not an object/);
  });
});
