import { Duration } from '@marcbachmann/cel-js/evaluator';
import { isRecord, messageOf } from '../errors';
import { formatDuration } from '../units';
import { registerComprehensions } from './cel/comprehensions';
import { CelProblem, createCelEnvironment, knownFunctions, validateAst } from './cel/index';
import { registerOptionals } from './cel/optional';
import { rootScoped } from './cel/root-scope';
import { CelSyntaxProblem, rewriteAst } from './cel/rewrite';
import { registerStandard } from './cel/standard';
import { goMethodName, useGoStringMethods } from './cel/strings';
import { prepareSource } from './cel/syntax';
import { ExpressionError, type ExpressionPosition } from './errors';
import { propertyOf } from '../../../common/guards';

/**
 * CEL as canary-checker, config-db and Mission Control evaluate it: cel-js with cel-go's extensions and the
 * Flanksource functions (see ./cel/). Expressions compile once (parse, unknown or unsupported functions
 * refused by name, type check) and are cached.
 */
const { env: environment, registrar } = createCelEnvironment();
registerOptionals(registrar);
registerComprehensions(registrar);
registerStandard(registrar);
const known = knownFunctions(environment, registrar);

/**
 * A duration variable (http's `sslAge` and `elapsed`, like canary-checker's Go durations): compares with
 * `Duration('7d')` or `duration('168h')` and prints as 3d4h in templates.
 */
export function celDuration(ms: number): Duration {
  return Duration.fromMilliseconds(Math.round(ms));
}

type Compiled = ReturnType<typeof environment.parse>;
interface Failure {
  reason: string;
  position?: ExpressionPosition;
}
const compiled = new Map<string, Compiled | Failure>();
const CACHE_LIMIT = 5000;

/** 1-based line and column of an offset into the text. */
function positionOf(text: string, offset: number | undefined): ExpressionPosition | undefined {
  if (offset === undefined || offset < 0) return undefined;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

function offsetOf(error: unknown): number | undefined {
  const start = propertyOf(propertyOf(error, 'range'), 'start');
  return typeof start === 'number' ? start : undefined;
}

function summaryOf(error: unknown): string {
  const summary = propertyOf(error, 'summary');
  return goMethodName(firstLine(typeof summary === 'string' ? summary : messageOf(error)));
}

function build(source: string): Compiled | Failure {
  // syntax cel-js does not read, as text it does (same length: positions stay the user's); see cel/syntax.ts
  const { text: expression, marks } = prepareSource(source);
  let program: Compiled;
  try {
    program = environment.parse(rootScoped(expression));
  } catch (error) {
    return { reason: `does not parse: ${summaryOf(error)}`, position: positionOf(expression, offsetOf(error)) };
  }
  try {
    validateAst(program.ast, known);
  } catch (error) {
    if (error instanceof CelProblem) return { reason: error.message, position: positionOf(expression, error.offset) };
    throw error;
  }
  try {
    rewriteAst(program.ast, marks);
  } catch (error) {
    if (error instanceof CelSyntaxProblem) return { reason: error.message, position: positionOf(expression, error.offset) };
    throw error;
  }
  useGoStringMethods(program.ast);
  const checked = program.check();
  if (!checked.valid) return { reason: `does not type-check: ${summaryOf(checked.error)}`, position: positionOf(expression, offsetOf(checked.error)) };
  return program;
}

function compile(where: string, expression: string): Compiled {
  const entry = compiled.get(expression) ?? compileQuietly(expression);
  if (typeof entry !== 'function') throw new ExpressionError(where, expression, entry.reason, entry.position);
  return entry;
}

/**
 * Compiles a CEL expression without evaluating it: throws an ExpressionError (with the line and column) when
 * it does not parse, names an unknown or unsupported function, or does not type-check. For apply-time checks.
 */
export function checkCel(where: string, expression: string): void {
  compile(where, expression);
}

function firstLine(message: string): string {
  return message.split('\n')[0]?.trim() ?? message;
}

/** CEL integers come back as bigint; the console speaks JSON numbers. */
function toPlain(value: unknown): unknown {
  if (value instanceof Duration) return formatDuration(value.valueOf());
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (Array.isArray(value)) return value.map(toPlain);
  if (value instanceof Map) return Object.fromEntries([...value.entries()].map(([key, item]) => [String(key), toPlain(item)]));
  if (value instanceof Uint8Array || value instanceof Date) return value;
  if (isOptional(value)) return value.hasValue() ? toPlain(value.value()) : null;
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toPlain(item)]));
  return value;
}

interface OptionalValue {
  hasValue(): boolean;
  value(): unknown;
}

function isOptional(value: unknown): value is OptionalValue {
  return typeof value === 'object' && value !== null && Reflect.get(value, Symbol.toStringTag) === 'optional';
}

/**
 * Whole numbers become CEL ints so that `code >= 200 && code < 300` and `size / 1024` work as written;
 * fractions stay doubles. `json` keeps its numbers as doubles, as JSON numbers are in canary-checker.
 */
function toCel(value: unknown, depth: number): unknown {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (depth > 32) return value;
  if (Array.isArray(value)) return value.map((item) => toCel(item, depth + 1));
  if (isRecord(value) && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = depth === 0 && key === 'json' ? item : toCel(item, depth + 1);
    return out;
  }
  return value;
}

function celVariables(variables: Record<string, unknown>): Record<string, unknown> {
  const out = toCel(variables, 0);
  return isRecord(out) ? out : variables;
}

/** Evaluates a CEL expression over the check's variables. */
export function evaluateCel(where: string, expression: string, variables: Record<string, unknown>): unknown {
  const program = compile(where, expression);
  try {
    return toPlain(program(celVariables(variables)));
  } catch (error) {
    throw new ExpressionError(where, expression, summaryOf(error), positionOf(expression, offsetOf(error)));
  }
}

/** Variables converted to CEL's types once, for evaluating many expressions over the same values. */
export interface CelScope {
  readonly variables: Record<string, unknown>;
}

export function celScope(variables: Record<string, unknown>): CelScope {
  return { variables: celVariables(variables) };
}

/**
 * Whether a CEL expression is true over a prepared scope, where an error of any kind (it does not compile, it
 * reads a variable the scope lacks) means "no": for filters tried against many events, such as silences. No
 * error detail is built and no stack is captured, so a filter that does not apply costs no more than one that does.
 */
export function celIsTrue(expression: string, scope: CelScope): boolean {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const entry = compiled.get(expression) ?? compileQuietly(expression);
    return typeof entry === 'function' && entry(scope.variables) === true;
  } catch {
    return false;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function compileQuietly(expression: string): Compiled | Failure {
  const entry = build(expression);
  if (compiled.size >= CACHE_LIMIT) compiled.clear();
  compiled.set(expression, entry);
  return entry;
}

/**
 * The CEL value itself (bigint ints, doubles, Maps, optionals…) over variables already in CEL's types, with
 * no JSON conversion either way: for measuring the engine as the product configures it (the conformance
 * suite), where int, uint and double must stay apart.
 */
export function evaluateCelValue(where: string, expression: string, variables: Record<string, unknown>): unknown {
  const program = compile(where, expression);
  try {
    return program(variables);
  } catch (error) {
    throw new ExpressionError(where, expression, summaryOf(error), positionOf(expression, offsetOf(error)));
  }
}

/** A `test.expr`: must be true or false. */
export function evaluateTest(where: string, expression: string, variables: Record<string, unknown>): boolean {
  const value = evaluateCel(where, expression, variables);
  if (typeof value !== 'boolean') throw new ExpressionError(where, expression, `returned ${JSON.stringify(value)}, not true or false`);
  return value;
}
