// cel-js as the product runs it, for cel-conformance.test.ts. Kept apart from engines.ts so that the engine
// comparison (bench/expressions.ts) does not load the product's expression layer.
import { evaluateCel } from '../../server/platform/expressions';
import type { EngineAdapter, Neutral } from './cel-conformance';
import { celJsAdapter, toCelJs } from './engines';

/**
 * cel-js as the product runs it: through evaluateCel, so the functions the product registers count. evaluateCel
 * hands back JSON-like values (ints and doubles both become numbers, big ints and durations strings), so only
 * a result that is a bool, null or an error is taken from it as is; any other result is computed again on celJs
 * for its CEL type (a string result is kept when only the product can compute it). Cases binding a
 * whole-number double go to celJs directly: evaluateCel reads whole numbers as ints.
 */
export function productAdapter(engine = celJsAdapter()): EngineAdapter {
  return {
    name: '@marcbachmann/cel-js via evaluateCel',
    evaluate(expr, bindings, context) {
      if (Object.values(bindings).some(hasWholeDouble)) return engine.evaluate(expr, bindings, context);
      const variables: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(bindings)) variables[key] = toCelJs(value);
      const result = evaluateCel('conformance', expr, variables);
      if (result === null || typeof result === 'boolean') return result;
      if (typeof result === 'string') {
        // A string may be evaluateCel's form of a big int or a duration: celJs says which, unless the
        // expression needs a function only the product registers.
        try {
          return engine.evaluate(expr, bindings, context);
        } catch {
          return result;
        }
      }
      return engine.evaluate(expr, bindings, context);
    },
  };
}

function hasWholeDouble(value: Neutral): boolean {
  if (typeof value === 'number') return Number.isInteger(value);
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return false;
  if ('list' in value) return value.list.some(hasWholeDouble);
  if ('map' in value) return value.map.some(([key, item]) => hasWholeDouble(key) || hasWholeDouble(item));
  return false;
}
