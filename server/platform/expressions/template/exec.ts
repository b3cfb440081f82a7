import { printV } from './fmt';
import { FuncError, type GoFunc, GoStruct, isTrue, Kind, kindOf, mapKeys, type ParamType, typeName } from './kinds';
import { methodOf } from './methods';
import type { ArgNode, BranchNode, ChainNode, CommandNode, FieldNode, IdentifierNode, ListNode, Node, NumberNode, PipeNode, VariableNode } from './nodes';
import { nodeString } from './nodes';
import type { ParsedTemplate } from './parser';
import { fitsType, goTypeNames } from './exec-types';

/** A failure while executing; `pos` and `context` say which part of the template was running. */
export class ExecError extends Error {
  constructor(
    message: string,
    readonly pos: number | undefined,
    readonly context: string | undefined,
  ) {
    super(message);
  }
}

/** Go's missingVal: "no final value" in a pipeline, as opposed to a value that is missing (undefined). */
const MISSING: unique symbol = Symbol('missing');
type Final = unknown;

const enum Signal {
  None,
  Break,
  Continue,
}

/** JS recursion runs out long before Go's 100000: nested {{template}} calls stop here. */
const MAX_DEPTH = 1000;
/** Output past this size is an error: a template is a message or a field, not a bulk export. */
export const MAX_OUTPUT = 16 * 1024 * 1024;

interface Variable {
  name: string;
  value: unknown;
}

/** Runs a parsed template over data (src/text/template/exec.go), with the default missingkey option. */
export function execute(template: ParsedTemplate, data: unknown): string {
  const state = new State(template, data);
  state.walk(data, template.root);
  return state.out;
}

/**
 * A piece of a template's output: literal template text (`action: false`, also the text inside
 * {{if}}/{{range}}/{{define}} bodies), or what one action `{{…}}` printed (`action: true`).
 */
export interface OutputSegment {
  text: string;
  action: boolean;
}

/**
 * Runs a parsed template as `execute` does, but answers its output in segments: which text came from the
 * template as written and which from an action's value. Callers that put the output into a language
 * (a shell script, SQL, a URL) read the literal text for its lexical context and treat each action's
 * value as data there (as Go's html/template escapes action output by context). Adjacent literal text is
 * one segment; each action is its own.
 */
export function executeSegments(template: ParsedTemplate, data: unknown): OutputSegment[] {
  const state = new State(template, data, []);
  state.walk(data, template.root);
  return state.segments ?? [];
}

class State {
  out = '';
  private vars: Variable[];
  private depth = 0;
  /** The node being evaluated, which errors name (Go's state.at). */
  private node: Node | ArgNode | CommandNode | undefined;

  constructor(
    private readonly template: ParsedTemplate,
    data: unknown,
    /** Set when the caller asks for the output in segments (executeSegments). */
    readonly segments?: OutputSegment[],
  ) {
    this.vars = [{ name: '$', value: data }];
  }

  private at(node: Node | ArgNode | CommandNode) {
    this.node = node;
  }

  private fail(message: string, node?: Node | ArgNode | CommandNode): never {
    const where = node ?? this.node;
    throw new ExecError(message, where?.pos, where ? nodeString(where) : undefined);
  }

  private varValue(name: string): unknown {
    for (let index = this.vars.length - 1; index >= 0; index--) {
      const variable = this.vars[index];
      if (variable?.name === name) return variable.value;
    }
    return this.fail(`undefined variable: ${name}`);
  }

  private setVar(name: string, value: unknown) {
    for (let index = this.vars.length - 1; index >= 0; index--) {
      const variable = this.vars[index];
      if (variable?.name === name) {
        variable.value = value;
        return;
      }
    }
    this.fail(`undefined variable: ${name}`);
  }

  private write(text: string, action = false) {
    this.out += text;
    if (this.out.length > MAX_OUTPUT) this.fail(`output exceeds ${MAX_OUTPUT} characters`);
    if (!this.segments) return;
    const last = this.segments[this.segments.length - 1];
    if (!action && last && !last.action) last.text += text;
    else if (action || text !== '') this.segments.push({ text, action });
  }

  walk(dot: unknown, node: Node): Signal {
    switch (node.type) {
      case 'list':
        for (const child of node.nodes) {
          const signal = this.walk(dot, child);
          if (signal !== Signal.None) return signal;
        }
        return Signal.None;
      case 'text':
        this.write(node.text);
        return Signal.None;
      case 'action': {
        this.at(node);
        const value = this.evalPipeline(dot, node.pipe);
        if (node.pipe.decl.length === 0) this.printValue(node, value);
        return Signal.None;
      }
      case 'if':
      case 'with':
        return this.walkIfOrWith(dot, node);
      case 'range':
        return this.walkRange(dot, node);
      case 'template':
        return this.walkTemplate(dot, node.name, node.pipe, node);
      case 'break':
        return Signal.Break;
      case 'continue':
        return Signal.Continue;
    }
  }

  private printValue(node: Node, value: unknown) {
    if (value === undefined) {
      this.write('<no value>', true);
      return;
    }
    if (kindOf(value) === Kind.Func) this.fail(`can't print ${nodeString(node)} of type ${typeName(value)}`, node);
    this.write(printV(value), true);
  }

  private walkIfOrWith(dot: unknown, node: BranchNode<'if'> | BranchNode<'with'>): Signal {
    const mark = this.vars.length;
    try {
      const value = this.evalPipeline(dot, node.pipe);
      if (isTrue(value)) return this.walk(node.type === 'with' ? value : dot, node.list);
      if (node.elseList) return this.walk(dot, node.elseList);
      return Signal.None;
    } finally {
      this.vars.length = mark;
    }
  }

  private walkRange(dot: unknown, node: BranchNode<'range'>): Signal {
    this.at(node);
    const mark = this.vars.length;
    try {
      const value = this.evalPipeline(dot, node.pipe);
      const loopMark = this.vars.length;
      const decls = node.pipe.decl.length;
      const iterate = (index: unknown, element: unknown): Signal => {
        if (decls > 0) this.setTop(1, element);
        if (decls > 1) this.setTop(2, index);
        const signal = this.walk(element, node.list);
        this.vars.length = loopMark;
        return signal;
      };
      let ran = false;
      switch (kindOf(value)) {
        case Kind.Slice:
          if (Array.isArray(value)) {
            for (let index = 0; index < value.length; index++) {
              ran = true;
              if (iterate(BigInt(index), value[index]) === Signal.Break) break;
            }
          }
          break;
        case Kind.Map:
          if (typeof value === 'object' && value !== null) {
            const map: Record<string, unknown> = { ...value };
            for (const key of mapKeys(map)) {
              ran = true;
              if (iterate(key, map[key]) === Signal.Break) break;
            }
          }
          break;
        case Kind.Int:
          // Go 1.22: {{range 5}} counts 0 to 4.
          if (typeof value === 'bigint') {
            if (decls > 1) this.fail(`can't use ${printV(value)} to iterate over more than one variable`);
            for (let index = 0n; index < value; index++) {
              ran = true;
              if (iterate(index, index) === Signal.Break) break;
            }
          }
          break;
        case Kind.Invalid:
        case Kind.Nil:
          break;
        default:
          this.fail(`range can't iterate over ${printV(value)}`);
      }
      if (!ran && node.elseList) return this.walk(dot, node.elseList);
      return Signal.None;
    } finally {
      this.vars.length = mark;
    }
  }

  private setTop(fromTop: number, value: unknown) {
    const variable = this.vars[this.vars.length - fromTop];
    if (variable) variable.value = value;
  }

  private walkTemplate(dot: unknown, name: string, pipe: PipeNode | undefined, node: Node): Signal {
    this.at(node);
    const body = this.template.defines.get(name);
    if (!body) this.fail(`template ${JSON.stringify(name)} not defined`, node);
    if (this.depth >= MAX_DEPTH) this.fail(`exceeded maximum template depth (${MAX_DEPTH})`, node);
    const newDot = pipe ? this.evalPipeline(dot, pipe) : undefined;
    const vars = this.vars;
    this.vars = [{ name: '$', value: newDot }];
    this.depth++;
    try {
      this.walk(newDot, body);
    } catch (error) {
      // The JS stack can run out before MAX_DEPTH with deep bodies: the same error, not a crash.
      if (error instanceof RangeError) this.fail(`exceeded maximum template depth (${MAX_DEPTH})`, node);
      throw error;
    } finally {
      this.depth--;
      this.vars = vars;
    }
    return Signal.None;
  }

  private evalPipeline(dot: unknown, pipe: PipeNode): unknown {
    this.at(pipe);
    let value: Final = MISSING;
    for (const command of pipe.cmds) {
      value = this.evalCommand(dot, command, value);
      // A nil interface{} result reads as "no value", as Go's reflect.ValueOf(value.Interface()) does.
      if (value === null) value = undefined;
    }
    for (const variable of pipe.decl) {
      const name = variable.ident[0] ?? '';
      if (pipe.isAssign) this.setVar(name, value);
      else this.vars.push({ name, value });
    }
    return value;
  }

  private notAFunction(args: ArgNode[] | undefined, final: Final) {
    if ((args && args.length > 1) || final !== MISSING) {
      const first = args?.[0];
      this.fail(`can't give argument to non-function ${first ? nodeString(first) : ''}`);
    }
  }

  private evalCommand(dot: unknown, command: CommandNode, final: Final): unknown {
    const first = command.args[0];
    if (!first) return this.fail('empty command', command);
    switch (first.type) {
      case 'field':
        return this.evalFieldNode(dot, first, command.args, final);
      case 'chain':
        return this.evalChainNode(dot, first, command.args, final);
      case 'identifier':
        return this.evalFunction(dot, first, command, command.args, final);
      case 'pipe':
        this.notAFunction(command.args, final);
        return this.evalPipeline(dot, first);
      case 'variable':
        return this.evalVariableNode(dot, first, command.args, final);
    }
    this.at(first);
    this.notAFunction(command.args, final);
    switch (first.type) {
      case 'bool':
        return first.value;
      case 'dot':
        return dot;
      case 'nil':
        return this.fail('nil is not a command');
      case 'number':
        return this.idealConstant(first);
      case 'string':
        return first.text;
    }
  }

  private idealConstant(constant: NumberNode): unknown {
    const text = constant.text;
    const hexInt = text.length > 2 && text[0] === '0' && (text[1] === 'x' || text[1] === 'X') && !/[pP]/.test(text);
    if (constant.isFloat && !hexInt && text[0] !== "'" && /[.eEpP]/.test(text)) return constant.float;
    if (constant.isInt) return constant.int;
    if (constant.isUint) return this.fail(`${text} overflows int`);
    return undefined;
  }

  private evalFieldNode(dot: unknown, field: FieldNode, args: ArgNode[] | undefined, final: Final): unknown {
    this.at(field);
    return this.evalFieldChain(dot, dot, field, field.ident, args, final);
  }

  private evalChainNode(dot: unknown, chain: ChainNode, args: ArgNode[] | undefined, final: Final): unknown {
    this.at(chain);
    if (chain.node.type === 'nil') this.fail(`indirection through explicit nil in ${nodeString(chain)}`);
    const receiver = this.evalArg(dot, undefined, chain.node);
    return this.evalFieldChain(dot, receiver, chain, chain.field, args, final);
  }

  private evalVariableNode(dot: unknown, variable: VariableNode, args: ArgNode[] | undefined, final: Final): unknown {
    this.at(variable);
    const value = this.varValue(variable.ident[0] ?? '');
    if (variable.ident.length === 1) {
      this.notAFunction(args, final);
      return value;
    }
    return this.evalFieldChain(dot, value, variable, variable.ident.slice(1), args, final);
  }

  private evalFieldChain(dot: unknown, receiver: unknown, node: ArgNode, ident: string[], args: ArgNode[] | undefined, final: Final): unknown {
    let current = receiver;
    const last = ident.length - 1;
    for (let index = 0; index < last; index++) current = this.evalField(dot, ident[index] ?? '', node, undefined, MISSING, current);
    return this.evalField(dot, ident[last] ?? '', node, args, final, current);
  }

  private evalField(dot: unknown, name: string, node: ArgNode, args: ArgNode[] | undefined, final: Final, receiver: unknown): unknown {
    if (receiver === undefined) return undefined;
    if (receiver === null) return this.fail(`nil pointer evaluating interface {}.${name}`);
    const method = methodOf(receiver, name);
    if (method) return this.evalCall(dot, method, false, node, name, args, final);
    const hasArgs = (args !== undefined && args.length > 1) || final !== MISSING;
    if (receiver instanceof GoStruct) {
      if (Object.hasOwn(receiver.fields, name)) {
        if (hasArgs) this.fail(`${name} has arguments but cannot be invoked as function`);
        return receiver.fields[name];
      }
    } else if (kindOf(receiver) === Kind.Map && typeof receiver === 'object') {
      if (hasArgs) this.fail(`${name} is not a method but has arguments`);
      return Object.hasOwn(receiver, name) ? Reflect.get(receiver, name) : undefined;
    }
    // Go names the receiver's static type: data decoded from JSON sit in interface{} values.
    const kind = kindOf(receiver);
    const shown = kind === Kind.String || kind === Kind.Float || kind === Kind.Bool || kind === Kind.Slice ? 'interface {}' : typeName(receiver);
    return this.fail(`can't evaluate field ${name} in type ${shown}`);
  }

  private evalFunction(dot: unknown, node: IdentifierNode, command: ArgNode | CommandNode, args: ArgNode[] | undefined, final: Final): unknown {
    this.at(node);
    return this.evalCall(dot, node.func, node.builtin, command, node.name, args, final);
  }

  private evalCall(dot: unknown, func: GoFunc, builtin: boolean, node: ArgNode | CommandNode, name: string, args: ArgNode[] | undefined, final: Final): unknown {
    const argNodes = args ? args.slice(1) : [];
    const numIn = argNodes.length + (final === MISSING ? 0 : 1);
    const params = func.params;
    let numFixed = argNodes.length;
    if (func.variadic !== undefined) {
      numFixed = params.length;
      if (numIn < numFixed) this.fail(`wrong number of args for ${name}: want at least ${params.length} got ${argNodes.length}`);
    } else if (numIn !== params.length) {
      this.fail(`wrong number of args for ${name}: want ${params.length} got ${numIn}`);
    }

    if (builtin && (name === 'and' || name === 'or')) {
      let value: unknown;
      for (const arg of argNodes) {
        value = this.evalArg(dot, 'value', arg);
        if (isTrue(value) === (name === 'or')) return value;
      }
      if (final !== MISSING) value = final;
      return value;
    }

    const argv: unknown[] = new Array<unknown>(numIn);
    let index = 0;
    for (; index < numFixed && index < argNodes.length; index++) argv[index] = this.evalArg(dot, params[index], argNodes[index]);
    if (func.variadic !== undefined) {
      for (; index < argNodes.length; index++) argv[index] = this.evalArg(dot, func.variadic, argNodes[index]);
    }
    if (final !== MISSING) {
      let type: ParamType | undefined = params[params.length - 1];
      if (func.variadic !== undefined) type = numIn - 1 < numFixed ? params[numIn - 1] : func.variadic;
      argv[index] = this.validateType(final, type ?? 'any');
    }
    try {
      return func.call(argv, this.vars[0]?.value);
    } catch (error) {
      if (error instanceof ExecError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new ExecError(`error calling ${name}: ${message}`, node.pos, nodeString(node));
    }
  }

  /** Go's validateType: a value for a parameter of `type`, converted or refused. */
  private validateType(value: unknown, type: ParamType | undefined): unknown {
    if (type === undefined || type === 'value') return value;
    if (value === undefined) {
      switch (type) {
        case 'any':
          return null;
        case 'map':
          return {};
        case 'list':
          return [];
        default:
          return this.fail(`invalid value; expected ${goTypeNames[type]}`);
      }
    }
    if (type === 'any') return value;
    if (fitsType(type, value)) return value;
    return this.fail(`wrong type for value; expected ${goTypeNames[type]}; got ${typeName(value)}`);
  }

  /** Go's evalArg: an argument node evaluated for a parameter of `type` (undefined: no type, as for a chain's receiver). */
  private evalArg(dot: unknown, type: ParamType | undefined, node: ArgNode | undefined): unknown {
    if (!node) return this.fail('missing argument');
    this.at(node);
    switch (node.type) {
      case 'dot':
        return this.validateType(dot, type);
      case 'nil':
        if (type === undefined || type === 'value') return undefined;
        if (type === 'any') return null;
        if (type === 'map') return {};
        if (type === 'list') return [];
        return this.fail(`cannot assign nil to ${goTypeNames[type]}`);
      case 'field':
        return this.validateType(this.evalFieldNode(dot, node, [node], MISSING), type);
      case 'variable':
        return this.validateType(this.evalVariableNode(dot, node, undefined, MISSING), type);
      case 'pipe':
        return this.validateType(this.evalPipeline(dot, node), type);
      case 'identifier':
        return this.validateType(this.evalFunction(dot, node, node, undefined, MISSING), type);
      case 'chain':
        return this.validateType(this.evalChainNode(dot, node, undefined, MISSING), type);
    }
    switch (type) {
      case 'bool':
        if (node.type === 'bool') return node.value;
        return this.fail(`expected bool; found ${nodeString(node)}`);
      case 'float':
        if (node.type === 'number' && node.isFloat) return node.float;
        return this.fail(`expected float; found ${nodeString(node)}`);
      case 'int':
        if (node.type === 'number' && node.isInt) return node.int;
        return this.fail(`expected integer; found ${nodeString(node)}`);
      case 'string':
        if (node.type === 'string') return node.text;
        return this.fail(`expected string; found ${nodeString(node)}`);
      case 'any':
      case 'value':
      case undefined:
        switch (node.type) {
          case 'bool':
            return node.value;
          case 'number':
            return this.idealConstant(node);
          case 'string':
            return node.text;
        }
    }
    return this.fail(`can't handle ${nodeString(node)} for arg of type ${type ? goTypeNames[type] : 'nil'}`);
  }
}
