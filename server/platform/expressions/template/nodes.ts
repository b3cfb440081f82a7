import type { GoFunc } from './kinds';

/** The parse tree of Go's text/template (src/text/template/parse/node.go); `pos` is an offset in the text. */
export type Node = TextNode | ActionNode | IfNode | RangeNode | WithNode | TemplateNode | BreakNode | ContinueNode | ListNode;

export interface ListNode {
  readonly type: 'list';
  readonly pos: number;
  readonly nodes: Node[];
}

export interface TextNode {
  readonly type: 'text';
  readonly pos: number;
  readonly text: string;
}

export interface ActionNode {
  readonly type: 'action';
  readonly pos: number;
  readonly pipe: PipeNode;
}

/** if, range and with share this shape: a pipeline, a body and an optional else. */
export interface BranchNode<T extends 'if' | 'range' | 'with'> {
  readonly type: T;
  readonly pos: number;
  readonly pipe: PipeNode;
  readonly list: ListNode;
  readonly elseList: ListNode | undefined;
}

export type IfNode = BranchNode<'if'>;
export type RangeNode = BranchNode<'range'>;
export type WithNode = BranchNode<'with'>;

export interface TemplateNode {
  readonly type: 'template';
  readonly pos: number;
  readonly name: string;
  readonly pipe: PipeNode | undefined;
}

export interface BreakNode {
  readonly type: 'break';
  readonly pos: number;
}

export interface ContinueNode {
  readonly type: 'continue';
  readonly pos: number;
}

export interface PipeNode {
  readonly type: 'pipe';
  readonly pos: number;
  isAssign: boolean;
  readonly decl: VariableNode[];
  readonly cmds: CommandNode[];
}

export interface CommandNode {
  readonly type: 'command';
  readonly pos: number;
  readonly args: ArgNode[];
}

/** What can stand as an argument of a command. */
export type ArgNode = FieldNode | VariableNode | ChainNode | IdentifierNode | DotNode | NilNode | BoolNode | NumberNode | StringNode | PipeNode;

export interface FieldNode {
  readonly type: 'field';
  readonly pos: number;
  readonly ident: string[];
}

export interface VariableNode {
  readonly type: 'variable';
  readonly pos: number;
  readonly ident: string[];
}

export interface ChainNode {
  readonly type: 'chain';
  readonly pos: number;
  readonly node: ArgNode;
  readonly field: string[];
}

export interface IdentifierNode {
  readonly type: 'identifier';
  readonly pos: number;
  readonly name: string;
  /** Resolved when parsed: the function table is fixed, as a Go template's funcs are at Parse. */
  readonly func: GoFunc;
  readonly builtin: boolean;
}

export interface DotNode {
  readonly type: 'dot';
  readonly pos: number;
}

export interface NilNode {
  readonly type: 'nil';
  readonly pos: number;
}

export interface BoolNode {
  readonly type: 'bool';
  readonly pos: number;
  readonly value: boolean;
}

/** A numeric constant with every reading Go gives it: as an int, a uint and a float. */
export interface NumberNode {
  readonly type: 'number';
  readonly pos: number;
  readonly text: string;
  readonly isInt: boolean;
  readonly isUint: boolean;
  readonly isFloat: boolean;
  readonly int: bigint;
  readonly float: number;
}

export interface StringNode {
  readonly type: 'string';
  readonly pos: number;
  readonly quoted: string;
  readonly text: string;
}

/** Go's Node.String(): the source form, used in error messages as `<.a.b>`. */
export function nodeString(node: Node | ArgNode | CommandNode): string {
  switch (node.type) {
    case 'field':
      return `.${node.ident.join('.')}`;
    case 'variable':
      return node.ident.join('.');
    case 'chain': {
      const inner = node.node.type === 'pipe' ? `(${nodeString(node.node)})` : nodeString(node.node);
      return `${inner}.${node.field.join('.')}`;
    }
    case 'identifier':
      return node.name;
    case 'dot':
      return '.';
    case 'nil':
      return 'nil';
    case 'bool':
      return String(node.value);
    case 'number':
      return node.text;
    case 'string':
      return node.quoted;
    case 'pipe': {
      const decl = node.decl.length > 0 ? `${node.decl.map(nodeString).join(', ')} ${node.isAssign ? '=' : ':='} ` : '';
      return decl + node.cmds.map(nodeString).join(' | ');
    }
    case 'command':
      return node.args.map((arg) => (arg.type === 'pipe' ? `(${nodeString(arg)})` : nodeString(arg))).join(' ');
    case 'text':
      return node.text.length > 10 ? `${JSON.stringify(node.text.slice(0, 10))}...` : JSON.stringify(node.text);
    case 'action':
      return `{{${nodeString(node.pipe)}}}`;
    case 'if':
    case 'range':
    case 'with':
      return `{{${node.type} ${nodeString(node.pipe)}}}`;
    case 'template':
      return `{{template ${JSON.stringify(node.name)}${node.pipe ? ` ${nodeString(node.pipe)}` : ''}}}`;
    case 'break':
      return '{{break}}';
    case 'continue':
      return '{{continue}}';
    case 'list':
      return node.nodes.map(nodeString).join('');
  }
}
