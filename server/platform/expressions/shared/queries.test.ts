import { JSONPath } from 'jsonpath-plus';
import { describe, expect, it } from 'vitest';
import { evaluateCel } from '../index';
import { renderTemplate } from '../template';
import { checkJmesPath, jmesPath } from './jmespath';
import { checkJsonPath, jsonPath, jsonPathMatches, parseJsonPath } from './jsonpath';

const doc = {
  count: 2,
  items: [
    { name: 'a', n: 1, spec: { port: 80 }, tags: ['x'] },
    { name: 'b', n: 2, spec: { port: 443 }, tags: ['y', 'z'] },
    { name: 'c', n: 3 },
  ],
  meta: { name: 'top', labels: { app: 'api' } },
};

describe('JSONPath: the subset and jsonpath-plus give one answer', () => {
  // every form of the subset (shared/jsonpath.ts), each also answered by the package itself
  const subsetPaths = ['$.items[*].name', 'count', '$.count', "$['meta']['name']", '$.items[0].name', '$.items[-1:].name', '$.items[0:2].n', '$.items.*.n', '$..name', '$..port', "$.items[0,2].name", '$.nope', '$.items[5]'];

  it.each(subsetPaths)('%s', (path) => {
    expect(() => parseJsonPath(path)).not.toThrow();
    const packageAnswer: unknown = JSONPath({ path, json: doc, eval: 'safe', wrap: true });
    expect(jsonPathMatches(path, doc)).toEqual(packageAnswer);
  });

  it("keeps the subset's answer where the package has none: a union of quoted names", () => {
    expect(JSONPath({ path: "$.meta['name','labels']", json: doc, eval: 'safe', wrap: true })).toEqual([]);
    expect(jsonPathMatches("$.meta['name','labels']", doc)).toEqual(['top', { app: 'api' }]);
  });

  it('answers filters and scripts (beyond the subset) through jsonpath-plus', () => {
    expect(() => parseJsonPath('$.items[?(@.n > 1)].name')).toThrow(/not supported yet/);
    expect(jsonPath('$.items[?(@.n > 1)].name', doc)).toEqual(['b', 'c']);
    expect(jsonPath("$.items[?(@.name == 'a')].spec.port", doc)).toBe(80);
    // a filter that fails on an element (no spec) does not match it, as in ojg (gomplate's JSONPath)
    expect(jsonPath('$.items[?(@.spec.port > 100)].name', doc)).toBe('b');
    expect(jsonPath('$.items[(@.length-1)].name', doc)).toBe('c');
    expect(jsonPath('$.items[?(@.n > 5)]', doc)).toBeNull();
  });

  it('runs no JavaScript and refuses a filter that does not parse, even where nothing would run it', () => {
    expect(jsonPath("$.items[?(@.constructor.constructor('return process')())]", doc)).toBeNull();
    expect(() => checkJsonPath('$.nothing[?(@.b ==)]')).toThrow('jsonpath: Expected expression after == at character 9 in "$.nothing[?(@.b ==)]"');
    expect(() => jsonPathMatches('$.nothing[?(@.b ==)]', doc)).toThrow(/Expected expression after ==/);
  });

  it('reads CEL values (maps, ints) in both engines', () => {
    expect(evaluateCel('t', "jsonpath('$.items[?(@.n >= 2)].name', x)", { x: doc })).toEqual(['b', 'c']);
    expect(evaluateCel('t', "jsonpath('$.m[?(@ > 1)]', {'m': {'a': 1, 'b': 2}})", {})).toBe(2);
  });
});

describe('JMESPath (the jmespath package, as gomplate\'s coll.JMESPath)', () => {
  it('queries data and JSON text; a null result is ""', () => {
    expect(jmesPath('items[?n > `1`].name', doc)).toEqual(['b', 'c']);
    expect(jmesPath('length(items)', doc)).toBe(3);
    expect(jmesPath("items[?name=='a'] | [0].spec.port", doc)).toBe(80);
    expect(jmesPath('sort_by(items, &n)[-1].name', doc)).toBe('c');
    expect(jmesPath('nope', doc)).toBe('');
    expect(jmesPath('count', JSON.stringify(doc))).toBe(2);
    expect(() => jmesPath('nosuch(items)', doc)).toThrow('jmespath: Unknown function: nosuch() in "nosuch(items)"');
    expect(() => checkJmesPath('items[?')).toThrow('jmespath: Invalid token (EOF): "" in "items[?"');
  });

  it('in CEL: jmespath(query, value), numbers as JSON numbers (doubles), as gomplate\'s binding', () => {
    expect(evaluateCel('t', "jmespath('items[?n > `1`].name', x)", { x: doc })).toEqual(['b', 'c']);
    expect(evaluateCel('t', "jmespath('length(items)', x) == 3.0", { x: doc })).toBe(true);
    expect(evaluateCel('t', "jmespath('meta.labels.app', '{\"meta\": {\"labels\": {\"app\": \"api\"}}}')", {})).toBe('api');
  });

  it('in templates: jmespath query value', () => {
    expect(renderTemplate('t', '{{ jmespath "items[?n > `1`].name" .doc }} {{ .doc | jmespath "meta.name" }} [{{ jmespath "nope" .doc }}]', { doc })).toBe('[b c] top []');
    expect(renderTemplate('t', '{{ jmespath "count" .text }}', { text: JSON.stringify(doc) })).toBe('2');
  });
});

describe('TOML in CEL (TOML(text), toTOML(map), as gomplate\'s CEL binding names them)', () => {
  it('reads a document (ints as ints, offset datetimes as timestamps) and writes a map', () => {
    expect(evaluateCel('t', "TOML('port = 8080\\n[owner]\\nname = \"ops\"').owner.name", {})).toBe('ops');
    expect(evaluateCel('t', "TOML('port = 8080').port + 1 == 8081", {})).toBe(true);
    expect(evaluateCel('t', "TOML('at = 2020-01-02T03:04:05Z').at == timestamp('2020-01-02T03:04:05Z')", {})).toBe(true);
    expect(evaluateCel('t', "toTOML({'name': 'api', 'owner': {'team': 'ops'}})", {})).toBe('name = "api"\n\n[owner]\nteam = "ops"\n');
    expect(() => evaluateCel('t', "TOML('a = ')", {})).toThrow(/Invalid TOML document/);
  });
});

