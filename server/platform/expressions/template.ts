import { Duration } from '@marcbachmann/cel-js/evaluator';
import { isRecord } from '../errors';
import { formatDuration } from '../units';
import { ExpressionError } from './errors';

function lookup(variables: Record<string, unknown>, path: string[]): unknown {
  let current: unknown = variables;
  for (const part of path) {
    if (isRecord(current) && Object.hasOwn(current, part)) current = current[part];
    else if (Array.isArray(current) && /^\d+$/.test(part)) current = current[Number(part)];
    else return undefined;
  }
  return current;
}

function show(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (value instanceof Duration) return formatDuration(value.valueOf());
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

const ACTION = /\{\{-?\s*(.*?)\s*-?\}\}/g;

/**
 * `display.template` and friends: the `{{.field}}` / `{{ .a.b }}` substitutions of Go templates. Other
 * template actions (pipelines, functions, range) are refused with the action named, never printed raw.
 */
export function renderTemplate(where: string, template: string, variables: Record<string, unknown>): string {
  return template.replace(ACTION, (_match, action: string) => {
    if (action === '.') return show(variables);
    if (!/^\.[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/.test(action)) {
      throw new ExpressionError(where, template, `{{${action}}} is not supported: only {{.field}} and {{.field.sub}} are (use display.expr for more)`);
    }
    return show(lookup(variables, action.slice(1).split('.')));
  });
}
