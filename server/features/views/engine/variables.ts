import { createHash } from 'node:crypto';
import type pg from 'pg';
import { isRecord } from '../../../platform/errors';
import { evaluateCel, interpolate, renderTemplate } from '../../../platform/expressions';
import { configsStatement } from './queries';

/**
 * spec.templating: each variable's values (static `values`, or the configs a selector finds), its
 * selected value (the request's, else its default, else its first value), in dependsOn order, a
 * variable's selector templated with the selections before it. Queries then see them as `$(var.key)`.
 */

export interface VariableSpec {
  key: string;
  label?: string;
  values?: unknown[];
  valueFrom?: { config?: Record<string, unknown>; label?: string; value?: string; labelTemplate?: string; valueTemplate?: string };
  default?: unknown;
  dependsOn?: string[];
}

export interface ResolvedVariable {
  key: string;
  label: string;
  values: string[];
  /** label and value of each option (they differ when valueFrom gives labels). */
  options: Array<{ label: string; value: string }>;
  default?: string;
  dependsOn?: string[];
  /** The value the rows were made with. */
  selected: string;
}

export class VariableProblem extends Error {
  constructor(readonly path: string, message: string) {
    super(`${path}: ${message}`);
  }
}

const MAX_OPTIONS = 1000;

/** Strings of a value, templated with `$(var.key)` (Mission Control's struct templater). */
export function templated<T>(value: T, vars: Record<string, string>, where: string): T {
  if (typeof value === 'string') return (value.includes('$(') ? interpolate(where, value, { var: vars }) : value) as T;
  if (Array.isArray(value)) return value.map((item, i) => templated(item, vars, `${where}[${i}]`)) as T;
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, templated(item, vars, `${where}.${key}`)])) as T;
  return value;
}

/** The order variables resolve in: each after those it depends on. */
function ordered(specs: readonly VariableSpec[]): VariableSpec[] {
  const byKey = new Map(specs.map((spec) => [spec.key, spec]));
  const out: VariableSpec[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (spec: VariableSpec, path: string[]) => {
    if (state.get(spec.key) === 'done') return;
    if (state.get(spec.key) === 'visiting') throw new VariableProblem('templating', `dependsOn forms a cycle: ${[...path, spec.key].join(' → ')}`);
    state.set(spec.key, 'visiting');
    for (const key of spec.dependsOn ?? []) {
      const dependency = byKey.get(key);
      if (dependency) visit(dependency, [...path, spec.key]);
    }
    state.set(spec.key, 'done');
    out.push(spec);
  };
  for (const spec of specs) visit(spec, []);
  return out;
}

/** An option's label or value from a config: a CEL (`config.name`, `.config.name`) or a Go template. */
function optionPart(config: Record<string, unknown>, expression: string | undefined, template: string | undefined, where: string): string {
  if (template) return renderTemplate(where, template, { config });
  if (!expression) return String(config.name ?? '');
  const cel = expression.trim().replace(/^\./, '');
  const value = evaluateCel(where, cel, { config });
  return value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export async function resolveVariables(pool: pg.Pool, specs: readonly VariableSpec[], requested: Readonly<Record<string, string>>): Promise<ResolvedVariable[]> {
  const selected: Record<string, string> = {};
  const out: ResolvedVariable[] = [];
  const known = new Set(specs.map((spec) => spec.key));
  for (const key of Object.keys(requested)) if (!known.has(key)) throw new VariableProblem(`variables.${key}`, 'is not a variable of this view');
  for (const spec of ordered(specs)) {
    const index = specs.indexOf(spec);
    let options: Array<{ label: string; value: string }>;
    if (spec.valueFrom?.config) {
      const selector = templated(spec.valueFrom.config, selected, `templating[${index}].valueFrom.config`);
      const statement = configsStatement({ limit: MAX_OPTIONS, ...selector }, false);
      const { rows } = await pool.query<Record<string, unknown>>(statement.text, statement.values);
      const seen = new Set<string>();
      options = [];
      for (const row of rows) {
        const value = optionPart(row, spec.valueFrom.value, spec.valueFrom.valueTemplate, `templating[${index}].valueFrom.value`);
        if (value === '' || seen.has(value)) continue;
        seen.add(value);
        options.push({ value, label: optionPart(row, spec.valueFrom.label, spec.valueFrom.labelTemplate, `templating[${index}].valueFrom.label`) || value });
      }
      options.sort((a, b) => a.label.localeCompare(b.label));
    } else {
      options = (spec.values ?? []).map(String).map((value) => ({ label: value, value }));
    }
    const values = options.map((option) => option.value);
    const fallback = spec.default !== undefined && spec.default !== null ? String(spec.default) : undefined;
    let value = requested[spec.key];
    if (value !== undefined && values.length > 0 && !values.includes(value) && value !== fallback) {
      throw new VariableProblem(`variables.${spec.key}`, `${JSON.stringify(value)} is not one of its values`);
    }
    if (value === undefined && values.length === 0 && spec.valueFrom?.config && fallback === undefined) value = '';
    value ??= fallback ?? values[0] ?? '';
    selected[spec.key] = value;
    out.push({
      key: spec.key,
      label: spec.label ?? spec.key,
      values,
      options,
      ...(fallback !== undefined ? { default: fallback } : {}),
      ...(spec.dependsOn?.length ? { dependsOn: spec.dependsOn } : {}),
      selected: value,
    });
  }
  // In the spec's order, as the page shows them.
  return specs.map((spec) => out.find((variable) => variable.key === spec.key)).filter((variable): variable is ResolvedVariable => variable !== undefined);
}

export function selections(variables: readonly ResolvedVariable[]): Record<string, string> {
  return Object.fromEntries(variables.map((variable) => [variable.key, variable.selected]));
}

/** sha256 of the sorted selections: the rows of one variable set. */
export function fingerprintOf(selected: Readonly<Record<string, string>>): string {
  const sorted = Object.keys(selected).sort().map((key) => [key, selected[key]]);
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
}
