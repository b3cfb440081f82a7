/**
 * A reader of the Prometheus text exposition format (0.0.4), as prom2json reads it: metric families with
 * their HELP and TYPE, each sample with its labels and value. Histogram and summary samples (`_bucket`,
 * `_sum`, `_count`) belong to the family they were declared under. Used by tests to scrape /metrics as a
 * Prometheus server would, instead of searching the text.
 */
export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface PromFamily {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  samples: PromSample[];
}

const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES = ['_bucket', '_sum', '_count', '_total', '_created'];

function unescape(text: string): string {
  return text.replace(/\\(.)/g, (_match, char: string) => (char === 'n' ? '\n' : char));
}

function parseValue(text: string, line: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  const value = Number(text);
  if (text === '' || Number.isNaN(value)) throw new Error(`not a sample value: ${JSON.stringify(text)} in ${JSON.stringify(line)}`);
  return value;
}

/** Labels `{a="x",b="y\"z"}` starting at `text[0] === '{'`; answers the labels and the rest of the line. */
function parseLabels(text: string, line: string): { labels: Record<string, string>; rest: string } {
  const labels: Record<string, string> = {};
  let at = 1;
  for (;;) {
    while (text[at] === ' ' || text[at] === ',') at += 1;
    if (text[at] === '}') return { labels, rest: text.slice(at + 1) };
    const name = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(text.slice(at))?.[0];
    if (!name || text[at + name.length] !== '=' || text[at + name.length + 1] !== '"') throw new Error(`bad label in ${JSON.stringify(line)}`);
    at += name.length + 2;
    let value = '';
    while (at < text.length && text[at] !== '"') {
      if (text[at] === '\\') {
        value += text.slice(at, at + 2);
        at += 2;
      } else {
        value += text[at];
        at += 1;
      }
    }
    if (at >= text.length) throw new Error(`unterminated label value in ${JSON.stringify(line)}`);
    labels[name] = unescape(value);
    at += 1;
  }
}

/** Parses a whole exposition; throws on a line the format does not allow. */
export function parsePrometheusText(text: string): Map<string, PromFamily> {
  const families = new Map<string, PromFamily>();
  const family = (name: string): PromFamily => {
    let found = families.get(name);
    if (!found) {
      found = { name, help: '', type: 'untyped', samples: [] };
      families.set(name, found);
    }
    return found;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const [, keyword, name, ...rest] = line.split(' ');
      if (keyword === 'HELP' && name) family(name).help = unescape(rest.join(' '));
      if (keyword === 'TYPE' && name) {
        const type = rest[0] ?? '';
        if (!TYPES.has(type)) throw new Error(`unknown metric type in ${JSON.stringify(line)}`);
        family(name).type = type as PromFamily['type'];
      }
      continue;
    }
    const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0];
    if (!name) throw new Error(`not a sample: ${JSON.stringify(line)}`);
    let rest = line.slice(name.length);
    let labels: Record<string, string> = {};
    if (rest.startsWith('{')) ({ labels, rest } = parseLabels(rest, line));
    const [value = ''] = rest.trim().split(/\s+/);
    const base = SUFFIXES.map((suffix) => (name.endsWith(suffix) ? name.slice(0, -suffix.length) : undefined)).find((candidate) => candidate && families.has(candidate));
    family(base ?? name).samples.push({ name, labels, value: parseValue(value, line) });
  }
  return families;
}
