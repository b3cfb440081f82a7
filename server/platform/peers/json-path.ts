import { isRecord } from '../errors';

/**
 * The steps of a simple JSONPath: `$.status`, `status.ok`, `$.items[0].name`, `$['a key']`. Filters,
 * wildcards and slices are not supported (a CEL `test.expr` over `json` does those). Undefined when the
 * path is not of that form.
 */
export function parseJsonPath(path: string): Array<string | number> | undefined {
  let rest = path.trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  const steps: Array<string | number> = [];
  const step = /^(?:\.?([A-Za-z_$@-][\w$@-]*)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]|\.(\d+))/;
  while (rest !== '') {
    const match = step.exec(rest);
    if (!match) return undefined;
    if (match[1] !== undefined) steps.push(match[1]);
    else if (match[2] !== undefined) steps.push(Number(match[2]));
    else if (match[5] !== undefined) steps.push(Number(match[5]));
    else steps.push(match[3] ?? match[4] ?? '');
    rest = rest.slice(match[0].length);
  }
  return steps;
}

/** The value at a path, or undefined when any step is missing. */
export function valueAt(document: unknown, steps: ReadonlyArray<string | number>): unknown {
  let current = document;
  for (const step of steps) {
    if (typeof step === 'number' && Array.isArray(current)) current = current[step];
    else if (isRecord(current) && Object.hasOwn(current, String(step))) current = current[String(step)];
    else return undefined;
  }
  return current;
}

/** A JSON value as text for comparing with an expected value written in YAML. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
