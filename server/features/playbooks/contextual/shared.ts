import type { OutputSegment } from '../../../platform/expressions/template/index';

export type { OutputSegment };

/**
 * A template value refused where it landed (a heredoc delimiter, an arithmetic expression given text, a
 * host that is not a host name, …). The message names the field and the value's place, never the value
 * itself (it may be a secret parameter).
 */
export class TemplateValueRefused extends Error {
  constructor(where: string, message: string) {
    super(`${where}: ${message}`);
    this.name = 'TemplateValueRefused';
  }
}

/** "the 2nd template value" — how a message names a value without showing it. */
export function nth(index: number): string {
  const n = index + 1;
  const suffix = n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th';
  return `the ${n}${suffix} template value`;
}

/** The segments joined as the plain template output (what rendering without context gives). */
export function joined(segments: readonly OutputSegment[]): string {
  return segments.map((segment) => segment.text).join('');
}

/** True when any segment is an action's value. */
export function hasValues(segments: readonly OutputSegment[]): boolean {
  return segments.some((segment) => segment.action);
}
