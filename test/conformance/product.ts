// cel-js as the product runs it, for cel-conformance.test.ts. Kept apart from engines.ts so that the engine
// comparison (bench/expressions.ts) does not load the product's expression layer.
import { evaluateCelValue } from '../../server/platform/expressions/cel';
import type { EngineAdapter, Neutral } from './cel-conformance';
import { fromCelJs, toCelJs } from './engines';

/**
 * cel-js as the product runs it: the product's environment (every function it registers, its options) through
 * evaluateCelValue, which takes and gives CEL's own values, so int, uint and double stay apart as the suite
 * needs. Variables go in as celJs's adapter makes them.
 */
export function productAdapter(): EngineAdapter {
  return {
    name: '@marcbachmann/cel-js as the product configures it',
    evaluate(expr, bindings) {
      const variables: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(bindings)) variables[key] = toCelJs(value);
      return fromCelJs(evaluateCelValue('conformance', expr, variables));
    },
  };
}
