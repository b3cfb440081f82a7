/**
 * CEL's leading-dot names (`.check`, `.config.name`): cel-go reads a name that starts with a dot from the
 * root scope, so `matchQuery(.check, "…")` is `matchQuery(check, "…")` there (Mission Control writes it so
 * in notification filters). cel-js does not parse the form; this gives it the same expression with each
 * such dot replaced by a space (same length, so every reported column stays right). A dot after a value
 * (`a.b`, `f().b`, `x[0].b`, `1.5`) is a selection and stays; string and bytes literals are skipped.
 */

/** The characters after which a `.name` starts a new operand (not a field selection). */
const OPERAND_BEFORE = new Set(['', '(', ',', '[', '{', ':', '?', '!', '-', '+', '*', '/', '%', '<', '>', '=', '&', '|']);

/** Whether a word just before the dot is an operator keyword (`in`), after which an operand starts. */
function endsWithKeyword(text: string): boolean {
  return /(?:^|[^A-Za-z0-9_])in$/.test(text);
}

/** The end (exclusive) of the string literal opening at `start` (quote, triple quote, raw prefix handled by the caller). */
function literalEnd(text: string, start: number, raw: boolean): number {
  const quote = text.charAt(start);
  const triple = text.startsWith(quote.repeat(3), start);
  const close = triple ? quote.repeat(3) : quote;
  let at = start + close.length;
  while (at < text.length) {
    if (!raw && text[at] === '\\') {
      at += 2;
      continue;
    }
    if (text.startsWith(close, at)) return at + close.length;
    if (!triple && text[at] === '\n') return at;
    at += 1;
  }
  return text.length;
}

export function rootScoped(expression: string): string {
  if (!expression.includes('.')) return expression;
  let out = '';
  let last = '';
  let at = 0;
  while (at < expression.length) {
    const char = expression.charAt(at);
    if (char === '"' || char === "'") {
      const prefix = /[rRbB]{1,2}$/.exec(out)?.[0] ?? '';
      const end = literalEnd(expression, at, /r/i.test(prefix));
      out += expression.slice(at, end);
      last = char;
      at = end;
      continue;
    }
    if (char === '.' && /[A-Za-z_]/.test(expression[at + 1] ?? '') && (OPERAND_BEFORE.has(last) || endsWithKeyword(out.trimEnd()))) {
      out += ' ';
      at += 1;
      last = '.';
      // The name itself is copied as it is; `last` becomes its last character below.
      continue;
    }
    out += char;
    if (!/\s/.test(char)) last = char;
    at += 1;
  }
  return out;
}
