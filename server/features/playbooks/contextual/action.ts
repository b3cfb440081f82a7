import { interpolate, interpolationEnd } from '../../../platform/expressions';
import { renderTemplateSegments } from '../../../platform/expressions/template/index';
import { isRecord } from '../../../platform/errors';
import { templateText, type ActionSpec } from '../spec';
import { hasValues, joined, type OutputSegment } from './shared';
import { renderScript } from './shell';
import { dialectOf, renderQuery } from './sql';
import { checkHeaderValue, renderUrl } from './url';

/**
 * The rendered sql block carries its query's segments too when values went into it: the sql action
 * quotes them again for the dialect its connection turns out to speak (renderQuery), since the dialect
 * may only be known once the connection is read.
 */
export interface SqlTemplateParts {
  templateParts?: OutputSegment[];
}

/**
 * Mission Control's `$(.params.x)` struct templating, in literal text only: what it gives is a value (an
 * action segment), and a value's own `$(` is never read again. A `$(…)` that does not evaluate stays as written.
 */
function interpolateLiterals(where: string, segments: readonly OutputSegment[], data: Record<string, unknown>): OutputSegment[] {
  const out: OutputSegment[] = [];
  const literal = (text: string) => {
    if (text === '') return;
    const last = out[out.length - 1];
    if (last && !last.action) last.text += text;
    else out.push({ text, action: false });
  };
  for (const segment of segments) {
    if (segment.action || !segment.text.includes('$(')) {
      if (segment.action) out.push(segment);
      else literal(segment.text);
      continue;
    }
    let rest = segment.text;
    for (;;) {
      const start = rest.indexOf('$(');
      const end = start < 0 ? -1 : interpolationEnd(rest, start + 2);
      if (start < 0 || end < 0) {
        literal(rest);
        break;
      }
      literal(rest.slice(0, start));
      const piece = rest.slice(start, end + 1);
      try {
        out.push({ text: interpolate(where, piece, data), action: true });
      } catch {
        literal(piece);
      }
      rest = rest.slice(end + 1);
    }
  }
  return out;
}

/**
 * The action with every Go template rendered; an http body only with templateBody (as Mission Control).
 * Where a value reaches a language, it is placed as data for it (docs/PLAYBOOKS.md): exec.script through
 * environment variables (contextual/shell.ts), sql.query quoted for the dialect (contextual/sql.ts), http.url
 * percent-encoded for its place (contextual/url.ts); header values may not hold line ends.
 */
export function renderActionInContext(action: ActionSpec, data: Record<string, unknown>): ActionSpec {
  const name = action.name;
  const contextual = new Set([`${name}.exec.script`, `${name}.sql.query`, `${name}.http.url`]);
  const segmentsOf = (value: string, where: string): OutputSegment[] =>
    value.includes('{{') ? renderTemplateSegments(where, templateText(value), data) : value === '' ? [] : [{ text: value, action: false }];
  const render = (value: unknown, where: string): unknown => {
    if (typeof value === 'string') {
      if (contextual.has(where)) return value;
      return joined(interpolateLiterals(where, segmentsOf(value, where), data));
    }
    if (Array.isArray(value)) return value.map((item, index) => render(item, `${where}[${index}]`));
    if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, render(item, `${where}.${key}`)]));
    return value;
  };
  const { if: condition, filter, delay, ...rest } = action;
  const out = render(rest, name) as ActionSpec;
  if (action.http?.body !== undefined && !action.http.templateBody && out.http) out.http.body = action.http.body;

  if (action.exec && out.exec) {
    // A script's own `$(command)` is shell: no `$(.x)` struct templating here.
    const where = `${name}.exec.script`;
    const rendered = renderScript(where, segmentsOf(action.exec.script, where));
    out.exec.script = rendered.script;
    const env = Object.entries(rendered.env).map(([variable, value]) => ({ name: variable, value }));
    if (env.length > 0) out.exec.env = [...(out.exec.env ?? []).filter((item) => !Object.hasOwn(rendered.env, item.name)), ...env];
  }
  if (action.sql && out.sql) {
    const where = `${name}.sql.query`;
    const segments = interpolateLiterals(where, segmentsOf(action.sql.query, where), data);
    out.sql.query = renderQuery(where, segments, dialectOf(out.sql.driver, out.sql.url ?? out.sql.connection) ?? 'postgres').query;
    if (hasValues(segments)) (out.sql as SqlTemplateParts).templateParts = segments;
  }
  if (action.http && out.http) {
    if (action.http.url !== undefined) {
      const where = `${name}.http.url`;
      out.http.url = renderUrl(where, interpolateLiterals(where, segmentsOf(action.http.url, where), data));
    }
    out.http.headers?.forEach((header, index) => {
      if (header.value !== undefined) checkHeaderValue(`${name}.http.headers[${index}] (${header.name})`, header.value);
      checkHeaderValue(`${name}.http.headers[${index}].name`, header.name);
    });
  }
  return { ...out, ...(condition !== undefined ? { if: condition } : {}), ...(filter !== undefined ? { filter } : {}), ...(delay !== undefined ? { delay } : {}) };
}
