import { formatTime } from '../gotime';
import { asDuration, compareStrings, FuncError, GoStruct, isGoMap } from '../kinds';
import { formatFloat } from '../strconv';

/**
 * JSON as Go writes it (encoding/json): keys sorted, floats in Go's form (1e+21, 1e-7), time.Time as
 * RFC 3339, time.Duration as its nanoseconds. gomplate's toJSON leaves <, > and & as they are;
 * conv.ToString's JSON escapes them as encoding/json does by default.
 */
export interface JSONOptions {
  escapeHTML: boolean;
}

function jsonFloat(value: number): string {
  if (!Number.isFinite(value)) throw new FuncError(`json: unsupported value: ${formatFloat(value, 'g', -1)}`);
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) {
    return formatFloat(value, 'e', -1).replace(/e([+-])0(\d)$/, 'e$1$2');
  }
  return formatFloat(value, 'f', -1);
}

export function jsonString(text: string, escapeHTML: boolean): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20) out += `\\u00${code.toString(16).padStart(2, '0')}`;
    else if (escapeHTML && (char === '<' || char === '>' || char === '&')) out += `\\u00${code.toString(16)}`;
    else if (code === 0x2028 || code === 0x2029) out += `\\u${code.toString(16)}`;
    else if (code >= 0xd800 && code < 0xe000) out += '\ufffd';
    else out += char;
  }
  return `${out}"`;
}

function encode(value: unknown, options: JSONOptions, indent: string, depth: number): string {
  if (value === undefined || value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return jsonString(value, options.escapeHTML);
    case 'number':
      return jsonFloat(value);
    case 'bigint':
      return value.toString();
    case 'boolean':
      return String(value);
  }
  if (value instanceof Date) return jsonString(formatTime(value, '2006-01-02T15:04:05.999999999Z07:00'), options.escapeHTML);
  const duration = asDuration(value);
  if (duration) return duration.nanoseconds.toString();
  const open = indent ? `\n${indent.repeat(depth + 1)}` : '';
  const close = indent ? `\n${indent.repeat(depth)}` : '';
  const colon = indent ? ': ' : ':';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[${open}${value.map((item) => encode(item, options, indent, depth + 1)).join(`,${open}`)}${close}]`;
  }
  if (isGoMap(value)) {
    const keys = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort(compareStrings);
    if (keys.length === 0) return '{}';
    const entries = keys.map((key) => `${jsonString(key, options.escapeHTML)}${colon}${encode(value[key], options, indent, depth + 1)}`);
    return `{${open}${entries.join(`,${open}`)}${close}}`;
  }
  if (value instanceof GoStruct) return '{}';
  throw new FuncError(`json: unsupported type: ${String(value)}`);
}

/** The JSON of a value; `indent` gives json.Indent's layout (one level per nesting, "key": value). */
export function goJSON(value: unknown, options: JSONOptions, indent = ''): string {
  return encode(value, options, indent, 0);
}

/** JSON text to template values: numbers are float64, as encoding/json decodes them into interface{}. */
export function parseJSON(text: string): unknown {
  return JSON.parse(text);
}

