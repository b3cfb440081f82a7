import type { SelectItem } from '../ast';
import { PgrstError, parseError } from '../errors';
import { MAX_DEPTH, MAX_ITEMS, parseField } from './lexer';

/** Casts a select may ask for (`col::text`). A closed list: the type name is written into the SQL. */
export const CASTS: ReadonlyMap<string, string> = new Map([
  ['text', 'text'],
  ['varchar', 'varchar'],
  ['int', 'integer'],
  ['int2', 'smallint'],
  ['int4', 'integer'],
  ['int8', 'bigint'],
  ['integer', 'integer'],
  ['smallint', 'smallint'],
  ['bigint', 'bigint'],
  ['numeric', 'numeric'],
  ['float4', 'real'],
  ['float8', 'double precision'],
  ['real', 'real'],
  ['bool', 'boolean'],
  ['boolean', 'boolean'],
  ['json', 'json'],
  ['jsonb', 'jsonb'],
  ['uuid', 'uuid'],
  ['date', 'date'],
  ['time', 'time'],
  ['timestamp', 'timestamp'],
  ['timestamptz', 'timestamptz'],
  ['interval', 'interval'],
]);

const AGGREGATES = /^(count|sum|avg|min|max)\(\)$/;

/**
 * `select=` grammar: items separated by commas; an item is `*`, `[alias:]field[->path][::cast]` or
 * `[alias:]relation[!hint][!inner](items)`. A small cursor parser, because embeds nest.
 */
export function parseSelect(input: string): SelectItem[] {
  const parser = new SelectParser(input);
  const items = parser.items(0);
  if (!parser.done()) throw parser.fail(`unexpected "${parser.peek()}"`);
  return items;
}

class SelectParser {
  private pos = 0;
  private count = 0;

  constructor(private readonly text: string) {}

  done(): boolean {
    return this.pos >= this.text.length;
  }

  peek(): string {
    return this.text[this.pos] ?? 'end of input';
  }

  fail(details: string): PgrstError {
    return parseError('select parameter', this.text, details);
  }

  items(depth: number): SelectItem[] {
    if (depth > MAX_DEPTH) throw this.fail(`embedding is nested deeper than ${MAX_DEPTH} levels`);
    const items: SelectItem[] = [];
    if (this.done() || this.peek() === ')') return items;
    for (;;) {
      items.push(this.item(depth));
      this.count += 1;
      if (this.count > MAX_ITEMS) throw this.fail(`more than ${MAX_ITEMS} select items`);
      if (this.peek() !== ',') return items;
      this.pos += 1;
    }
  }

  private readWord(): string {
    const start = this.pos;
    while (!this.done()) {
      const ch = this.text[this.pos];
      if (ch === ',' || ch === '(' || ch === ')' || ch === '!' || ch === ':') break;
      this.pos += 1;
    }
    return this.text.slice(start, this.pos).trim();
  }

  private item(depth: number): SelectItem {
    if (this.text.startsWith('...', this.pos)) throw this.fail('spread embeds ("...") are not supported');
    if (this.peek() === '*') {
      this.pos += 1;
      return { kind: 'star' };
    }
    let alias: string | undefined;
    let word = this.readWord();
    if (this.peek() === ':' && this.text[this.pos + 1] !== ':') {
      alias = word;
      if (alias === '') throw this.fail('empty alias');
      // The alias is written into the SQL as a quoted identifier, which cannot hold a NUL.
      if (alias.includes('\u0000')) throw this.fail('an alias cannot contain a NUL character');
      this.pos += 1;
      word = this.readWord();
    }
    if (word === '') throw this.fail(`unexpected "${this.peek()}" expecting field name (* or [a..z0..9_$])`);
    if (this.peek() === '(' && this.text.startsWith('()', this.pos) && AGGREGATES.test(`${word}()`)) {
      throw new PgrstError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
    }
    if (this.peek() === '!' || this.peek() === '(') return this.embed(word, alias, depth);
    const field = parseField(word);
    if (!field) throw this.fail(`invalid field "${word}"`);
    let cast: string | undefined;
    if (this.text.startsWith('::', this.pos)) {
      this.pos += 2;
      const type = this.readWord();
      cast = CASTS.get(type.toLowerCase());
      if (!cast) throw this.fail(`unsupported cast "${type}"; use one of ${[...CASTS.keys()].join(', ')}`);
    }
    return { kind: 'column', field, ...(alias === undefined ? {} : { alias }), ...(cast === undefined ? {} : { cast }) };
  }

  private embed(relation: string, alias: string | undefined, depth: number): SelectItem {
    let hint: string | undefined;
    let inner = false;
    while (this.peek() === '!') {
      this.pos += 1;
      const word = this.readWord();
      if (word === 'inner') inner = true;
      else if (word === 'left') inner = false;
      else if (word !== '' && hint === undefined) hint = word;
      else throw this.fail(`unexpected embed hint "${word}"`);
    }
    if (this.peek() !== '(') throw this.fail(`unexpected "${this.peek()}" expecting "("`);
    this.pos += 1;
    const select = this.items(depth + 1);
    if (this.peek() !== ')') throw this.fail(`unexpected "${this.peek()}" expecting ")"`);
    this.pos += 1;
    return { kind: 'embed', relation, inner, select, ...(alias === undefined ? {} : { alias }), ...(hint === undefined ? {} : { hint }) };
  }
}
