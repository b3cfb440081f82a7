import { isRecord } from '../errors';
import { ExpressionError } from './errors';

/**
 * `$(…)` interpolation as canary-checker (through duty's struct templater) fills the fields it templates,
 * e.g. `url: $(.url)` or `url: https://$(.user):$(.pass)@host/path`. Each `$(…)` is a Go template action
 * whose delimiters are `$(` and `)`; the values are also callable by name, so `$(url)` equals `$(.url)`
 * and `$(outputs.check.json.id)` walks into a value. What is supported of that language:
 *
 * - `$(.name)`, `$(name)`, `$(.name.field.sub)`, `$(name.field)`, and `$(.)` (every value, as Go prints a map);
 * - string literals, the Go way of writing the delimiters themselves: `$("$(")` gives `$(`, `` $(`a)b`) `` gives `a)b`;
 * - trim markers: `$(- .x -)` removes the white space before and after, as in Go templates.
 *
 * Anything else (pipelines, functions) is refused with the action named. A name that is not a variable is
 * an error too: canary-checker would print `<no value>` for `$(.name)` (and fail for `$(name)`), which only
 * ever produces a broken URL or body; here the message says which name is missing.
 */
export function interpolate(where: string, text: string, variables: Readonly<Record<string, unknown>>): string {
  if (!text.includes('$(')) return text;
  let output = '';
  let rest = text;
  for (;;) {
    const start = rest.indexOf('$(');
    if (start < 0) return output + rest;
    output += rest.slice(0, start);
    const end = interpolationEnd(rest, start + 2);
    if (end < 0) throw new ExpressionError(where, text, `unclosed action: a "$(" without its ")"`);
    let action = rest.slice(start + 2, end);
    rest = rest.slice(end + 1);
    // Go's trim markers: "- " after the left delimiter, " -" before the right one.
    if (/^-\s/.test(action)) {
      output = output.trimEnd();
      action = action.slice(1);
    }
    if (/\s-$/.test(action)) {
      rest = rest.trimStart();
      action = action.slice(0, -1);
    }
    output += evaluate(where, text, action.trim(), variables);
  }
}

/** The index of the `)` closing a `$(` action that starts at `from`; quoted strings may hold a `)`. -1 when unclosed. */
export function interpolationEnd(text: string, from: number): number {
  let quote: string | undefined;
  for (let index = from; index < text.length; index++) {
    const char = text[index];
    if (quote) {
      if (char === '\\' && quote === '"') index++;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === '`') {
      quote = char;
    } else if (char === ')') {
      return index;
    }
  }
  return -1;
}

const PATH = /^(\.?)([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)$/;

function evaluate(where: string, text: string, action: string, variables: Readonly<Record<string, unknown>>): string {
  if (action === '.') return printed(variables);
  if (action.startsWith('`') && action.endsWith('`') && action.length >= 2 && !action.slice(1, -1).includes('`')) return action.slice(1, -1);
  if (action.startsWith('"') && action.endsWith('"') && action.length >= 2) {
    try {
      const literal: unknown = JSON.parse(action);
      if (typeof literal === 'string') return literal;
    } catch {
      // falls through to the refusal below
    }
    throw new ExpressionError(where, text, `$(${action}) is not a valid string literal`);
  }
  const match = PATH.exec(action);
  if (!match) {
    throw new ExpressionError(where, text, `$(${action}) is not supported: only $(.name), $(name), $(.name.field) and string literals are`);
  }
  const [, dot = '', first = '', tail = ''] = match;
  if (!Object.hasOwn(variables, first)) {
    const known = Object.keys(variables).sort();
    throw new ExpressionError(where, text, `$(${dot}${first}${tail}): there is no variable named "${first}"${known.length ? ` (there are: ${known.join(', ')})` : ''}`);
  }
  let value: unknown = variables[first];
  let walked = first;
  for (const field of tail.split('.').slice(1)) {
    if (!isRecord(value) || !Object.hasOwn(value, field)) {
      throw new ExpressionError(where, text, `$(${dot}${first}${tail}): ${walked} has no field "${field}"`);
    }
    value = value[field];
    walked += `.${field}`;
  }
  return printed(value);
}

/** A value as Go's template engine prints it (fmt's %v): maps as map[key:value …] with sorted keys. */
function printed(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return `[${value.map(printed).join(' ')}]`;
  if (isRecord(value)) {
    return `map[${Object.keys(value)
      .sort()
      .map((key) => `${key}:${printed(value[key])}`)
      .join(' ')}]`;
  }
  return String(value);
}
