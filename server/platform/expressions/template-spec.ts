import { isRecord } from '../errors';
import { evaluateCel } from './cel';
import { evaluateJavascript } from './javascript';
import { renderTemplate } from './template';
import { GoDuration } from './values';

/**
 * canary-checker's and Mission Control's `Template` ({expr, template, javascript, jsonPath}): a test,
 * display or transform. One of them is run, picked as gomplate picks: javascript, then the Go template,
 * then CEL. (gomplate reads jsonPath but never runs it; apply warns about it.)
 */
export interface TemplateSpec {
  expr?: string | undefined;
  template?: string | undefined;
  javascript?: string | undefined;
}

export function readTemplateSpec(value: unknown): TemplateSpec | undefined {
  if (!isRecord(value)) return undefined;
  const text = (key: string) => (typeof value[key] === 'string' && value[key].trim() !== '' ? value[key] : undefined);
  const spec: TemplateSpec = { expr: text('expr'), template: text('template'), javascript: text('javascript') };
  return spec.expr ?? spec.template ?? spec.javascript ? spec : undefined;
}

/**
 * The template's answer as a value: CEL's value as is (a map, a list, a number…), the text of a Go
 * template (trimmed, as gomplate trims it) or of a script.
 */
export function evaluateTemplateSpec(where: string, spec: TemplateSpec, variables: Record<string, unknown>): unknown {
  if (spec.javascript !== undefined) return evaluateJavascript(`${where}.javascript`, spec.javascript, variables);
  if (spec.template !== undefined) return renderTemplate(`${where}.template`, spec.template, variables).trim();
  if (spec.expr !== undefined) return evaluateCel(`${where}.expr`, spec.expr, variables);
  return '';
}

/** The template's answer as text, as gomplate gives it (`fmt.Sprintf("%v")` of a CEL value). */
export function templateSpecText(where: string, spec: TemplateSpec, variables: Record<string, unknown>): string {
  return goText(evaluateTemplateSpec(where, spec, variables));
}

/** Go's %v of a value decoded from JSON or answered by CEL: maps as map[k:v] with sorted keys, lists as [a b]. */
export function goText(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof GoDuration) return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return `[${value.map(goText).join(' ')}]`;
  if (isRecord(value)) {
    return `map[${Object.keys(value)
      .sort()
      .map((key) => `${key}:${goText(value[key])}`)
      .join(' ')}]`;
  }
  return String(value);
}
