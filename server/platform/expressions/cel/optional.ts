import { Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { celEquals, fail, isMap, type Registrar } from './support';

/* eslint-disable @typescript-eslint/no-explicit-any -- cel-js's macro interface (checker, evaluator, context) is untyped */

/**
 * What cel-go's optional types have beyond cel-js's (`?.`, `[?]`, `optional.of/none`, `.or`, `.orValue`,
 * `.hasValue`, `.value`): `optional.ofNonZeroValue(x)`, the `.optMap(v, expr)` and `.optFlatMap(v, expr)`
 * macros, and `==` / `!=` between optionals. Optional list and map entries (`[?x]`, `{?k: v}`) need the parser
 * and are not here.
 */
export function registerOptionals(r: Registrar): void {
  r.env.registerFunction('OptionalNamespace.ofNonZeroValue(A): optional<A>', (_ns: unknown, value: unknown) => (isZeroValue(value) ? Optional.none() : Optional.of(value)));
  r.names.add('optional.ofNonZeroValue');
  r.env.registerOperator('optional<A> == optional<A>', (a: Optional, b: Optional) => (a.hasValue() && b.hasValue() ? celEquals(a.value(), b.value()) : a.hasValue() === b.hasValue()));
  r.env.registerFunction('optional.optMap(ast, ast): optional<dyn>', optionalMacro('optMap', false));
  r.env.registerFunction('optional.optFlatMap(ast, ast): optional<dyn>', optionalMacro('optFlatMap', true));
  r.names.add('.optMap').add('.optFlatMap');
}

/** CEL's zero values: null, false, 0, 0u, 0.0, '', b'', [], {}, duration(0) and the zero timestamp (year 1). */
function isZeroValue(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === 0n || value === '') return true;
  if (value instanceof UnsignedInt) return value.valueOf() === 0n;
  if (value instanceof Uint8Array || Array.isArray(value)) return value.length === 0;
  if (value instanceof Duration) return value.seconds === 0n && value.nanos === 0;
  if (value instanceof Date) return value.getTime() === -62135596800000;
  if (value instanceof Map) return value.size === 0;
  if (value instanceof Optional) return false;
  if (isMap(value)) return Object.keys(value).length === 0;
  return false;
}

/**
 * `opt.optMap(v, expr)`: none stays none, a value is bound to v and the result of expr wrapped in an optional;
 * `opt.optFlatMap(v, expr)`: the same, but expr must itself give an optional, which is the result.
 */
function optionalMacro(name: string, flat: boolean) {
  const description = `optional.${name}(var, expr)`;
  return ({ ast, args, receiver }: { ast: any; args: any[]; receiver: any }) => {
    const variable = args[0];
    if (variable?.op !== 'id' || typeof variable.args !== 'string') return fail(`${description}: the first argument must be a variable name`);
    return {
      ast,
      receiver,
      var: variable.args as string,
      exp: args[1],
      bindCtx: undefined as any,
      typeCheck(checker: any, macro: any, ctx: any) {
        const type = checker.check(macro.receiver, ctx);
        if (type.kind !== 'optional' && type.kind !== 'dyn') throw checker.createError('optional_expected', `${description} receiver must be optional, got '${type}'`, macro.receiver);
        macro.bindCtx = ctx.forkWithVariable(macro.var, type.kind === 'optional' ? type.valueType : type);
        const result = checker.check(macro.exp, macro.bindCtx);
        if (flat && result.kind !== 'optional' && result.kind !== 'dyn') throw checker.createError('optional_expected', `${description} expression must be optional, got '${result}'`, macro.exp);
        if (!macro.receiver.maybeAsync && !macro.exp.maybeAsync) macro.ast.setMeta('async', false);
        return flat ? result : checker.getType('optional');
      },
      evaluate(ev: any, macro: any, ctx: any) {
        const run = (optional: unknown) => {
          if (!(optional instanceof Optional)) return fail(`${description} receiver must be optional`);
          if (!optional.hasValue()) return Optional.none();
          const result = ev.run(macro.exp, macro.bindCtx.reuse(ctx).setIterValue(optional.value(), ev));
          const wrap = (value: unknown) => {
            if (!flat) return Optional.of(value);
            return value instanceof Optional ? value : fail(`${description} expression must give an optional`);
          };
          return result instanceof Promise ? result.then(wrap) : wrap(result);
        };
        const value = ev.run(macro.receiver, ctx);
        return value instanceof Promise ? value.then(run) : run(value);
      },
    };
  };
}
