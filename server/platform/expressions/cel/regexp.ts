import { fail, toInt, toStr, type Registrar } from './support';

// ---- regexp (Go RE2 syntax, translated) --------------------------------------------------------

const regexCache = new Map<string, RegExp>();

/** A Go (RE2) pattern as a JS RegExp: leading (?flags), (?P<name>…), \A and \z. */
export function goRegex(pattern: string, global = false): RegExp {
  const key = `${global ? 'g' : ''}:${pattern}`;
  const cached = regexCache.get(key);
  if (cached) return new RegExp(cached);
  let source = pattern;
  let flags = global ? 'g' : '';
  const inline = /^\(\?([imsU]+)\)/.exec(source);
  if (inline) {
    source = source.slice(inline[0].length);
    for (const flag of inline[1] ?? '') if (flag !== 'U' && !flags.includes(flag)) flags += flag;
  }
  source = source.replace(/\(\?P</g, '(?<').replace(/\\A/g, '^').replace(/\\z/g, '$');
  let regex: RegExp;
  try {
    regex = new RegExp(source, flags);
  } catch (error) {
    return fail(`invalid regular expression ${JSON.stringify(pattern)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (regexCache.size > 1000) regexCache.clear();
  regexCache.set(key, regex);
  return new RegExp(regex);
}

export function findAll(pattern: string, input: string, n = -1): string[] {
  if (n === 0) return [];
  const out: string[] = [];
  for (const match of input.matchAll(goRegex(pattern, true))) {
    out.push(match[0]);
    if (n > 0 && out.length >= n) break;
  }
  return out;
}

/** Go's Regexp.Split(s, n). */
function regexSplit(pattern: string, input: string, n: number): string[] {
  if (n === 0) return [];
  if (pattern.length > 0 && input.length === 0) return [''];
  const out: string[] = [];
  let begin = 0;
  let end = 0;
  for (const match of input.matchAll(goRegex(pattern, true))) {
    if (n > 0 && out.length === n - 1) break;
    const start = match.index ?? 0;
    const stop = start + match[0].length;
    end = start;
    if (stop !== 0) out.push(input.slice(begin, end));
    begin = stop;
  }
  if (end !== input.length) out.push(input.slice(begin));
  return out;
}

/** Go's replacement template ($1, ${1}, $name, ${name}) as JS's. */
function goReplacement(template: string): string {
  return template.replace(/\$(\$|\{([^}]*)\}|([A-Za-z0-9_]+))/g, (all, _x, braced: string | undefined, bare: string | undefined) => {
    if (all === '$$') return '$$';
    const name = braced ?? bare ?? '';
    return /^\d+$/.test(name) ? `$${name}` : `$<${name}>`;
  });
}

function quoteMeta(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

/** gomplate's regexp functions, Go syntax. */
export function registerRegexp(r: Registrar): void {
  r.fn('regexp.Find', 2, (pattern: unknown, input: unknown) => findAll(toStr(pattern), toStr(input), 1)[0] ?? '', 'string');
  r.fn('regexp.FindAll', [2, 3], (...args: unknown[]) =>
    args.length === 2 ? findAll(toStr(args[0]), toStr(args[1])) : findAll(toStr(args[0]), toStr(args[2]), toInt(args[1], 'regexp.FindAll')), 'list');
  r.fn('regexp.Match', 2, (pattern: unknown, input: unknown) => goRegex(toStr(pattern)).test(toStr(input)), 'bool');
  r.fn('regexp.QuoteMeta', 1, (text: unknown) => quoteMeta(toStr(text)), 'string');
  r.fn('regexp.Replace', 3, (pattern: unknown, replacement: unknown, input: unknown) => toStr(input).replace(goRegex(toStr(pattern), true), goReplacement(toStr(replacement))), 'string');
  r.fn('regexp.ReplaceLiteral', 3, (pattern: unknown, replacement: unknown, input: unknown) => toStr(input).replace(goRegex(toStr(pattern), true), () => toStr(replacement)), 'string');
  r.fn('regexp.Split', [2, 3], (...args: unknown[]) =>
    args.length === 2 ? regexSplit(toStr(args[0]), toStr(args[1]), -1) : regexSplit(toStr(args[0]), toStr(args[2]), toInt(args[1], 'regexp.Split')), 'list');
}
