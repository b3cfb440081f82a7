import { FuncError } from '../kinds';

// Go's regexp package as the template functions (regexp.*, random.*) read patterns; its own module so
// that misc.ts and random-net.ts both use it without importing each other.

/** Go's RE2 syntax read by JS: named groups `(?P<name>…)` and `\z`; flags as `(?i)` at the start. */
export function goRegexp(pattern: string, global = false): RegExp {
  let source = pattern.replace(/\(\?P</g, '(?<').replace(/\\z/g, '$(?![\\s\\S])');
  let flags = global ? 'gu' : 'u';
  const leading = /^\(\?([imsU]+)\)/.exec(source);
  if (leading) {
    source = source.slice(leading[0].length);
    for (const flag of leading[1] ?? '') if (flag !== 'U' && !flags.includes(flag)) flags += flag;
  }
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new FuncError(`error parsing regexp: ${error instanceof Error ? error.message : String(error)}: \`${pattern}\``);
  }
}
