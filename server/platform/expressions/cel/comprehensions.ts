import type { Registrar } from './support';

/* eslint-disable @typescript-eslint/no-explicit-any -- cel-js's macro interface (checker, evaluator, context) is untyped */

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

function variableName(node: any, description: string): string {
  if (node?.op === 'id' && typeof node.args === 'string') return node.args;
  throw new MacroError(`${description}: the variables must be names`);
}

/** The two variables' types: (int, element) over a list, (key, value) over a map, dyn over dyn. */
function variableTypes(checker: any, receiverType: any, description: string, node: any): [any, any] {
  if (receiverType.kind === 'list') return [checker.intType, concreteOrDyn(checker, receiverType.valueType)];
  if (receiverType.kind === 'map') return [concreteOrDyn(checker, receiverType.keyType), concreteOrDyn(checker, receiverType.valueType)];
  if (receiverType.kind === 'dyn') return [checker.dynType, checker.dynType];
  throw checker.createError('invalid_comprehension_range', `${description}: type '${receiverType}' cannot be the range of a comprehension (it takes a list or a map)`, node);
}

function concreteOrDyn(checker: any, type: any): any {
  return type?.hasPlaceholderType ? checker.dynType : type;
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
  ast: any;
  receiver: any;
  first: string;
  second: string;
  filter?: any;
  expr: any;
  description: string;
  outer?: any;
  inner?: any;
}

function twoVarMacro(name: string, arity: number, { ast, args, receiver }: { ast: any; args: any[]; receiver: any }): TwoVarMacro {
  const description = `${name}(${arity === 4 ? 'var1, var2, filter, expr' : 'var1, var2, expr'})`;
  const first = variableName(args[0], description);
  const second = variableName(args[1], description);
  if (first === second) throw new MacroError(`${description}: the two variables must have different names`);
  return { ast, receiver, first, second, filter: arity === 4 ? args[2] : undefined, expr: args[arity - 1], description };
}

/** Checks the range and forks the two variables' contexts. */
function checkRange(checker: any, macro: TwoVarMacro, ctx: any): void {
  const receiverType = checker.check(macro.receiver, ctx);
  const [firstType, secondType] = variableTypes(checker, receiverType, macro.description, macro.receiver);
  macro.outer = ctx.forkWithVariable(macro.first, firstType);
  macro.inner = macro.outer.forkWithVariable(macro.second, secondType);
  macro.ast.setMeta('async', false);
}

function checkBool(checker: any, node: any, ctx: any, description: string): void {
  const type = checker.check(node, ctx);
  if (type.kind !== 'dyn' && type.name !== 'bool') throw checker.createError('invalid_macro_argument', `${description}: the condition must be a bool, got '${type}'`, node);
}

/** Runs `each` with the two variables bound to every pair of the range, until it returns false. */
function iterate(ev: any, macro: TwoVarMacro, ctx: any, each: (inner: any) => boolean): void {
  const range = ev.run(macro.receiver, ctx);
  const outer = macro.outer.reuse(ctx);
  const inner = macro.inner.reuse(outer);
  for (const [first, second] of pairsOf(range, macro.description)) {
    outer.setIterValue(first, ev);
    inner.setIterValue(second, ev);
    if (!each(inner)) break;
  }
}

function quantifier(kind: 'all' | 'exists' | 'existsOne') {
  return (options: { ast: any; args: any[]; receiver: any }) => ({
    ...twoVarMacro(kind, 3, options),
    typeCheck(checker: any, macro: TwoVarMacro, ctx: any) {
      checkRange(checker, macro, ctx);
      checkBool(checker, macro.expr, macro.inner, macro.description);
      return checker.boolType;
    },
    evaluate(ev: any, macro: TwoVarMacro, ctx: any) {
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
  return (options: { ast: any; args: any[]; receiver: any }) => ({
    ...twoVarMacro(kind, filtered ? 4 : 3, options),
    typeCheck(checker: any, macro: TwoVarMacro, ctx: any) {
      checkRange(checker, macro, ctx);
      if (macro.filter) checkBool(checker, macro.filter, macro.inner, macro.description);
      const valueType = concreteOrDyn(checker, checker.check(macro.expr, macro.inner));
      if (kind === 'transformList') return checker.registry.getListType(valueType);
      return checker.registry.getMapType(concreteOrDyn(checker, macro.outer.iterType), valueType);
    },
    evaluate(ev: any, macro: TwoVarMacro, ctx: any) {
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
  ast: any;
  slots: any[];
  body: any;
  contexts: any[];
}

/** cel.block([slots…], body). */
function block({ ast, args, receiver }: { ast: any; args: any[]; receiver: any }): BlockMacro & Record<string, unknown> {
  if (receiver?.op !== 'id' || receiver.args !== 'cel') throw new MacroError('unknown function .block()');
  const [list, body] = args;
  if (list?.op !== 'list') throw new MacroError('cel.block(slots, expr): the slots must be a list literal');
  return {
    ast,
    slots: list.args as any[],
    body,
    contexts: [],
    typeCheck(checker: any, macro: BlockMacro, ctx: any) {
      let context = ctx;
      macro.contexts = macro.slots.map((slot, i) => (context = context.forkWithVariable(`_cel_index_${i}`, concreteOrDyn(checker, checker.check(slot, context)))));
      macro.ast.setMeta('async', false);
      return checker.check(macro.body, context);
    },
    evaluate(ev: any, macro: BlockMacro, ctx: any) {
      let context = ctx;
      for (let i = 0; i < macro.slots.length; i++) {
        const value = ev.run(macro.slots[i], context);
        context = macro.contexts[i].reuse(context).setIterValue(value, ev);
      }
      return ev.run(macro.body, context);
    },
  };
}
