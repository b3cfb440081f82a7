import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { isRecord } from '../../errors';
import { jmesPath } from '../shared/jmespath';
import { readToml, writeToml } from '../shared/toml';
import { jqQuery } from './jq';
import { jsonPath } from './jsonpath';
import { durationNanos, entriesOf, fail, isMap, listOf, toStr, typeName, type Registrar } from './support';

/** Go's time.RFC3339Nano: trailing zeros of the fraction dropped. */
export function rfc3339(date: Date): string {
  return date
    .toISOString()
    .replace(/\.000Z$/, 'Z')
    .replace(/\.(\d*[1-9])0+Z$/, '.$1Z');
}

/**
 * A CEL value as plain data, as Go's encoders see it: ints stay bigint (exact), maps become objects,
 * timestamps RFC 3339 text, durations nanoseconds, bytes base64.
 */
export function toData(value: unknown, depth = 0): unknown {
  if (depth > 100) return fail('value is nested too deeply');
  if (value === undefined) return null;
  if (value instanceof UnsignedInt) return value.valueOf();
  if (value instanceof Date) return rfc3339(value);
  if (value instanceof Duration) return durationNanos(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map((item) => toData(item, depth + 1));
  if (value instanceof Map) return Object.fromEntries([...value.entries()].map(([k, v]) => [toStr(k), toData(v, depth + 1)]));
  if (isRecord(value)) {
    const toJSON = value.toJSON;
    if (typeof toJSON === 'function' && Object.getPrototypeOf(value) !== Object.prototype) return toData(Reflect.apply(toJSON, value, []), depth + 1);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toData(v, depth + 1)]));
  }
  return value;
}

/** JSON as Go's encoding/json writes it: map keys sorted, ints exact; with `indent`, as MarshalIndent. */
export function goJSON(value: unknown, indent?: string): string {
  return encode(toData(value), indent, '');
}

function encode(value: unknown, indent: string | undefined, prefix: string): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return fail(`toJSON: unsupported value ${value}`);
    return JSON.stringify(value);
  }
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  const inner = indent === undefined ? '' : prefix + indent;
  const open = indent === undefined ? '' : `\n${inner}`;
  const close = indent === undefined ? '' : `\n${prefix}`;
  const colon = indent === undefined ? ':' : ': ';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[${open}${value.map((item) => encode(item, indent, inner)).join(`,${open}`)}${close}]`;
  }
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    if (keys.length === 0) return '{}';
    return `{${open}${keys.map((key) => `${JSON.stringify(key)}${colon}${encode(value[key], indent, inner)}`).join(`,${open}`)}${close}}`;
  }
  return JSON.stringify(String(value));
}

/**
 * JSON text to CEL values as gomplate decodes it (a YAML decoder, so whole numbers are ints and the rest
 * doubles). A small parser of our own: JSON.parse cannot tell 2 from 2.0.
 */
export function parseJSON(text: string, fn = 'JSON'): unknown {
  let pos = 0;
  const ws = () => {
    while (pos < text.length && ' \t\n\r'.includes(text[pos] ?? '')) pos++;
  };
  const error = (what: string): never => fail(`${fn}: invalid JSON at offset ${pos}: ${what}`);
  const value = (depth: number): unknown => {
    if (depth > 200) error('nested too deeply');
    ws();
    const ch = text[pos];
    if (ch === '{') {
      pos++;
      const out: Record<string, unknown> = {};
      ws();
      if (text[pos] === '}') return pos++, out;
      for (;;) {
        ws();
        if (text[pos] !== '"') error('expected a key');
        const key = string();
        ws();
        if (text[pos] !== ':') error("expected ':'");
        pos++;
        out[key] = value(depth + 1);
        ws();
        if (text[pos] === ',') pos++;
        else if (text[pos] === '}') return pos++, out;
        else error("expected ',' or '}'");
      }
    }
    if (ch === '[') {
      pos++;
      const out: unknown[] = [];
      ws();
      if (text[pos] === ']') return pos++, out;
      for (;;) {
        out.push(value(depth + 1));
        ws();
        if (text[pos] === ',') pos++;
        else if (text[pos] === ']') return pos++, out;
        else error("expected ',' or ']'");
      }
    }
    if (ch === '"') return string();
    if (text.startsWith('true', pos)) return (pos += 4), true;
    if (text.startsWith('false', pos)) return (pos += 5), false;
    if (text.startsWith('null', pos)) return (pos += 4), null;
    const number = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
    number.lastIndex = pos;
    const match = number.exec(text);
    if (!match) return error(`unexpected ${ch === undefined ? 'end of input' : `'${ch}'`}`);
    pos = number.lastIndex;
    if (match[1] === undefined && match[2] === undefined) {
      const big = BigInt(match[0]);
      if (big <= 9223372036854775807n && big >= -9223372036854775808n) return big;
    }
    return Number(match[0]);
  };
  const string = (): string => {
    const start = pos;
    pos++;
    while (pos < text.length && text[pos] !== '"') pos += text[pos] === '\\' ? 2 : 1;
    if (pos >= text.length) error('unterminated string');
    pos++;
    return String(JSON.parse(text.slice(start, pos)));
  };
  const result = value(0);
  ws();
  if (pos < text.length) error('unexpected text after the value');
  return result;
}

/** YAML text to CEL values (ints as ints). */
export function parseYAML(text: string, fn = 'YAML'): unknown {
  try {
    return parseYaml(text, { intAsBigInt: true, uniqueKeys: false }) ?? null;
  } catch (error) {
    return fail(`${fn}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
}

/** YAML as gomplate's toYAML writes it: keys sorted, block style. */
export function goYAML(value: unknown): string {
  return stringifyYaml(toData(value), { sortMapEntries: true, lineWidth: 0 });
}

function asText(value: unknown): string {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  return toStr(value);
}

function jsonObject(value: unknown, fn: string): unknown {
  const parsed = parseJSON(asText(value), fn);
  if (!isRecord(parsed)) return fail(`${fn}: the JSON is not an object (use .JSONArray() for a list)`);
  return parsed;
}

function jsonArray(value: unknown, fn: string): unknown {
  const parsed = parseJSON(asText(value), fn);
  if (!Array.isArray(parsed)) return fail(`${fn}: the JSON is not an array`);
  return parsed;
}

function sortedEntries(value: unknown, fn: string): Array<[unknown, unknown]> {
  return entriesOf(value, fn).sort(([a], [b]) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
}

function toMap(value: unknown, fn: string): Map<unknown, unknown> | Record<string, unknown> {
  if (!isMap(value)) return fail(`${fn}: expected a map, got ${typeName(value)}`);
  return value;
}

/** Key/value text: `a=b,c=d` (gomplate's keyValToMap). */
function keyValToMap(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const at = part.indexOf('=');
    if (at < 0) return fail(`keyValToMap: "${part}" is not key=value`);
    out[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return out;
}

export function registerJson(r: Registrar): void {
  const toJSON = (value: unknown) => goJSON(value);
  r.method('dyn', 'toJSON', 0, toJSON, 'string');
  r.fn('toJSON', 1, toJSON, 'string');
  r.fn('data.ToJSON', 1, toJSON, 'string');
  const pretty = (value: unknown, indent: unknown) => goJSON(value, toStr(indent));
  r.method('dyn', 'toJSONPretty', 1, pretty, 'string');
  r.fn('toJSONPretty', 2, (indent: unknown, value: unknown) => pretty(value, indent), 'string');
  r.fn('data.ToJSONPretty', 2, (indent: unknown, value: unknown) => pretty(value, indent), 'string');

  r.method('dyn', 'JSON', 0, (value: unknown) => jsonObject(value, '.JSON()'));
  r.fn('JSON', 1, (value: unknown) => jsonObject(value, 'JSON'));
  r.fn('data.JSON', 1, (value: unknown) => jsonObject(value, 'data.JSON'));
  r.method('dyn', 'JSONArray', 0, (value: unknown) => jsonArray(value, '.JSONArray()'), 'list');
  r.fn('JSONArray', 1, (value: unknown) => jsonArray(value, 'JSONArray'), 'list');
  r.fn('data.JSONArray', 1, (value: unknown) => jsonArray(value, 'data.JSONArray'), 'list');

  const toYAML = (value: unknown) => goYAML(value);
  r.method('dyn', 'toYAML', 0, toYAML, 'string');
  r.fn('toYAML', 1, toYAML, 'string');
  r.fn('data.ToYAML', 1, toYAML, 'string');
  const yamlMap = (value: unknown, fn: string) => {
    const parsed = parseYAML(asText(value), fn);
    if (!isRecord(parsed) && parsed !== null) return fail(`${fn}: the YAML is not a map (use YAMLArray for a list)`);
    return parsed ?? {};
  };
  const yamlList = (value: unknown, fn: string) => {
    const parsed = parseYAML(asText(value), fn);
    if (!Array.isArray(parsed) && parsed !== null) return fail(`${fn}: the YAML is not a list`);
    return parsed ?? [];
  };
  r.method('dyn', 'YAML', 0, (value: unknown) => yamlMap(value, '.YAML()'));
  r.fn('YAML', 1, (value: unknown) => yamlMap(value, 'YAML'));
  r.fn('data.YAML', 1, (value: unknown) => yamlMap(value, 'data.YAML'));
  r.method('dyn', 'YAMLArray', 0, (value: unknown) => yamlList(value, '.YAMLArray()'), 'list');
  r.fn('YAMLArray', 1, (value: unknown) => yamlList(value, 'YAMLArray'), 'list');
  r.fn('data.YAMLArray', 1, (value: unknown) => yamlList(value, 'data.YAMLArray'), 'list');

  // Maps (gomplate's coll functions as methods, and cel-go's map helpers).
  r.method('map', 'keys', 0, (map: unknown) => sortedEntries(map, '.keys()').map(([key]) => key), 'list');
  r.method('map', 'values', 0, (map: unknown) => sortedEntries(map, '.values()').map(([, value]) => value), 'list');
  r.fn('keys', 1, (map: unknown) => sortedEntries(map, 'keys').map(([key]) => key), 'list');
  r.fn('values', 1, (map: unknown) => sortedEntries(map, 'values').map(([, value]) => value), 'list');
  r.method('map', 'merge', 1, (left: unknown, right: unknown) => ({
    ...Object.fromEntries(entriesOf(toMap(left, '.merge()'), '.merge()')),
    ...Object.fromEntries(entriesOf(toMap(right, '.merge()'), '.merge()')),
  }), 'map');
  const pick = (map: unknown, keys: unknown, fn: string) => {
    const wanted = new Set(listOf(keys, fn).map(toStr));
    return Object.fromEntries(entriesOf(map, fn).filter(([key]) => wanted.has(toStr(key))));
  };
  const omit = (map: unknown, keys: unknown, fn: string) => {
    const unwanted = new Set(listOf(keys, fn).map(toStr));
    return Object.fromEntries(entriesOf(map, fn).filter(([key]) => !unwanted.has(toStr(key))));
  };
  r.method('map', 'pick', 1, (map: unknown, keys: unknown) => pick(map, keys, '.pick()'), 'map');
  r.method('map', 'omit', 1, (map: unknown, keys: unknown) => omit(map, keys, '.omit()'), 'map');
  r.fn('Dict', 1, (list: unknown) => {
    const items = listOf(list, 'Dict');
    if (items.length % 2 !== 0) return fail('Dict: expected an even number of items (key, value, …)');
    const out: Record<string, unknown> = {};
    for (let i = 0; i < items.length; i += 2) out[toStr(items[i])] = items[i + 1];
    return out;
  }, 'map');
  r.fn('Has', 2, (collection: unknown, key: unknown) => {
    if (Array.isArray(collection)) return collection.some((item) => toStr(item) === toStr(key));
    if (isMap(collection)) return entriesOf(collection, 'Has').some(([k]) => toStr(k) === toStr(key));
    return false;
  }, 'bool');
  r.fn('keyValToMap', 1, (text: unknown) => keyValToMap(toStr(text)), 'map');
  r.fn('mapToKeyVal', 1, (map: unknown) => sortedEntries(map, 'mapToKeyVal').map(([k, v]) => `${toStr(k)}=${toStr(v)}`).join(','), 'string');

  // Queries over data.
  r.fn('jq', 2, (query: unknown, value: unknown) => {
    const input = typeof value === 'string' || value instanceof Uint8Array ? parseJSON(asText(value), 'jq') : value;
    return jqQuery(toStr(query), input);
  });
  r.fn('jsonpath', 2, (path: unknown, value: unknown) => {
    const input = typeof value === 'string' || value instanceof Uint8Array ? parseJSON(asText(value), 'jsonpath') : value;
    return jsonPath(toStr(path), input);
  });
  // gomplate's data.TOML / data.ToTOML as its CEL binding names them.
  r.fn('TOML', 1, (text: unknown) => readToml(asText(text)), 'map');
  r.fn('toTOML', 1, (value: unknown) => writeToml(toData(value)), 'string');
  // gomplate's coll.JMESPath: a text value holding a JSON object is that object; null is "".
  r.fn('jmespath', 2, (query: unknown, value: unknown) => jmesPath(toStr(query), value instanceof Uint8Array ? asText(value) : value));
}
