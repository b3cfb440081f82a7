// The two CEL engines as conformance adapters (see cel-conformance.ts for the neutral value form).
//
// (productAdapter, cel-js through evaluateCel, is in product.ts.)
// celJs: @marcbachmann/cel-js, the engine in production, with the options server/platform/expressions/cel.ts
//   builds its Environment with (every variable dyn, mixed list and map literals). Declared variable types
//   and the case's container are not passed: the product declares none and has no protobuf packages.
// bufCel: @bufbuild/cel with its strings extension, the conformance test registry (the test messages) and
//   the case's container as namespace — the engine at its best, for the comparison.
import { celEnv, celUint, isCelError, isCelList, isCelMap, isCelType, isCelUint, parse as bufParse, plan, type CelInput, type CelValue } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { create, isMessage, type Message } from '@bufbuild/protobuf';
import { DurationSchema, TimestampSchema } from '@bufbuild/protobuf/wkt';
import { getTestRegistry } from '@bufbuild/cel-spec/testdata/registry.js';
import { Environment } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { fromMessage, type EngineAdapter, type Neutral } from './cel-conformance';

class Unsupported extends Error {}

// ── @marcbachmann/cel-js ────────────────────────────────────────────────────────────────────────────

/** The Environment options of server/platform/expressions/cel.ts. */
export function celJsEnvironment(): Environment {
  return new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false });
}

export function toCelJs(value: Neutral): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  if ('uint' in value) return new UnsignedInt(value.uint);
  if ('list' in value) return value.list.map(toCelJs);
  if ('map' in value) return new Map(value.map.map(([key, item]) => [toCelJs(key), toCelJs(item)]));
  if ('duration' in value) return new Duration(value.duration.seconds, value.duration.nanos);
  if ('timestamp' in value) return new Date(Number(value.timestamp.seconds) * 1000 + Math.floor(value.timestamp.nanos / 1e6));
  if ('enum' in value) return BigInt(value.value);
  throw new Unsupported(`cel-js has no value for ${'type' in value ? 'a type binding' : `protobuf message ${value.message}`}`);
}

export function fromCelJs(value: unknown): Neutral {
  if (value === null || typeof value === 'boolean' || typeof value === 'string' || typeof value === 'bigint' || typeof value === 'number' || value instanceof Uint8Array) return value;
  if (value instanceof UnsignedInt) return { uint: BigInt(value.value) };
  if (value instanceof Duration) return { duration: { seconds: value.seconds, nanos: value.nanos } };
  if (value instanceof Date) {
    const ms = value.getTime();
    const seconds = Math.floor(ms / 1000);
    return { timestamp: { seconds: BigInt(seconds), nanos: (ms - seconds * 1000) * 1e6 } };
  }
  if (Array.isArray(value)) return { list: value.map(fromCelJs) };
  if (value instanceof Map) return { map: [...value.entries()].map(([key, item]) => [fromCelJs(key), fromCelJs(item)]) };
  if (typeof value === 'object' && value.constructor?.name === 'Type') return { type: String((value as { name: string }).name) };
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    // cel-js returns a map literal as a plain object: its keys are strings whatever they were written as.
    return { map: Object.entries(value).map(([key, item]) => [key, fromCelJs(item)]) };
  }
  throw new Unsupported(`cel-js returned ${Object.prototype.toString.call(value)}`);
}

export function celJsAdapter(environment = celJsEnvironment()): EngineAdapter {
  return {
    name: '@marcbachmann/cel-js',
    evaluate(expr, bindings) {
      const program = environment.parse(expr);
      const variables: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(bindings)) variables[key] = toCelJs(value);
      return fromCelJs(program(variables));
    },
  };
}

// ── @bufbuild/cel ───────────────────────────────────────────────────────────────────────────────────

const registry = getTestRegistry();

function toBuf(value: Neutral): CelInput {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  if ('uint' in value) return celUint(value.uint);
  if ('list' in value) return value.list.map(toBuf);
  if ('map' in value) return new Map(value.map.map(([key, item]) => [toBuf(key) as string, toBuf(item)]));
  if ('duration' in value) return create(DurationSchema, value.duration);
  if ('timestamp' in value) return create(TimestampSchema, value.timestamp);
  if ('enum' in value) return BigInt(value.value);
  if ('message' in value) return value.value as CelInput;
  throw new Unsupported('@bufbuild/cel adapter has no input for a type binding');
}

function fromBuf(value: CelValue): Neutral {
  if (value === null || typeof value === 'boolean' || typeof value === 'string' || typeof value === 'bigint' || typeof value === 'number' || value instanceof Uint8Array) return value;
  if (isCelUint(value)) return { uint: value.value };
  if (isCelList(value)) return { list: [...value].map(fromBuf) };
  if (isCelMap(value)) return { map: [...value.entries()].map(([key, item]) => [fromBuf(key), fromBuf(item)]) };
  if (isCelType(value)) return { type: value.name };
  const reflected = value as unknown as { message?: Message };
  if (reflected.message && isMessage(reflected.message)) return fromMessage(reflected.message);
  if (isMessage(value)) return fromMessage(value);
  throw new Unsupported(`@bufbuild/cel returned ${Object.prototype.toString.call(value)}`);
}

export function bufCelAdapter(): EngineAdapter {
  const environments = new Map<string, ReturnType<typeof celEnv>>();
  const environment = (namespace: string) => {
    let env = environments.get(namespace);
    if (!env) environments.set(namespace, (env = celEnv({ namespace, registry, funcs: strings })));
    return env;
  };
  return {
    name: '@bufbuild/cel',
    evaluate(expr, bindings, context) {
      const program = plan(environment(context.container), bufParse(expr));
      const input: Record<string, CelInput> = {};
      for (const [key, value] of Object.entries(bindings)) input[key] = toBuf(value);
      const result = program(input);
      if (isCelError(result)) throw new Error(result.message);
      return fromBuf(result);
    },
  };
}
