import { isRecord } from '../errors';
import { checkCel, evaluateCel } from './cel';
import { ExpressionError } from './errors';
import { checkJavascript, evaluateJavascript } from './javascript';
import { compileTemplate, renderTemplate } from './template';
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
 * Compiles every part of a template without running it, for apply: the problems, each an ExpressionError
 * naming `${where}.expr` (or .template, .javascript), the text and, where the engine knows it, the position.
 * Each part is checked, not only the one that runs: a part that does not compile is a mistake either way.
 */
export function checkTemplateSpec(where: string, spec: TemplateSpec): ExpressionError[] {
  const problems: ExpressionError[] = [];
  const attempt = (work: () => void) => {
    try {
      work();
    } catch (error) {
      if (error instanceof ExpressionError) problems.push(error);
      else throw error;
    }
  };
  if (spec.expr !== undefined) attempt(() => checkCel(`${where}.expr`, spec.expr ?? ''));
  if (spec.template !== undefined) attempt(() => compileTemplate(`${where}.template`, spec.template ?? ''));
  if (spec.javascript !== undefined) attempt(() => checkJavascript(`${where}.javascript`, spec.javascript ?? ''));
  return problems;
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
