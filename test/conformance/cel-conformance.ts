// The CEL conformance suite (google/cel-spec's `simple` test files, as shipped in @bufbuild/cel-spec) run
// against any engine through a small adapter. Used by cel-conformance.test.ts (our engine, with a skip list)
// and bench/expressions.ts (our engine and @bufbuild/cel side by side).
//
// Values. Every expected value and binding is turned into one neutral JS form, and each adapter turns its
// engine's results into the same form:
//   int → bigint · double → number · uint → { uint: bigint } · string · bool · null · bytes → Uint8Array
//   list → { list: [...] } · map → { map: [[key, value], ...] } · type → { type: 'int' }
//   duration / timestamp → { duration | timestamp: { seconds: bigint, nanos: number } }
//   enum → { enum: type, value } · any other protobuf message → { message: typeName, value: Message }
// Wrapper, Struct, Value and ListValue messages become the CEL value they stand for, as CEL defines.
//
// Comparison rule. A case passes when the engine returns a value of the same CEL type that is equal:
// int, uint and double never match each other (1 ≠ 1u ≠ 1.0); doubles compare exactly, NaN matching NaN;
// maps ignore entry order; durations and timestamps compare to the nanosecond; an expected enum also matches
// the int of the same number (CEL's legacy enum semantics). A case expecting an error (evalError or
// anyEvalErrors) passes on any error, raised at compile or evaluation time: the spec's error messages are
// implementation-specific. A case with no result matcher expects `true`. Cases that only type-check
// (checkOnly, or a typedResult without a value) are not evaluation cases and are left out of the totals.
import { equals, type Message, type Registry } from '@bufbuild/protobuf';
import { anyUnpack, type Any } from '@bufbuild/protobuf/wkt';
import type { Type } from '@bufbuild/cel-spec/cel/expr/checked_pb.js';
import type { Value } from '@bufbuild/cel-spec/cel/expr/value_pb.js';
import type { SimpleTest } from '@bufbuild/cel-spec/cel/expr/conformance/test/simple_pb.js';
import { getTestRegistry } from '@bufbuild/cel-spec/testdata/registry.js';
import { getConformanceSuite } from '@bufbuild/cel-spec/testdata/tests.js';

export type Neutral =
  | null
  | boolean
  | string
  | bigint
  | number
  | Uint8Array
  | { uint: bigint }
  | { list: Neutral[] }
  | { map: Array<[Neutral, Neutral]> }
  | { type: string }
  | { duration: { seconds: bigint; nanos: number } }
  | { timestamp: { seconds: bigint; nanos: number } }
  | { enum: string; value: number }
  | { message: string; value: Message };

/** What an engine sees of a case besides its expression. */
export interface CaseContext {
  /** The protobuf package names resolve in (`container`), empty when none. */
  container: string;
  /** Declared variable types (name → CEL type name), when the case declares them. */
  types: Record<string, string>;
  /** False when the case asks to be run without type-checking (disableCheck). */
  check: boolean;
}

export interface EngineAdapter {
  name: string;
  /** Compiles and evaluates; throws on any compile or evaluation error; returns the result in neutral form. */
  evaluate(expr: string, bindings: Record<string, Neutral>, context: CaseContext): Neutral;
}

export interface ConformanceCase {
  /** `file/section/name`, unique. */
  id: string;
  file: string;
  expr: string;
  context: CaseContext;
  /** Undefined when a binding cannot be represented (an error or unknown binding). */
  bindings: Record<string, Neutral> | undefined;
  expected: { value: Neutral } | { error: true };
  /** The case involves protobuf messages (a message type in the expression, bindings or result, or a container). */
  usesProtobuf: boolean;
}

export interface FileReport {
  file: string;
  passed: number;
  failed: number;
}

export interface ConformanceReport {
  engine: string;
  total: number;
  passed: number;
  files: FileReport[];
  /** Failing case ids, with what went wrong. */
  failures: Map<string, string>;
  /** The same figures over the cases that use no protobuf messages. */
  withoutProtobuf: { total: number; passed: number };
}

const registry: Registry = getTestRegistry();
let cases: ConformanceCase[] | undefined;

/** Every evaluation case of every simple test file, in file order. */
export function conformanceCases(): ConformanceCase[] {
  if (cases) return cases;
  cases = [];
  for (const file of getConformanceSuite().suites) {
    for (const section of file.suites) {
      for (const test of section.tests) {
        const converted = toCase(file.name, section.name, test.name, test.original);
        if (converted) cases.push(converted);
      }
    }
  }
  // A few names repeat within a section (e.g. dynamic/float/field_assign_proto2_subnorm): the second is `…#2`.
  const seen = new Map<string, number>();
  for (const item of cases) {
    const count = (seen.get(item.id) ?? 0) + 1;
    seen.set(item.id, count);
    if (count > 1) item.id = `${item.id}#${count}`;
  }
  return cases;
}

function toCase(file: string, section: string, name: string, test: SimpleTest): ConformanceCase | undefined {
  if (test.checkOnly) return undefined;
  let expected: ConformanceCase['expected'];
  const matcher = test.resultMatcher;
  switch (matcher.case) {
    case undefined:
      expected = { value: true };
      break;
    case 'value':
      expected = { value: fromValue(matcher.value) };
      break;
    case 'typedResult':
      if (!matcher.value.result) return undefined;
      expected = { value: fromValue(matcher.value.result) };
      break;
    case 'evalError':
    case 'anyEvalErrors':
      expected = { error: true };
      break;
    default:
      return undefined; // unknown / anyUnknowns: partial evaluation, which neither engine offers
  }
  let bindings: Record<string, Neutral> | undefined = {};
  for (const [key, exprValue] of Object.entries(test.bindings)) {
    if (exprValue.kind.case !== 'value') {
      bindings = undefined;
      break;
    }
    bindings[key] = fromValue(exprValue.kind.value);
  }
  const types: Record<string, string> = {};
  for (const decl of test.typeEnv) if (decl.declKind.case === 'ident' && decl.declKind.value.type) types[decl.name] = typeName(decl.declKind.value.type);
  const usesProtobuf =
    test.container !== '' ||
    /\b(TestAllTypes|NestedTestAllTypes|GlobalEnum|NestedEnum|google\.protobuf\.|cel\.expr\.)/.test(test.expr) ||
    containsMessage(expected) ||
    Object.values(bindings ?? {}).some(containsMessage) ||
    Object.values(types).some((type) => type.includes('.'));
  return {
    id: `${file}/${section}/${name}`,
    file,
    expr: test.expr,
    context: { container: test.container, types, check: !test.disableCheck },
    bindings,
    expected,
    usesProtobuf,
  };
}

function containsMessage(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return false;
  if ('message' in value || 'enum' in value) return true;
  return Object.values(value).some((item) => (Array.isArray(item) ? item.some(containsMessage) : containsMessage(item)));
}

/** A cel.expr.Type as written in CEL (`int`, `list(dyn)`, `cel.expr.conformance.proto3.TestAllTypes`). */
function typeName(type: Type | undefined): string {
  const kind = type?.typeKind;
  if (!kind) return 'dyn';
  switch (kind.case) {
    case 'primitive':
      return ['unspecified', 'bool', 'int', 'uint', 'double', 'string', 'bytes'][kind.value] ?? 'dyn';
    case 'messageType':
      return kind.value;
    case 'listType':
      return `list(${typeName(kind.value.elemType)})`;
    case 'mapType':
      return `map(${typeName(kind.value.keyType)}, ${typeName(kind.value.valueType)})`;
    case 'wellKnown':
      return ['dyn', 'google.protobuf.Any', 'google.protobuf.Timestamp', 'google.protobuf.Duration'][kind.value] ?? 'dyn';
    case 'wrapper':
      return `wrapper(${['unspecified', 'bool', 'int', 'uint', 'double', 'string', 'bytes'][kind.value] ?? 'dyn'})`;
    case 'null':
      return 'null_type';
    default:
      return 'dyn';
  }
}

/** A cel.expr.Value in neutral form. */
export function fromValue(value: Value): Neutral {
  const kind = value.kind;
  switch (kind.case) {
    case 'nullValue':
      return null;
    case 'boolValue':
    case 'int64Value':
    case 'doubleValue':
    case 'stringValue':
    case 'bytesValue':
      return kind.value;
    case 'uint64Value':
      return { uint: kind.value };
    case 'enumValue':
      return { enum: kind.value.type, value: kind.value.value };
    case 'listValue':
      return { list: kind.value.values.map(fromValue) };
    case 'mapValue':
      return { map: kind.value.entries.map((entry) => [fromValue(entry.key!), fromValue(entry.value!)]) };
    case 'typeValue':
      return { type: kind.value };
    case 'objectValue':
      return fromAny(kind.value);
    default:
      throw new Error(`unsupported Value kind ${String(kind.case)}`);
  }
}

function fromAny(any: Any): Neutral {
  const message = anyUnpack(any, registry);
  if (!message) throw new Error(`unknown message type ${any.typeUrl}`);
  return fromMessage(message);
}

/** A protobuf message as CEL sees it: well-known types become their CEL value. */
export function fromMessage(message: Message): Neutral {
  const record = message as unknown as Record<string, unknown>;
  switch (message.$typeName) {
    case 'google.protobuf.Duration':
      return { duration: { seconds: record.seconds as bigint, nanos: record.nanos as number } };
    case 'google.protobuf.Timestamp':
      return { timestamp: { seconds: record.seconds as bigint, nanos: record.nanos as number } };
    case 'google.protobuf.Int32Value':
    case 'google.protobuf.Int64Value':
      return BigInt(record.value as number | bigint);
    case 'google.protobuf.UInt32Value':
    case 'google.protobuf.UInt64Value':
      return { uint: BigInt(record.value as number | bigint) };
    case 'google.protobuf.FloatValue':
    case 'google.protobuf.DoubleValue':
    case 'google.protobuf.StringValue':
    case 'google.protobuf.BytesValue':
    case 'google.protobuf.BoolValue':
      return record.value as Neutral;
    case 'google.protobuf.Any':
      return fromAny(message as Any);
    case 'google.protobuf.Value':
      return fromJsonValue(record.kind as { case: string | undefined; value: unknown });
    case 'google.protobuf.Struct':
      return fromStruct(record as { fields: Record<string, Message> });
    case 'google.protobuf.ListValue':
      return { list: (record.values as Message[]).map(fromMessage) };
    default:
      return { message: message.$typeName, value: message };
  }
}

function fromJsonValue(kind: { case: string | undefined; value: unknown }): Neutral {
  switch (kind.case) {
    case 'numberValue':
    case 'stringValue':
    case 'boolValue':
      return kind.value as Neutral;
    case 'structValue':
      return fromStruct(kind.value as { fields: Record<string, Message> });
    case 'listValue':
      return { list: (kind.value as { values: Message[] }).values.map(fromMessage) };
    default:
      return null;
  }
}

function fromStruct(struct: { fields: Record<string, Message> }): Neutral {
  return { map: Object.entries(struct.fields).map(([key, item]) => [key, fromMessage(item)]) };
}

/** CEL equality, type-strict as described at the top of this file. */
export function sameValue(expected: Neutral, actual: Neutral): boolean {
  if (expected === null || typeof expected !== 'object') {
    if (typeof expected === 'number' && typeof actual === 'number') return expected === actual || (Number.isNaN(expected) && Number.isNaN(actual));
    return expected === actual;
  }
  if (actual === null || typeof actual !== 'object') {
    return 'enum' in expected && typeof actual === 'bigint' && BigInt(expected.value) === actual;
  }
  if (expected instanceof Uint8Array) return actual instanceof Uint8Array && expected.length === actual.length && expected.every((byte, i) => byte === actual[i]);
  if (actual instanceof Uint8Array) return false;
  if ('uint' in expected) return 'uint' in actual && expected.uint === actual.uint;
  if ('type' in expected) return 'type' in actual && expected.type === actual.type;
  if ('enum' in expected) return 'enum' in actual && expected.enum === actual.enum && expected.value === actual.value;
  if ('duration' in expected) return 'duration' in actual && expected.duration.seconds === actual.duration.seconds && expected.duration.nanos === actual.duration.nanos;
  if ('timestamp' in expected) return 'timestamp' in actual && expected.timestamp.seconds === actual.timestamp.seconds && expected.timestamp.nanos === actual.timestamp.nanos;
  if ('list' in expected) return 'list' in actual && expected.list.length === actual.list.length && expected.list.every((item, i) => sameValue(item, actual.list[i]!));
  if ('map' in expected) {
    if (!('map' in actual) || expected.map.length !== actual.map.length) return false;
    return expected.map.every(([key, value]) => actual.map.some(([otherKey, otherValue]) => sameValue(key, otherKey) && sameValue(value, otherValue)));
  }
  if ('message' in expected) {
    if (!('message' in actual) || expected.message !== actual.message) return false;
    const schema = registry.getMessage(expected.message);
    return schema ? equals(schema, expected.value, actual.value) : false;
  }
  return false;
}

/** A neutral value for a failure message. */
export function show(value: Neutral): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return `${value}`;
  if (typeof value === 'number') return Number.isInteger(value) ? `${value}.0` : `${value}`;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'boolean') return `${value}`;
  if (value instanceof Uint8Array) return `b${JSON.stringify(Buffer.from(value).toString('latin1'))}`;
  if ('uint' in value) return `${value.uint}u`;
  if ('type' in value) return `type(${value.type})`;
  if ('enum' in value) return `${value.enum}(${value.value})`;
  if ('duration' in value) return `duration(${value.duration.seconds}s ${value.duration.nanos}ns)`;
  if ('timestamp' in value) return `timestamp(${value.timestamp.seconds}s ${value.timestamp.nanos}ns)`;
  if ('list' in value) return `[${value.list.map(show).join(', ')}]`;
  if ('map' in value) return `{${value.map.map(([key, item]) => `${show(key)}: ${show(item)}`).join(', ')}}`;
  return `${value.message}{…}`;
}

/** Runs one case; undefined when it passes, else what went wrong. */
export function runCase(engine: EngineAdapter, item: ConformanceCase): string | undefined {
  if (!item.bindings) return 'a binding is an error or unknown value';
  let actual: Neutral;
  try {
    actual = engine.evaluate(item.expr, item.bindings, item.context);
  } catch (error) {
    if ('error' in item.expected) return undefined;
    const message = error instanceof Error ? error.message : String(error);
    return `error: ${message.split('\n')[0]}`;
  }
  if ('error' in item.expected) return `expected an error, got ${safeShow(actual)}`;
  return sameValue(item.expected.value, actual) ? undefined : `expected ${safeShow(item.expected.value)}, got ${safeShow(actual)}`;
}

function safeShow(value: Neutral): string {
  try {
    return show(value);
  } catch {
    return String(value);
  }
}

/** Every case against one engine. */
export function runConformance(engine: EngineAdapter, only?: (item: ConformanceCase) => boolean): ConformanceReport {
  const files = new Map<string, FileReport>();
  const failures = new Map<string, string>();
  let total = 0;
  let passed = 0;
  const withoutProtobuf = { total: 0, passed: 0 };
  for (const item of conformanceCases()) {
    if (only && !only(item)) continue;
    let file = files.get(item.file);
    if (!file) files.set(item.file, (file = { file: item.file, passed: 0, failed: 0 }));
    const failure = runCase(engine, item);
    total += 1;
    if (!item.usesProtobuf) withoutProtobuf.total += 1;
    if (failure === undefined) {
      passed += 1;
      file.passed += 1;
      if (!item.usesProtobuf) withoutProtobuf.passed += 1;
    } else {
      file.failed += 1;
      failures.set(item.id, failure);
    }
  }
  return { engine: engine.name, total, passed, files: [...files.values()], failures, withoutProtobuf };
}

export function percent(passed: number, total: number): string {
  return total === 0 ? '—' : `${((passed / total) * 100).toFixed(1)}%`;
}
