import type { Registrar } from './support';

/**
 * The parts of cel-js's macro interface these macros use (the library does not type its checker,
 * evaluator and contexts): a syntax node, a type, the checker's and the evaluator's contexts.
 */
interface CelNode {
  op: string;
  args: unknown;
  setMeta(key: string, value: unknown): void;
}
interface CelType {
  kind: string;
  name?: string;
  keyType?: CelType;
  valueType?: CelType;
  hasPlaceholderType?: boolean;
  /** As cel-js names the type in its messages (`list<int>`). */
  toString(): string;
}
interface EvalContext {
  setIterValue(value: unknown, ev: Evaluator): EvalContext;
  getValue(name: string): unknown;
}
interface CheckContext {
  iterType?: CelType;
  forkWithVariable(name: string, type: CelType): CheckContext;
  reuse(parent: EvalContext): EvalContext;
}
interface Checker {
  intType: CelType;
  dynType: CelType;
  boolType: CelType;
  registry: { getListType(value: CelType): CelType; getMapType(key: CelType, value: CelType): CelType };
  check(node: CelNode, ctx: CheckContext): CelType;
  createError(code: string, message: string, node: CelNode): Error;
}
interface Evaluator {
  run(node: CelNode, ctx: EvalContext): unknown;
  tryEval(node: CelNode, ctx: EvalContext): unknown;
}
interface MacroCall {
  ast: CelNode;
  args: CelNode[];
  receiver: CelNode | undefined;
}

/**
 * cel-go's two-variable comprehensions (ext.TwoVarComprehensions) and cel.block (the optimizer's common
 * subexpressions), as cel-js macros:
 *
 * - `list.all(i, v, p)`, `.exists(i, v, p)`, `.existsOne(i, v, p)`: over a list `i` is the index and `v` the
 *   element, over a map `i` the key and `v` the value. all and exists short-circuit, and an error in one
 *   element is only the answer when no other element decides it; existsOne fails on any error.
 * - `.transformList(i, v, [filter,] expr)`: a list of expr for each element (that passes the filter);
 *   `.transformMap(k, v, [filter,] expr)`: a map from each key (or index) to expr.
 * - `cel.block([e0, e1, …], body)`: each slot evaluated once, in order, as `cel.index(N)` to the slots after
 *   it and to the body (syntax.ts reads `cel.index(N)` as the variable `_cel_index_N`).
 */
export function registerComprehensions(r: Registrar): void {
  for (const receiver of ['list', 'map']) {
    r.env.registerFunction(`${receiver}.all(ast, ast, ast): bool`, quantifier('all'));
    r.env.registerFunction(`${receiver}.exists(ast, ast, ast): bool`, quantifier('exists'));
    r.env.registerFunction(`${receiver}.existsOne(ast, ast, ast): bool`, quantifier('existsOne'));
    r.env.registerFunction(`${receiver}.transformList(ast, ast, ast): list<dyn>`, transform('transformList', false));
    r.env.registerFunction(`${receiver}.transformList(ast, ast, ast, ast): list<dyn>`, transform('transformList', true));
    r.env.registerFunction(`${receiver}.transformMap(ast, ast, ast): map<dyn, dyn>`, transform('transformMap', false));
    r.env.registerFunction(`${receiver}.transformMap(ast, ast, ast, ast): map<dyn, dyn>`, transform('transformMap', true));
  }
  r.names.add('.existsOne').add('.transformList').add('.transformMap');
  r.env.registerFunction('CelNamespace.block(ast, ast): dyn', block);
  r.names.add('cel.block').add('cel.index').add('cel.iterVar');
}

class MacroError extends Error {}

function variableName(node: CelNode | undefined, description: string): string {
  if (node?.op === 'id' && typeof node.args === 'string') return node.args;
  throw new MacroError(`${description}: the variables must be names`);
}

/** The two variables' types: (int, element) over a list, (key, value) over a map, dyn over dyn. */
function variableTypes(checker: Checker, receiverType: CelType, description: string, node: CelNode): [CelType, CelType] {
  if (receiverType.kind === 'list') return [checker.intType, concreteOrDyn(checker, receiverType.valueType)];
  if (receiverType.kind === 'map') return [concreteOrDyn(checker, receiverType.keyType), concreteOrDyn(checker, receiverType.valueType)];
  if (receiverType.kind === 'dyn') return [checker.dynType, checker.dynType];
  throw checker.createError('invalid_comprehension_range', `${description}: type '${receiverType.toString()}' cannot be the range of a comprehension (it takes a list or a map)`, node);
}

function concreteOrDyn(checker: Checker, type: CelType | undefined): CelType {
  return !type || type.hasPlaceholderType ? checker.dynType : type;
}

/** (index, element) pairs of a list, (key, value) of a map. */
function pairsOf(value: unknown, description: string): Array<[unknown, unknown]> {
  if (Array.isArray(value)) return value.map((item, i) => [BigInt(i), item]);
  if (value instanceof Set) return [...value].map((item, i) => [BigInt(i), item]);
  if (value instanceof Map) return [...value.entries()];
  if (typeof value === 'object' && value !== null) return Object.entries(value);
  throw new Error(`${description}: the range must be a list or a map`);
}

interface TwoVarMacro {
  ast: CelNode;
  receiver: CelNode;
  first: string;
  second: string;
  filter?: CelNode | undefined;
  expr: CelNode;
  description: string;
  outer?: CheckContext;
  inner?: CheckContext;
}

function twoVarMacro(name: string, arity: number, { ast, args, receiver }: MacroCall): TwoVarMacro {
  const description = `${name}(${arity === 4 ? 'var1, var2, filter, expr' : 'var1, var2, expr'})`;
  const first = variableName(args[0], description);
  const second = variableName(args[1], description);
  if (first === second) throw new MacroError(`${description}: the two variables must have different names`);
  const expr = args[arity - 1];
  if (!receiver || !expr) throw new MacroError(`${description}: takes a receiver and ${arity} arguments`);
  return { ast, receiver, first, second, filter: arity === 4 ? args[2] : undefined, expr, description };
}

/** The two variables' contexts, forked when the macro was checked (cel-js checks before it evaluates). */
function variableContexts(macro: TwoVarMacro): { outer: CheckContext; inner: CheckContext } {
  if (!macro.outer || !macro.inner) throw new Error(`${macro.description}: evaluated before it was checked`);
  return { outer: macro.outer, inner: macro.inner };
}

/** Checks the range and forks the two variables' contexts. */
function checkRange(checker: Checker, macro: TwoVarMacro, ctx: CheckContext): void {
  const receiverType = checker.check(macro.receiver, ctx);
  const [firstType, secondType] = variableTypes(checker, receiverType, macro.description, macro.receiver);
  macro.outer = ctx.forkWithVariable(macro.first, firstType);
  macro.inner = macro.outer.forkWithVariable(macro.second, secondType);
  macro.ast.setMeta('async', false);
}

function checkBool(checker: Checker, node: CelNode, ctx: CheckContext, description: string): void {
  const type = checker.check(node, ctx);
  if (type.kind !== 'dyn' && type.name !== 'bool') throw checker.createError('invalid_macro_argument', `${description}: the condition must be a bool, got '${type.toString()}'`, node);
}

/** Runs `each` with the two variables bound to every pair of the range, until it returns false. */
function iterate(ev: Evaluator, macro: TwoVarMacro, ctx: EvalContext, each: (inner: EvalContext) => boolean): void {
  const range = ev.run(macro.receiver, ctx);
  const contexts = variableContexts(macro);
  const outer = contexts.outer.reuse(ctx);
  const inner = contexts.inner.reuse(outer);
  for (const [first, second] of pairsOf(range, macro.description)) {
    outer.setIterValue(first, ev);
    inner.setIterValue(second, ev);
    if (!each(inner)) break;
  }
}

function quantifier(kind: 'all' | 'exists' | 'existsOne') {
  return (options: MacroCall) => ({
    ...twoVarMacro(kind, 3, options),
    typeCheck(checker: Checker, macro: TwoVarMacro, ctx: CheckContext) {
      checkRange(checker, macro, ctx);
      checkBool(checker, macro.expr, variableContexts(macro).inner, macro.description);
      return checker.boolType;
    },
    evaluate(ev: Evaluator, macro: TwoVarMacro, ctx: EvalContext) {
      let error: unknown;
      let count = 0;
      let decided: boolean | undefined;
      iterate(ev, macro, ctx, (inner) => {
        const result = kind === 'existsOne' ? ev.run(macro.expr, inner) : ev.tryEval(macro.expr, inner);
        if (result instanceof Error) {
          error ??= result;
          return true;
        }
        if (typeof result !== 'boolean') {
          error ??= new Error(`${macro.description}: the condition gave ${typeof result}, not a bool`);
          return kind !== 'existsOne';
        }
        if (kind === 'all' && !result) decided = false;
        if (kind === 'exists' && result) decided = true;
        if (kind === 'existsOne' && result) count++;
        return decided === undefined;
      });
      if (decided !== undefined) return decided;
      if (error) throw error;
      return kind === 'all' ? true : kind === 'exists' ? false : count === 1;
    },
  });
}

function transform(kind: 'transformList' | 'transformMap', filtered: boolean) {
  return (options: MacroCall) => ({
    ...twoVarMacro(kind, filtered ? 4 : 3, options),
    typeCheck(checker: Checker, macro: TwoVarMacro, ctx: CheckContext) {
      checkRange(checker, macro, ctx);
      const { outer, inner } = variableContexts(macro);
      if (macro.filter) checkBool(checker, macro.filter, inner, macro.description);
      const valueType = concreteOrDyn(checker, checker.check(macro.expr, inner));
      if (kind === 'transformList') return checker.registry.getListType(valueType);
      return checker.registry.getMapType(concreteOrDyn(checker, outer.iterType), valueType);
    },
    evaluate(ev: Evaluator, macro: TwoVarMacro, ctx: EvalContext) {
      const list: unknown[] = [];
      const map = new Map<unknown, unknown>();
      iterate(ev, macro, ctx, (inner) => {
        if (macro.filter) {
          const keep = ev.run(macro.filter, inner);
          if (typeof keep !== 'boolean') throw new Error(`${macro.description}: the filter gave ${typeof keep}, not a bool`);
          if (!keep) return true;
        }
        const value = ev.run(macro.expr, inner);
        if (kind === 'transformList') list.push(value);
        else map.set(inner.getValue(macro.first), value);
        return true;
      });
      if (kind === 'transformList') return list;
      // cel-js's maps with string keys are plain objects; keep that form when every key is a string
      return [...map.keys()].every((key) => typeof key === 'string') ? Object.fromEntries(map) : map;
    },
  });
}

interface BlockMacro {
  ast: CelNode;
  slots: CelNode[];
  body: CelNode;
  contexts: CheckContext[];
}

/** cel.block([slots…], body). */
function block({ ast, args, receiver }: MacroCall): BlockMacro & Record<string, unknown> {
  if (receiver?.op !== 'id' || receiver.args !== 'cel') throw new MacroError('unknown function .block()');
  const [list, body] = args;
  if (list?.op !== 'list') throw new MacroError('cel.block(slots, expr): the slots must be a list literal');
  if (!body) throw new MacroError('cel.block(slots, expr): the expression is missing');
  return {
    ast,
    slots: list.args as CelNode[],
    body,
    contexts: [],
    typeCheck(checker: Checker, macro: BlockMacro, ctx: CheckContext) {
      let context = ctx;
      macro.contexts = macro.slots.map((slot, i) => (context = context.forkWithVariable(`_cel_index_${i}`, concreteOrDyn(checker, checker.check(slot, context)))));
      macro.ast.setMeta('async', false);
      return checker.check(macro.body, context);
    },
    evaluate(ev: Evaluator, macro: BlockMacro, ctx: EvalContext) {
      let context = ctx;
      macro.slots.forEach((node, i) => {
        const value = ev.run(node, context);
        const slot = macro.contexts[i];
        if (!slot) throw new Error('cel.block: evaluated before it was checked');
        context = slot.reuse(context).setIterValue(value, ev);
      });
      return ev.run(macro.body, context);
    },
  };
}
