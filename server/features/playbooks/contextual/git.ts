import { nth, type OutputSegment, TemplateValueRefused } from './shared';

/**
 * Contextual rendering of a git branch and of a path in a repository (docs/PLAYBOOKS.md): a gitops action's
 * `repo.base` and `repo.branch`, and the `path` of its files and patches. Git is given these as arguments
 * and ref names, so a template value is refused when it would be read as something else than the name the
 * author meant:
 *
 * - a value that starts with `-` (at the start, or of a path component): git reads it as an option
 *   (`--upload-pack=…`, `-B`);
 * - `..`: in a branch, git's range and a name no ref may hold; in a path, a component that climbs out;
 * - a control character (line ends, NUL, escape): no ref holds one, and a path with one is a trap.
 */

const CONTROL = /[\u0000-\u001f\u007f]/;

function refuse(where: string, index: number, why: string): never {
  throw new TemplateValueRefused(where, `${nth(index)} ${why}`);
}

/** The common checks: control characters and a leading `-` where a word starts. */
function checkValue(where: string, index: number, value: string, startsWord: boolean, what: string): void {
  if (CONTROL.test(value)) refuse(where, index, `holds a control character (a line end, NUL or escape), which ${what} cannot hold`);
  if (startsWord && value.startsWith('-')) refuse(where, index, `starts ${what} with "-", which git would read as an option`);
}

/** A branch (or base): the values checked, then joined. */
export function renderGitRef(where: string, segments: readonly OutputSegment[]): string {
  let out = '';
  let count = 0;
  const touched: Array<{ start: number; end: number; index: number }> = [];
  for (const segment of segments) {
    if (!segment.action) {
      out += segment.text;
      continue;
    }
    const index = count;
    count += 1;
    const value = segment.text;
    checkValue(where, index, value, out.trim() === '' || out.endsWith('/'), 'a branch name');
    touched.push({ start: out.length, end: out.length + value.length, index });
    out += value;
  }
  // "..", in the value or with the literal text beside it.
  for (let at = out.indexOf('..'); at >= 0; at = out.indexOf('..', at + 1)) {
    const value = touched.find((item) => item.start < at + 2 && item.end > at);
    if (value) refuse(where, value.index, 'holds "..", which git reads as a range and no branch name may hold');
  }
  return out;
}

/** A path: the values checked, then joined; a component a value touches may not be `..` (nor start with `-`). */
export function renderGitPath(where: string, segments: readonly OutputSegment[]): string {
  let out = '';
  let count = 0;
  const touched: Array<{ start: number; end: number; index: number }> = [];
  for (const segment of segments) {
    if (!segment.action) {
      out += segment.text;
      continue;
    }
    const index = count;
    count += 1;
    const value = segment.text;
    checkValue(where, index, value, out.trim() === '' || /[/\\]$/.test(out), 'a path component');
    if (value.includes('/-') || value.includes('\\-')) refuse(where, index, 'starts a path component with "-", which git would read as an option');
    touched.push({ start: out.length, end: out.length + value.length, index });
    out += value;
  }
  // Every component a value touches: "..", alone or with the literal text around it, climbs out.
  let start = 0;
  for (let cursor = 0; cursor <= out.length; cursor++) {
    if (cursor < out.length && out[cursor] !== '/' && out[cursor] !== '\\') continue;
    const component = out.slice(start, cursor);
    const value = touched.find((item) => item.start < cursor && item.end > start);
    if (value && component === '..') refuse(where, value.index, 'makes the path component "..", which would climb out of the folder');
    start = cursor + 1;
  }
  return out;
}
