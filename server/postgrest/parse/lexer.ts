import type { Field, JsonStep } from '../ast';

/** Limits that keep hostile query strings from building huge or deeply nested SQL. */
export const MAX_DEPTH = 8;
export const MAX_ITEMS = 200;

/**
 * Splits `text` at `separator` outside double quotes, parentheses and braces. Returns undefined when
 * the brackets or quotes do not balance.
 */
export function splitTopLevel(text: string, separator = ','): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '\\') i += 1;
      else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === '(' || ch === '{') depth += 1;
    else if (ch === ')' || ch === '}') {
      depth -= 1;
      if (depth < 0) return undefined;
    } else if (ch === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0 || quoted) return undefined;
  parts.push(text.slice(start));
  return parts;
}

/** `"a,b"` → `a,b` with backslash escapes resolved; anything else unchanged. */
export function unquote(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    return text.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return text;
}

/** `data->a->>b` → `{name: 'data', path: [->a, ->>b]}`; undefined when a part is empty. */
export function parseField(text: string): Field | undefined {
  const parts = text.split(/(->>|->)/);
  const name = (parts[0] ?? '').trim();
  if (name === '' || /[(),"]/.test(name)) return undefined;
  const path: JsonStep[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const arrow = parts[i];
    const key = parts[i + 1] ?? '';
    if ((arrow !== '->' && arrow !== '->>') || key === '') return undefined;
    path.push({ arrow, key: unquote(key) });
  }
  return { name, path };
}

/** The key a JSON path yields in the output when no alias is given (PostgREST: the last key). */
export function defaultKey(field: Field): string {
  const last = field.path[field.path.length - 1];
  return last ? last.key : field.name;
}

/** Non-negative integer query values (limit, offset); undefined when not one. */
export function parseCount(text: string): number | undefined {
  if (!/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}
