import { printV } from '../fmt';
import { timeString } from '../gotime';
import { asDuration, floatToInt, isGoMap, Kind, kindOf } from '../kinds';
import { parseGoFloat, parseGoInt } from '../strconv';
import { goJSON } from './json';

/**
 * gomplate's conv package (flanksource/gomplate conv/conv.go): the lenient conversions its functions
 * apply to their arguments. They never fail: what cannot convert becomes 0, "" or false.
 */

/** conv.ToString: nil is "nil", maps are JSON, Stringers their String(), the rest as fmt.Sprint. */
export function toString(value: unknown): string {
  if (value === undefined || value === null) return 'nil';
  if (typeof value === 'string') return value;
  if (value instanceof Date) return timeString(value);
  const duration = asDuration(value);
  if (duration) return duration.toString();
  if (isGoMap(value)) return goJSON(value, { escapeHTML: true });
  return printV(value);
}

/** strconv.ParseFloat's reading of a string, with Inf and NaN; undefined when it is not a number. */
function parseFloatText(text: string): number | undefined {
  const lower = text.toLowerCase().replace(/^[+]/, '');
  if (lower === 'inf' || lower === 'infinity') return text.startsWith('-') ? -Infinity : Infinity;
  if (lower === '-inf' || lower === '-infinity') return -Infinity;
  if (lower === 'nan') return Number.NaN;
  return parseGoFloat(text);
}

function stringToInt64(text: string): bigint {
  const clean = text.includes(',') ? text.replaceAll(',', '') : text;
  const int = parseGoInt(clean);
  if (int !== undefined) return int;
  const float = parseFloatText(clean);
  return float === undefined ? 0n : floatToInt(float);
}

function stringToFloat64(text: string): number {
  const clean = text.includes(',') ? text.replaceAll(',', '') : text;
  const int = parseGoInt(clean);
  if (int !== undefined) return Number(int);
  return parseFloatText(clean) ?? 0;
}

/** conv.ToInt64 (and ToInt: int is 64 bits where gomplate runs). */
export function toInt64(value: unknown): bigint {
  switch (kindOf(value)) {
    case Kind.String:
      return typeof value === 'string' ? stringToInt64(value) : 0n;
    case Kind.Int:
      return typeof value === 'bigint' ? value : 0n;
    case Kind.Duration:
      return asDuration(value)?.nanoseconds ?? 0n;
    case Kind.Float:
      return typeof value === 'number' ? floatToInt(value) : 0n;
    case Kind.Bool:
      return value === true ? 1n : 0n;
    default:
      return 0n;
  }
}

export function toFloat64(value: unknown): number {
  switch (kindOf(value)) {
    case Kind.String:
      return typeof value === 'string' ? stringToFloat64(value) : 0;
    case Kind.Int:
      return typeof value === 'bigint' ? Number(value) : 0;
    case Kind.Duration:
      return Number(asDuration(value)?.nanoseconds ?? 0n);
    case Kind.Float:
      return typeof value === 'number' ? value : 0;
    case Kind.Bool:
      return value === true ? 1 : 0;
    default:
      return 0;
  }
}

/** conv.ToBool: true, 1, and the strings 1, t, true, yes (any case, or a number equal to 1). */
export function toBool(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const lower = value.toLowerCase();
    if (lower === '1' || lower === 't' || lower === 'true' || lower === 'yes') return true;
    return stringToFloat64(lower) === 1;
  }
  if (typeof value === 'bigint') return value === 1n;
  if (typeof value === 'number') return value === 1;
  const duration = asDuration(value);
  return duration ? duration.nanoseconds === 1n : false;
}

/** strconv.ParseBool. */
export function parseBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}

/** A list from a slice value (gomplate's InterfaceSlice); undefined when it is not one. */
export function asList(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

