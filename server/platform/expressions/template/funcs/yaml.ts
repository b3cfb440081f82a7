import { Document, parse as parseYAMLText, Scalar, type ScalarTag, visit } from 'yaml';
import { formatTime } from '../gotime';
import { asDuration, FuncError, GoStruct, isGoMap } from '../kinds';
import { formatFloat } from '../strconv';

/**
 * YAML as gomplate reads and writes it (a fork of gopkg.in/yaml.v3): decoded integers are Go ints
 * (bigint), floats float64; toYAML sorts keys, indents by 2, writes floats with %g (1e+06), quotes
 * strings that would read back as something else ("true", "1", "yes") with double quotes and the rest
 * that need quoting with single quotes.
 */

/** Strings YAML 1.1 would read as a bool, null or number: yaml.v3 double-quotes them. */
const nonString = /^(?:true|false|yes|no|on|off|y|n|null|~|[-+]?(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][-+]?\d+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|0x[0-9a-fA-F_]+|0o?[0-7_]+|0b[01_]+|[-+]?\d[\d_]*(?::[0-5]?\d)+(?:\.[\d_]*)?)$/i;

/** A float64 spelled as Go's yaml encoder spells it; a custom tag writes the text as it is. */
class GoFloat {
  constructor(readonly text: string) {}
}

const goFloatTag: ScalarTag = {
  identify: (value) => value instanceof GoFloat,
  default: true,
  tag: 'tag:yaml.org,2002:float',
  resolve: (text) => Number(text),
  stringify: (item) => (item.value instanceof GoFloat ? item.value.text : String(item.value)),
};

function toPlain(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'bigint':
      return value;
    case 'number':
      return new GoFloat(Number.isNaN(value) ? '.nan' : value === Infinity ? '.inf' : value === -Infinity ? '-.inf' : formatFloat(value, 'g', -1));
  }
  if (value instanceof Date) return formatTime(value, '2006-01-02T15:04:05.999999999Z07:00');
  const duration = asDuration(value);
  if (duration) return duration.toString();
  if (Array.isArray(value)) return value.map(toPlain);
  if (isGoMap(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = toPlain(item);
    return out;
  }
  if (value instanceof GoStruct) return {};
  throw new FuncError(`cannot marshal type: ${String(value)}`);
}

export function goYAML(value: unknown): string {
  const document = new Document(toPlain(value), { sortMapEntries: true, customTags: [goFloatTag] });
  visit(document, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string') return;
      if (node.value.includes('\n')) node.type = Scalar.BLOCK_LITERAL;
      else if (node.value === '' || nonString.test(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return document.toString({ indent: 2, singleQuote: true, lineWidth: 0 });
}

/** Plain values from YAML text; integers are bigint (Go int), as yaml.v3 decodes them. */
export function parseYAML(text: string): unknown {
  try {
    return normalize(parseYAMLText(text, { intAsBigInt: true, schema: 'core', uniqueKeys: false }));
  } catch (error) {
    throw new FuncError(error instanceof Error ? error.message.split('\n')[0] ?? 'invalid YAML' : 'invalid YAML');
  }
}

function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (isGoMap(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = normalize(item);
    return out;
  }
  return value === undefined ? null : value;
}

