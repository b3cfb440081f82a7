import type { GoFunc } from './kinds';
import { Item, lex, type Token } from './lexer';
import type { ArgNode, BranchNode, CommandNode, ListNode, Node, NumberNode, PipeNode, VariableNode } from './nodes';
import { nodeString } from './nodes';
import { parseGoFloat, parseGoInt, parseGoUint, unquote, unquoteChar } from './strconv';
import { refusedFunction } from './refused';

/** A template that does not parse; `pos` is the offset of the token where Go's parser stopped. */
export class ParseError extends Error {
  constructor(
    message: string,
    readonly pos: number,
  ) {
    super(message);
  }
}

export type FuncLookup = (name: string) => { func: GoFunc; builtin: boolean } | undefined;

export interface ParsedTemplate {
  readonly root: ListNode;
  /** `{{define}}` and `{{block}}` bodies by name. */
  readonly defines: Map<string, ListNode>;
}

type Control = { type: 'end'; pos: number } | { type: 'else'; pos: number };

function isEmptyTree(list: ListNode): boolean {
  return list.nodes.every((node) => node.type === 'text' && node.text.trim() === '');
}

/** Go's parse.Parse (src/text/template/parse/parse.go): the same grammar and the same refusals. */
export function parse(text: string, lookup: FuncLookup, leftDelim = '{{', rightDelim = '}}'): ParsedTemplate {
  const defines = new Map<string, ListNode>();
  const tokens = lex(text, leftDelim, rightDelim);
  const parser = new Parser(text, tokens, lookup, defines);
  const root = parser.parseTop();
  parser.add('', root);
  const main = defines.get('') ?? root;
  defines.delete('');
  return { root: main, defines };
}

class Parser {
  private index = 0;
  private vars: string[] = ['$'];
  private rangeDepth = 0;
  /** The line of the left delimiter of the action being read (0 outside one), as Go's Tree.actionLine. */
  private actionLine = 0;
  /** The most recently read token: Go reports errors where it stands. */
  private last: Token;

  constructor(
    private readonly text: string,
    private readonly tokens: Token[],
    private readonly lookup: FuncLookup,
    private readonly defines: Map<string, ListNode>,
  ) {
    this.last = tokens[0] ?? { type: Item.EOF, pos: 0, val: '' };
  }

  private next(): Token {
    const token = this.tokens[this.index] ?? this.tokens[this.tokens.length - 1] ?? { type: Item.EOF, pos: 0, val: '' };
    if (this.index < this.tokens.length) this.index++;
    this.last = token;
    if (token.type === Item.Error) throw new ParseError(token.val + this.startedAt(token), token.pos);
    return token;
  }

  private lineOf(pos: number): number {
    let line = 1;
    for (let at = this.text.indexOf('\n'); at >= 0 && at < pos; at = this.text.indexOf('\n', at + 1)) line++;
    return line;
  }

  /** Go's unexpected on a lexer error: where the action started, when that is another line (the template is named ""). */
  private startedAt(token: Token): string {
    if (this.actionLine === 0 || this.actionLine === this.lineOf(token.pos)) return '';
    const extra = ` in action started at :${this.actionLine}`;
    return token.val.endsWith(' action') ? extra.slice(' in action'.length) : extra;
  }

  private backup(count = 1) {
    this.index -= count;
  }

  private peek(): Token {
    const token = this.next();
    this.backup();
    return token;
  }

  private nextNonSpace(): Token {
    for (;;) {
      const token = this.next();
      if (token.type !== Item.Space) return token;
    }
  }

  private peekNonSpace(): Token {
    const token = this.nextNonSpace();
    this.backup();
    return token;
  }

  private fail(message: string, pos = this.last.pos): never {
    throw new ParseError(message, pos);
  }

  private expect(expected: Item, context: string): Token {
    const token = this.nextNonSpace();
    if (token.type !== expected) this.unexpected(token, context);
    return token;
  }

  private unexpected(token: Token, context: string): never {
    this.fail(`unexpected ${describe(token)} in ${context}`, token.pos);
  }

  add(name: string, list: ListNode) {
    const existing = this.defines.get(name);
    if (!existing || isEmptyTree(existing)) {
      this.defines.set(name, list);
      return;
    }
    if (!isEmptyTree(list)) this.fail(`template: multiple definition of template ${JSON.stringify(name)}`);
  }

  parseTop(): ListNode {
    const root: ListNode = { type: 'list', pos: this.peek().pos, nodes: [] };
    while (this.peek().type !== Item.EOF) {
      if (this.peek().type === Item.LeftDelim) {
        const mark = this.index;
        this.next();
        if (this.nextNonSpace().type === Item.Define) {
          this.parseDefinition();
          continue;
        }
        this.index = mark;
      }
      const node = this.textOrAction();
      if (node.type === 'end' || node.type === 'else') this.fail(`unexpected {{${node.type}}}`);
      root.nodes.push(node);
    }
    return root;
  }

  /** A nested tree ({{define}}, {{block}}): its own variables and range depth. */
  private nested<T>(body: () => T): T {
    const [vars, depth] = [this.vars, this.rangeDepth];
    this.vars = ['$'];
    this.rangeDepth = 0;
    try {
      return body();
    } finally {
      this.vars = vars;
      this.rangeDepth = depth;
    }
  }

  private parseDefinition() {
    const context = 'define clause';
    const token = this.nextNonSpace();
    if (token.type !== Item.String && token.type !== Item.RawString) this.unexpected(token, context);
    const name = this.unquoted(token);
    this.expect(Item.RightDelim, context);
    this.nested(() => {
      const [list, end] = this.itemList();
      if (end.type !== 'end') this.fail(`unexpected {{${end.type}}} in ${context}`);
      this.add(name, list);
    });
  }

  private itemList(): [ListNode, Control] {
    const list: ListNode = { type: 'list', pos: this.peekNonSpace().pos, nodes: [] };
    while (this.peekNonSpace().type !== Item.EOF) {
      const node = this.textOrAction();
      if (node.type === 'end' || node.type === 'else') return [list, node];
      list.nodes.push(node);
    }
    this.fail('unexpected EOF');
  }

  private textOrAction(): Node | Control {
    const token = this.nextNonSpace();
    if (token.type === Item.Text) return { type: 'text', pos: token.pos, text: token.val };
    if (token.type === Item.LeftDelim) {
      this.actionLine = this.lineOf(token.pos);
      try {
        return this.action();
      } finally {
        this.actionLine = 0;
      }
    }
    this.unexpected(token, 'input');
  }

  private action(): Node | Control {
    const token = this.nextNonSpace();
    switch (token.type) {
      case Item.Block:
        return this.blockControl();
      case Item.Break:
      case Item.Continue: {
        const word = token.type === Item.Break ? 'break' : 'continue';
        const close = this.nextNonSpace();
        if (close.type !== Item.RightDelim) this.unexpected(close, `{{${word}}}`);
        if (this.rangeDepth === 0) this.fail(`{{${word}}} outside {{range}}`);
        return { type: word, pos: token.pos };
      }
      case Item.Else: {
        const peek = this.peekNonSpace();
        // "{{else if …}}" and "{{else with …}}" read as "{{else}}{{if …}}…{{end}}".
        if (peek.type === Item.If || peek.type === Item.With) return { type: 'else', pos: peek.pos };
        return { type: 'else', pos: this.expect(Item.RightDelim, 'else').pos };
      }
      case Item.End:
        return { type: 'end', pos: this.expect(Item.RightDelim, 'end').pos };
      case Item.If:
        return this.control('if');
      case Item.Range:
        return this.control('range');
      case Item.With:
        return this.control('with');
      case Item.Template:
        return this.templateControl();
    }
    this.backup();
    const pos = this.peek().pos;
    return { type: 'action', pos, pipe: this.pipeline('command', Item.RightDelim) };
  }

  private control<T extends 'if' | 'range' | 'with'>(context: T): BranchNode<T> {
    const mark = this.vars.length;
    try {
      const pipe = this.pipeline(context, Item.RightDelim);
      if (context === 'range') this.rangeDepth++;
      const [list, next] = this.itemList();
      if (context === 'range') this.rangeDepth--;
      let elseList: ListNode | undefined;
      if (next.type === 'else') {
        const chained = context === 'if' ? Item.If : context === 'with' ? Item.With : undefined;
        if (chained !== undefined && this.peek().type === chained) {
          this.next();
          const chainedNode: Node = context === 'if' ? this.control('if') : this.control('with');
          elseList = { type: 'list', pos: next.pos, nodes: [chainedNode] };
        } else {
          const [list2, end] = this.itemList();
          if (end.type !== 'end') this.fail(`expected end; found {{${end.type}}}`);
          elseList = list2;
        }
      }
      return { type: context, pos: pipe.pos, pipe, list, elseList };
    } finally {
      this.vars.length = mark;
    }
  }

  private blockControl(): Node {
    const context = 'block clause';
    const token = this.nextNonSpace();
    if (token.type !== Item.String && token.type !== Item.RawString) this.unexpected(token, context);
    const name = this.unquoted(token);
    const pipe = this.pipeline(context, Item.RightDelim);
    this.nested(() => {
      const [list, end] = this.itemList();
      if (end.type !== 'end') this.fail(`unexpected {{${end.type}}} in ${context}`);
      this.add(name, list);
    });
    return { type: 'template', pos: token.pos, name, pipe };
  }

  private templateControl(): Node {
    const context = 'template clause';
    const token = this.nextNonSpace();
    if (token.type !== Item.String && token.type !== Item.RawString) this.unexpected(token, context);
    const name = this.unquoted(token);
    let pipe: PipeNode | undefined;
    if (this.nextNonSpace().type !== Item.RightDelim) {
      this.backup();
      pipe = this.pipeline(context, Item.RightDelim);
    }
    return { type: 'template', pos: token.pos, name, pipe };
  }

  private pipeline(context: string, end: Item): PipeNode {
    const start = this.peekNonSpace();
    const pipe: PipeNode = { type: 'pipe', pos: start.pos, isAssign: false, decl: [], cmds: [] };
    this.declarations(pipe, context);
    for (;;) {
      const token = this.nextNonSpace();
      if (token.type === end) {
        this.checkPipeline(pipe, context);
        return pipe;
      }
      switch (token.type) {
        case Item.Bool:
        case Item.CharConstant:
        case Item.Complex:
        case Item.Dot:
        case Item.Field:
        case Item.Identifier:
        case Item.Number:
        case Item.Nil:
        case Item.RawString:
        case Item.String:
        case Item.Variable:
        case Item.LeftParen:
          this.backup();
          pipe.cmds.push(this.command());
          break;
        default:
          this.unexpected(token, context);
      }
    }
  }

  /** `$x :=`, `$x =` and range's `$i, $v :=` at the start of a pipeline. */
  private declarations(pipe: PipeNode, context: string) {
    for (;;) {
      const variable = this.peekNonSpace();
      if (variable.type !== Item.Variable) return;
      const mark = this.index;
      this.next();
      const next = this.peekNonSpace();
      if (next.type === Item.Assign || next.type === Item.Declare) {
        pipe.isAssign = next.type === Item.Assign;
        this.nextNonSpace();
        pipe.decl.push({ type: 'variable', pos: variable.pos, ident: [variable.val] });
        this.vars.push(variable.val);
        return;
      }
      if (next.type === Item.Char && next.val === ',') {
        this.nextNonSpace();
        pipe.decl.push({ type: 'variable', pos: variable.pos, ident: [variable.val] });
        this.vars.push(variable.val);
        if (context === 'range' && pipe.decl.length < 2) {
          const following = this.peekNonSpace().type;
          if (following === Item.Variable || following === Item.RightDelim || following === Item.RightParen) continue;
          this.fail('range can only initialize variables');
        }
        this.fail(`too many declarations in ${context}`);
      }
      // Not a declaration: the variable starts the first command.
      this.index = mark;
      return;
    }
  }

  private checkPipeline(pipe: PipeNode, context: string) {
    if (pipe.cmds.length === 0) this.fail(`missing value for ${context}`);
    pipe.cmds.forEach((command, index) => {
      const first = command.args[0];
      if (index > 0 && first && ['bool', 'dot', 'nil', 'number', 'string'].includes(first.type)) {
        this.fail(`non executable command in pipeline stage ${index + 1}`);
      }
    });
  }

  private command(): CommandNode {
    const command: CommandNode = { type: 'command', pos: this.peekNonSpace().pos, args: [] };
    for (;;) {
      this.peekNonSpace();
      const operand = this.operand();
      if (operand) command.args.push(operand);
      const token = this.next();
      if (token.type === Item.Space) continue;
      if (token.type === Item.RightDelim || token.type === Item.RightParen) this.backup();
      else if (token.type !== Item.Pipe) this.unexpected(token, 'operand');
      break;
    }
    if (command.args.length === 0) this.fail('empty command');
    return command;
  }

  private operand(): ArgNode | undefined {
    const node = this.term();
    if (!node) return undefined;
    if (this.peek().type !== Item.Field) return node;
    const fields: string[] = [];
    const pos = this.peek().pos;
    while (this.peek().type === Item.Field) fields.push(this.next().val.slice(1));
    switch (node.type) {
      case 'field':
        return { type: 'field', pos, ident: [...node.ident, ...fields] };
      case 'variable':
        return { type: 'variable', pos, ident: [...node.ident, ...fields] };
      case 'bool':
      case 'string':
      case 'number':
      case 'nil':
      case 'dot':
        return this.fail(`unexpected . after term ${JSON.stringify(nodeString(node))}`);
      default:
        return { type: 'chain', pos, node, field: fields };
    }
  }

  private term(): ArgNode | undefined {
    const token = this.nextNonSpace();
    switch (token.type) {
      case Item.Identifier: {
        const found = this.lookup(token.val);
        if (!found) this.fail(refusedFunction(token.val) ?? `function ${JSON.stringify(token.val)} not defined`, token.pos);
        return { type: 'identifier', pos: token.pos, name: token.val, func: found.func, builtin: found.builtin };
      }
      case Item.Dot:
        return { type: 'dot', pos: token.pos };
      case Item.Nil:
        return { type: 'nil', pos: token.pos };
      case Item.Variable:
        return this.useVar(token);
      case Item.Field:
        return { type: 'field', pos: token.pos, ident: token.val.slice(1).split('.') };
      case Item.Bool:
        return { type: 'bool', pos: token.pos, value: token.val === 'true' };
      case Item.CharConstant:
      case Item.Complex:
      case Item.Number:
        return this.number(token);
      case Item.LeftParen:
        return this.pipeline('parenthesized pipeline', Item.RightParen);
      case Item.String:
      case Item.RawString:
        return { type: 'string', pos: token.pos, quoted: token.val, text: this.unquoted(token) };
    }
    this.backup();
    return undefined;
  }

  private useVar(token: Token): VariableNode {
    const ident = token.val.split('.');
    const name = ident[0] ?? '';
    if (!this.vars.includes(name)) this.fail(`undefined variable ${JSON.stringify(name)}`, token.pos);
    return { type: 'variable', pos: token.pos, ident };
  }

  private unquoted(token: Token): string {
    const value = unquote(token.val);
    if (value === undefined) this.fail('invalid syntax', token.pos);
    return value;
  }

  /** Go's newNumber: every reading of the constant (int, uint, float) that holds. */
  private number(token: Token): NumberNode {
    const text = token.val;
    const base = { type: 'number' as const, pos: token.pos, text };
    if (token.type === Item.CharConstant) {
      const step = unquoteChar(text, 1, "'");
      if (!step || step.next !== text.length - 1) this.fail(`malformed character constant: ${text}`, token.pos);
      const code = step.value.codePointAt(0) ?? 0;
      return { ...base, isInt: true, isUint: true, isFloat: true, int: BigInt(code), float: code };
    }
    if (token.type === Item.Complex || text.endsWith('i')) this.fail(`complex constants are not supported: ${text}`, token.pos);
    const uint = parseGoUint(text);
    const int = parseGoInt(text);
    if (int !== undefined) return { ...base, isInt: true, isUint: uint !== undefined || int === 0n, isFloat: true, int, float: Number(int) };
    if (uint !== undefined) return { ...base, isInt: false, isUint: true, isFloat: true, int: 0n, float: Number(uint) };
    const float = parseGoFloat(text);
    if (float === undefined) this.fail(`illegal number syntax: ${JSON.stringify(text)}`, token.pos);
    if (!/[.eEpP]/.test(text)) this.fail(`integer overflow: ${JSON.stringify(text)}`, token.pos);
    const whole = Number.isInteger(float) && Math.abs(float) < 2 ** 63;
    return { ...base, isInt: whole, isUint: whole && float >= 0, isFloat: true, int: whole ? BigInt(float) : 0n, float };
  }
}

function describe(token: Token): string {
  if (token.type === Item.EOF) return 'EOF';
  if (token.type > Item.Keyword) return `<${token.val}>`;
  if (token.val.length > 10) return `${JSON.stringify(token.val.slice(0, 10))}...`;
  return JSON.stringify(token.val);
}
