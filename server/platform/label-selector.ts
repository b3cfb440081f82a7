/**
 * Kubernetes label selectors as Mission Control's resource selectors write them (`labelSelector`,
 * `tagSelector`): used by incident rules (as SQL) and by permission selectors (in memory).
 */

/** One requirement of a Kubernetes label selector (`app=web`, `tier!=db`, `env in (a,b)`, `gpu`, `!legacy`). */
export interface Requirement {
  key: string;
  op: 'in' | 'notin' | 'exists' | '!exists';
  values: string[];
}

/** Splits on commas that are not inside parentheses. */
function splitTop(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

const KEY = /^[A-Za-z0-9]([A-Za-z0-9._/-]*[A-Za-z0-9])?$/;

/** A label selector's requirements, or undefined when the text is not one. */
export function parseLabelSelector(text: string): Requirement[] | undefined {
  const out: Requirement[] = [];
  for (const part of splitTop(text)) {
    const set = /^(\S+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(part);
    if (set) {
      const [, key = '', op, values = ''] = set;
      if (!KEY.test(key)) return undefined;
      out.push({ key, op: op === 'in' ? 'in' : 'notin', values: values.split(',').map((value) => value.trim()).filter((value) => value !== '') });
      continue;
    }
    const pair = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(part);
    if (pair) {
      const [, key = '', op, value = ''] = pair;
      if (!KEY.test(key)) return undefined;
      out.push({ key, op: op === '!=' ? 'notin' : 'in', values: [value] });
      continue;
    }
    const exists = /^(!?)\s*(\S+)$/.exec(part);
    if (!exists || !KEY.test(exists[2] ?? '')) return undefined;
    out.push({ key: exists[2] ?? '', op: exists[1] === '!' ? '!exists' : 'exists', values: [] });
  }
  return out;
}

/** Whether a set of labels meets every requirement. */
export function labelsMatch(requirements: readonly Requirement[], labels: Readonly<Record<string, string>>): boolean {
  return requirements.every((requirement) => {
    const value = Object.hasOwn(labels, requirement.key) ? labels[requirement.key] : undefined;
    switch (requirement.op) {
      case 'exists':
        return value !== undefined;
      case '!exists':
        return value === undefined;
      case 'in':
        return value !== undefined && requirement.values.includes(value);
      case 'notin':
        return value === undefined || !requirement.values.includes(value);
    }
  });
}
