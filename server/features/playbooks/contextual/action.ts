import { interpolate, interpolationEnd } from '../../../platform/expressions';
import { PLAYBOOK_FUNCTIONS, renderTemplateSegments } from '../../../platform/expressions/template/index';
import { isRecord } from '../../../platform/errors';
import { actionTypeOf, templateText, type ActionSpec } from '../spec';
import { bodyKind, fileKind, renderDocument } from './body';
import { mapTemplated, TEMPLATED, type TemplatedText } from './fields';
import { renderPromql } from './promql';
import { hasValues, joined, type OutputSegment } from './shared';
import { renderScript } from './shell';
import { dialectOf, renderQuery } from './sql';
import { sqlDriverOf } from '../../../platform/peers/sql';
import { renderGitPath, renderGitRef } from './git';
import { checkHeaderValue, GIT_URL, NOTIFICATION_URL, renderSqlConnection, renderUrl } from './url';
import { renderYq } from './yq';

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

/** A connection string the sql action reads: a URL it names, libpq pairs or a Go DSN. */
function isSqlConnectionString(text: string): boolean {
  return sqlDriverOf(text) !== undefined || /^(sqlserver|mssql):\/\//i.test(text);
}

/** The Content-Type an http block's (rendered) headers give, if any. */
function contentTypeOf(headers: unknown): string | undefined {
  if (!Array.isArray(headers)) return undefined;
  const found = headers.find((header) => isRecord(header) && typeof header.name === 'string' && header.name.trim().toLowerCase() === 'content-type');
  return isRecord(found) && typeof found.value === 'string' ? found.value : undefined;
}

/**
 * The action with its templated fields rendered — the fields Mission Control templates (contextual/fields.ts),
 * an http body always; every other field as written. Where a value reaches a language, it is placed as data
 * for it (docs/PLAYBOOKS.md): exec.script through environment variables (shell.ts), sql.query quoted for the
 * dialect (sql.ts), http.url, sql.connection and a gitops repo url percent-encoded for their place (url.ts),
 * a gitops branch and paths without an option, `..` or control character from a value (git.ts), an http
 * body, a github workflow's input and a gitops JSON file as JSON, form or XML data (body.ts), a gitops patch's
 * yq as YAML literals (yq.ts), a PromQL or LogQL query as string literals (promql.ts); header values may not
 * hold line ends.
 * `if`, `filter` and `delay` are left to the runner.
 */
export function renderActionInContext(action: ActionSpec, data: Record<string, unknown>): ActionSpec {
  const name = action.name;
  const type = actionTypeOf(action);
  const segmentsOf = (value: string, where: string): OutputSegment[] =>
    value.includes('{{') ? renderTemplateSegments(where, templateText(value), data, PLAYBOOK_FUNCTIONS) : value === '' ? [] : [{ text: value, action: false }];
  /** Go template, then Mission Control's `$(…)` in the literal text. */
  const valuesOf = (value: string, where: string): OutputSegment[] => interpolateLiterals(where, segmentsOf(value, where), data);

  const render = (text: TemplatedText, parent: Record<string, unknown> | undefined): unknown => {
    const where = `${name}.${text.path}`;
    switch (text.renderer) {
      case 'text':
        return joined(valuesOf(text.value, where));
      case 'script': {
        // A script's own `$(command)` is shell: no `$(.x)` struct templating here.
        const rendered = renderScript(where, segmentsOf(text.value, where));
        const env = Object.entries(rendered.env).map(([variable, value]) => ({ name: variable, value }));
        if (parent && env.length > 0) {
          const written = Array.isArray(parent.env) ? (parent.env as Array<{ name: string }>) : [];
          parent.env = [...written.filter((item) => !Object.hasOwn(rendered.env, item.name)), ...env];
        }
        return rendered.script;
      }
      case 'query': {
        const segments = valuesOf(text.value, where);
        const target = typeof parent?.url === 'string' ? parent.url : typeof parent?.connection === 'string' ? parent.connection : undefined;
        const dialect = dialectOf(typeof parent?.driver === 'string' ? parent.driver : undefined, target) ?? 'postgres';
        if (parent && hasValues(segments)) (parent as SqlTemplateParts).templateParts = segments;
        return renderQuery(where, segments, dialect).query;
      }
      case 'url':
        return renderUrl(where, valuesOf(text.value, where));
      case 'sqlConnection':
        return renderSqlConnection(where, valuesOf(text.value, where), isSqlConnectionString);
      case 'notificationUrl': {
        const segments = valuesOf(text.value, where);
        return hasValues(segments) ? renderUrl(where, segments, NOTIFICATION_URL) : joined(segments);
      }
      case 'gitUrl': {
        const segments = valuesOf(text.value, where);
        return hasValues(segments) ? renderUrl(where, segments, GIT_URL) : joined(segments);
      }
      case 'gitRef':
        return renderGitRef(where, valuesOf(text.value, where));
      case 'gitPath':
        return renderGitPath(where, valuesOf(text.value, where));
      case 'header':
        return checkHeaderValue(`${where}${typeof parent?.name === 'string' ? ` (${parent.name})` : ''}`, joined(valuesOf(text.value, where)));
      case 'body': {
        const segments = valuesOf(text.value, where);
        return renderDocument(where, segments, bodyKind(segments, contentTypeOf(parent?.headers)));
      }
      case 'json':
        return renderDocument(where, valuesOf(text.value, where), 'json');
      case 'file':
        return renderDocument(where, valuesOf(text.value, where), fileKind(parent?.path));
      case 'yq':
        return renderYq(where, valuesOf(text.value, where));
      case 'promql':
        return renderPromql(where, valuesOf(text.value, where));
    }
  };

  const block = mapTemplated(action[type], TEMPLATED[type], type, render);
  const out = { ...action, [type]: block } as ActionSpec;
  // Mission Control templates an action's runsOn too (the agent is chosen from it as written).
  if (action.runsOn) out.runsOn = action.runsOn.map((item, index) => joined(valuesOf(item, `${name}.runsOn[${index}]`)));
  out.http?.headers?.forEach((header, index) => checkHeaderValue(`${name}.http.headers[${index}].name`, header.name));
  return out;
}
