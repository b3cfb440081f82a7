/**
 * JSON lets a string carry a lone UTF-16 surrogate (`"\ud800"`), which no UTF-8 text can hold: PostgreSQL
 * refuses it in json and text alike. /api/db finds it before any statement, so the answer names the field
 * rather than quoting the database's JSON parser.
 */

/** The index of the first lone surrogate in `text`, or -1. */
function loneSurrogateAt(text: string): number {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        index += 1;
        continue;
      }
      return index;
    }
    if (code >= 0xdc00 && code <= 0xdfff) return index;
  }
  return -1;
}

function fieldPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  const plain = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : JSON.stringify(key);
  return parent === '' ? plain : `${parent}.${plain}`;
}

function escaped(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Why a parsed JSON body cannot be stored as text, naming the field (`name`, `spec.columns[0].name`,
 * `[1].name` in an array of rows), or undefined when every key and string is valid UTF-16.
 */
export function loneSurrogateProblem(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') {
    const at = loneSurrogateAt(value);
    if (at < 0) return undefined;
    return `${path || 'the body'} is not valid UTF-8: it contains a lone surrogate (${escaped(value.charCodeAt(at))} at character ${at + 1}), which no UTF-8 text can hold`;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const problem = loneSurrogateProblem(item, fieldPath(path, index));
      if (problem) return problem;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = loneSurrogateAt(key);
      if (at >= 0) return `a field name in ${path || 'the body'} is not valid UTF-8: it contains a lone surrogate (${escaped(key.charCodeAt(at))}), which no UTF-8 text can hold`;
      const problem = loneSurrogateProblem(item, fieldPath(path, key));
      if (problem) return problem;
    }
  }
  return undefined;
}
