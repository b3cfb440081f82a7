import { ExpressionError, type ExpressionPosition } from '../errors';
import { ExecError, execute, executeSegments, type OutputSegment } from './exec';

export type { OutputSegment } from './exec';
import { functionLookup, type FunctionSet } from './functions';

export { NOTIFICATION_FUNCTIONS, PLAYBOOK_FUNCTIONS, type FunctionSet } from './functions';
import { ParseError, type ParsedTemplate, parse } from './parser';

/**
 * Go's text/template as canary-checker and Mission Control run it (flanksource/gomplate's goTemplate):
 * Go's builtins plus gomplate's functions, the default missingkey option (a missing key prints
 * `<no value>`, left in the output), and the `# gotemplate: left-delim=… right-delim=…` header that
 * changes the delimiters. Output is not trimmed here; callers trim as gomplate does.
 */
export interface CompiledTemplate {
  readonly template: string;
  render(data: unknown): string;
  /** The output as render gives it, in literal and action segments (see executeSegments). */
  renderSegments(data: unknown): OutputSegment[];
}

type Entry = { parsed: ParsedTemplate; lineOffset: number; columnText: string } | { error: string; pos: number; text: string; lineOffset: number };

/** Compiled templates by text: a check's display template is parsed once, not at every run. */
const cache = new Map<string, Entry>();
const CACHE_LIMIT = 2000;

const HEADER = '# gotemplate: ';

/** gomplate's header: the delimiters from `# gotemplate: left-delim=$[[ right-delim=]]` among the leading # lines. */
function readHeader(template: string): { text: string; left: string; right: string; lineOffset: number } {
  const plain = { text: template, left: '{{', right: '}}', lineOffset: 0 };
  if (!template.includes(HEADER)) return plain;
  const lines = template.split('\n');
  for (const line of lines) {
    if (line === '---') continue;
    if (!line.startsWith('#')) break;
    if (!line.startsWith(HEADER)) continue;
    let [left, right] = ['{{', '}}'];
    for (const field of line.slice(HEADER.length).split(/\s+/).filter(Boolean)) {
      const [key, value] = field.split(/=(.*)/s);
      if (value === undefined) throw new ParseError(`invalid header: ${field}`, 0);
      if (key === 'left-delim') left = value;
      if (key === 'right-delim') right = value;
    }
    const at = template.indexOf(`${line}\n`);
    if (at < 0) return plain;
    const before = template.slice(0, at);
    return { text: before + template.slice(at + line.length + 1), left, right, lineOffset: before.split('\n').length };
  }
  return plain;
}

function compile(template: string, functions: FunctionSet | undefined): Entry {
  let lineOffset = 0;
  let text = template;
  try {
    const header = readHeader(template);
    ({ text, lineOffset } = header);
    return { parsed: parse(header.text, functionLookup(functions), header.left, header.right), lineOffset, columnText: header.text };
  } catch (error) {
    if (error instanceof ParseError) return { error: error.message, pos: error.pos, text, lineOffset };
    throw error;
  }
}

function cached(template: string, functions: FunctionSet | undefined): Entry {
  // A template parsed with a context's functions is another entry than the same text without them.
  const key = functions ? `${functions.name}\0${template}` : template;
  let entry = cache.get(key);
  if (!entry) {
    entry = compile(template, functions);
    if (cache.size >= CACHE_LIMIT) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(key, entry);
  }
  return entry;
}

/** 1-based line and column of an offset into the text the parser read. */
function positionOf(text: string, pos: number, lineOffset: number): ExpressionPosition {
  const before = text.slice(0, Math.max(0, Math.min(pos, text.length)));
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length + lineOffset, column: pos - lineStart + 1 };
}

/**
 * Parses a Go template (cached); a template that does not parse throws ExpressionError naming `where` and
 * the position. `functions` adds a context's functions (functions.ts) to gomplate's.
 */
export function compileTemplate(where: string, template: string, functions?: FunctionSet): CompiledTemplate {
  const entry = cached(template, functions);
  if ('error' in entry) throw new ExpressionError(where, template, entry.error, positionOf(entry.text, entry.pos, entry.lineOffset));
  const { parsed, lineOffset, columnText } = entry;
  const run = <T>(go: () => T): T => {
    try {
      return go();
    } catch (error) {
      if (!(error instanceof ExecError)) throw error;
      const context = error.context === undefined ? '' : `executing at <${error.context}>: `;
      const position = error.pos === undefined ? undefined : positionOf(columnText, error.pos, lineOffset);
      throw new ExpressionError(where, template, `${context}${error.message}`, position);
    }
  };
  return {
    template,
    render: (data: unknown): string => run(() => execute(parsed, data)),
    renderSegments: (data: unknown): OutputSegment[] => run(() => executeSegments(parsed, data)),
  };
}

/** Renders a Go template over `data`; ExpressionError when it does not parse or fails while running. */
export function renderTemplate(where: string, template: string, data: unknown, functions?: FunctionSet): string {
  if (!template.includes('{{') && !template.includes(HEADER)) return template;
  return compileTemplate(where, template, functions).render(data);
}

/**
 * Renders a Go template as renderTemplate does, answering the output in segments: literal template text
 * and each action's value apart (joined, they are renderTemplate's answer). A text without a template is
 * one literal segment.
 */
export function renderTemplateSegments(where: string, template: string, data: unknown, functions?: FunctionSet): OutputSegment[] {
  if (!template.includes('{{') && !template.includes(HEADER)) return template === '' ? [] : [{ text: template, action: false }];
  return compileTemplate(where, template, functions).renderSegments(data);
}
