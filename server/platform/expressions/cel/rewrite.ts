import { Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { OPTIONAL_TYPE } from './standard';
import type { SourceMarks } from './syntax';

/* eslint-disable @typescript-eslint/no-explicit-any -- cel-js's syntax tree, checker and evaluator are untyped */

/**
 * Fixes to cel-js's parsed syntax tree, made once after parsing and before type-checking, so that CEL reads
 * as cel-spec defines it where cel-js differs:
 *
 * - what syntax.ts put placeholders for goes back in: real literals, back-quoted field names, and optional
 *   list and map entries (`[?x]`, `{?k: v}`: an entry whose optional value is none is left out);
 * - `has(e.f)` takes any expression `e` (a literal, an optional: none has nothing), not only a variable path;
 * - a field selected on an optional's value that is not a map or message fails, as in cel-go, instead of
 *   giving none (`{'k': null}.?k.field`);
 * - an empty list or map literal and `optional.none()` check as list(dyn), map(dyn, dyn) and optional(dyn),
 *   so that comprehensions and `[?…]` over them type-check;
 * - a map literal's keys must be int, uint, bool or string, each once;
 * - integer results of `-x`, `/`, `int()` and `uint()` outside 64 bits fail (overflow);
 * - `type(x)` of an optional is `optional_type`.
 *
 * A replaced node keeps its place in the tree: cel-js's own "alternate" meta (as it resolves constants)
 * routes its checking and evaluation to the new node.
 */
export function rewriteAst(root: any, marks: SourceMarks | undefined): void {
  visit(root, marks, new WeakSet());
}

const MIN_INT = -(2n ** 63n);
const MAX_INT = 2n ** 63n - 1n;
const MAX_UINT = 2n ** 64n - 1n;

interface Op {
  name: string;
  check(chk: any, ast: any, ctx: any): any;
  evaluate(ev: any, ast: any, ctx: any): unknown;
}

function isNode(value: unknown): value is { op: string; args: any; pos: number } {
  return typeof value === 'object' && value !== null && 'op' in value && typeof value.op === 'string' && 'args' in value;
}

/** Gives `node` a replacement built from an operation of ours. */
function replace(node: any, op: Op, args: unknown): void {
  const alternate = node.clone(op, args);
  alternate.setMeta('async', false);
  node.setMeta('alternate', alternate);
}

/** Wraps a node's own check and evaluation (cel-js's, through its meta) with ours. */
function wrap(node: any, name: string, around: { check?: (type: any, chk: any) => any; result?: (value: unknown) => void }): void {
  replace(
    node,
    {
      name,
      check(chk, _ast, ctx) {
        const type = node.meta.check(chk, node, ctx);
        return around.check ? around.check(type, chk) : type;
      },
      evaluate(ev, _ast, ctx) {
        const value = node.meta.evaluate(ev, node, ctx);
        around.result?.(value);
        return value;
      },
    },
    node.args,
  );
}

function visit(node: unknown, marks: SourceMarks | undefined, chains: WeakSet<object>): void {
  if (Array.isArray(node)) {
    for (const item of node) visit(item, marks, chains);
    return;
  }
  if (!isNode(node)) return;
  const { op, args } = node;
  if (op === 'value') {
    if (marks?.literals.has(node.pos)) node.args = marks.literals.get(node.pos);
    return;
  }
  // children first: a selection's operand is known to be in an optional chain before the selection
  if (op === 'map') {
    for (const entry of args) visit(entry, marks, chains);
  } else if (op === 'call') {
    visit(args[1], marks, chains);
  } else if (op === 'rcall') {
    visit(args[1], marks, chains);
    visit(args[2], marks, chains);
  } else if (typeof args === 'object' && args !== null) {
    visit(args, marks, chains);
  }
  switch (op) {
    case '.':
    case '.?':
    case '[]':
    case '[?]': {
      if ((op === '.' || op === '.?') && marks?.fields.has(node.pos)) args[1] = marks.fields.get(node.pos);
      const left = args[0];
      if (op === '.?' || op === '[?]' || chains.has(left)) chains.add(node);
      if (chains.has(left)) checkOptionalSelection(node);
      break;
    }
    case 'list':
      if (args.length === 0) wrap(node, 'emptyList', { check: concrete });
      else if (marks && args.some((item: any) => isOptionalEntry(item, marks))) optionalList(node, marks);
      break;
    case 'map':
      if (args.length === 0) wrap(node, 'emptyMap', { check: concrete });
      else {
        checkMapKeys(node);
        if (marks && args.some((entry: any) => isOptionalEntry(entry[0], marks))) optionalMap(node, marks);
      }
      break;
    case 'call':
      if (args[0] === 'has' && args[1].length === 1) has(node);
      else if ((args[0] === 'int' || args[0] === 'uint') && args[1].length === 1) conversionInRange(node);
      else if (args[0] === 'type' && args[1].length === 1) typeOfOptional(node);
      break;
    case 'rcall':
      if (args[0] === 'none' && args[2].length === 0 && isNode(args[1]) && args[1].op === 'id' && args[1].args === 'optional') wrap(node, 'optionalNone', { check: concrete });
      break;
    case '-_':
    case '/':
      wrap(node, op === '/' ? 'divideInRange' : 'negateInRange', { result: inRange });
      break;
  }
}

/** A type with no type parameter left: `list<T>` of an empty literal is list<dyn>. */
function concrete(type: any, chk: any): any {
  if (!type?.hasPlaceholderType) return type;
  const dyn = chk.dynType;
  return type.templated(chk.registry, { get: () => dyn });
}

function inRange(value: unknown): void {
  if (typeof value === 'bigint' && (value < MIN_INT || value > MAX_INT)) throw new Error('integer overflow: the result is outside the int64 range');
  if (value instanceof UnsignedInt && (value.valueOf() < 0n || value.valueOf() > MAX_UINT)) throw new Error('integer overflow: the result is outside the uint64 range');
}

/**
 * `int(x)` and `uint(x)` fail past 64 bits; from a double, as cel-go, also at the bounds themselves
 * (int(-9223372036854775808.0) is an error: the double stands for a range of integers).
 */
function conversionInRange(node: any): void {
  const name = node.args[0] as 'int' | 'uint';
  replace(
    node,
    {
      name: `${name}InRange`,
      check(chk, _ast, ctx) {
        return node.meta.check(chk, node, ctx);
      },
      evaluate(ev, _ast, ctx) {
        const argument = ev.run(node.args[1][0], ctx);
        if (typeof argument === 'number') {
          const fits = name === 'int' ? argument > -(2 ** 63) && argument < 2 ** 63 : argument > -1 && argument < 2 ** 64;
          if (!fits) throw new Error(`${name}(${argument}): the value is outside the ${name}64 range`);
        }
        const value = node.handle([argument], node, ev);
        inRange(value);
        return value;
      },
    },
    node.args,
  );
}

/** `type(x)`: cel-js's, except that an optional's type is optional_type (cel-js has no overload for it). */
function typeOfOptional(node: any): void {
  const argument = node.args[1][0];
  replace(
    node,
    {
      name: 'typeOf',
      check(chk, _ast, ctx) {
        if (chk.check(argument, ctx).kind === 'optional') return chk.getType('type');
        return node.meta.check(chk, node, ctx);
      },
      evaluate(ev, _ast, ctx) {
        const value = ev.run(argument, ctx);
        return value instanceof Optional ? OPTIONAL_TYPE : node.handle([value], node, ev);
      },
    },
    node.args,
  );
}

function isOptionalEntry(node: unknown, marks: SourceMarks): boolean {
  return isNode(node) && node.op === '!_' && marks.optionalEntries.has(node.pos);
}

function optionalValue(value: unknown, what: string): Optional {
  if (value instanceof Optional) return value;
  throw new Error(`${what} must be an optional value, got ${typeof value === 'object' && value !== null ? 'a map or list' : typeof value}`);
}

/** `[a, ?b]`: `b` must be optional; its value is an element when it has one. */
function optionalList(node: any, marks: SourceMarks): void {
  const items = (node.args as any[]).map((item) => (isOptionalEntry(item, marks) ? { node: item.args, optional: true } : { node: item, optional: false }));
  replace(
    node,
    {
      name: 'optionalList',
      check(chk, _ast, ctx) {
        let element: any;
        for (const item of items) {
          let type = chk.check(item.node, ctx);
          if (item.optional) {
            if (type.kind !== 'optional' && type.kind !== 'dyn') throw chk.createError('optional_expected', `an optional list entry (?x) must be optional, got '${type}'`, item.node);
            type = type.kind === 'optional' ? type.valueType : type;
          }
          element = element === undefined ? type : element.unify(chk.registry, type) || chk.dynType;
        }
        return chk.registry.getListType(concrete(element ?? chk.dynType, chk));
      },
      evaluate(ev, _ast, ctx) {
        const out: unknown[] = [];
        for (const item of items) {
          const value = ev.run(item.node, ctx);
          if (!item.optional) out.push(value);
          else {
            const optional = optionalValue(value, 'an optional list entry (?x)');
            if (optional.hasValue()) out.push(optional.value());
          }
        }
        return out;
      },
    },
    node.args,
  );
}

/** `{?k: v}`: `v` must be optional; the entry is there when it has a value. */
function optionalMap(node: any, marks: SourceMarks): void {
  const entries = (node.args as any[][]).map(([key, value]) => (isOptionalEntry(key, marks) ? { key: key.args, value, optional: true } : { key, value, optional: false }));
  replace(
    node,
    {
      name: 'optionalMap',
      check(chk, _ast, ctx) {
        let keyType: any;
        let valueType: any;
        for (const entry of entries) {
          const key = chk.check(entry.key, ctx);
          let value = chk.check(entry.value, ctx);
          if (entry.optional) {
            if (value.kind !== 'optional' && value.kind !== 'dyn') throw chk.createError('optional_expected', `an optional map entry ({?k: v}) must have an optional value, got '${value}'`, entry.value);
            value = value.kind === 'optional' ? value.valueType : value;
          }
          keyType = keyType === undefined ? key : keyType.unify(chk.registry, key) || chk.dynType;
          valueType = valueType === undefined ? value : valueType.unify(chk.registry, value) || chk.dynType;
        }
        return chk.registry.getMapType(concrete(keyType, chk), concrete(valueType, chk));
      },
      evaluate(ev, _ast, ctx) {
        const out: Record<string, unknown> = {};
        for (const entry of entries) {
          const key = ev.run(entry.key, ctx);
          const value = ev.run(entry.value, ctx);
          const name = String(key);
          if (name === '__proto__' || name === 'constructor' || name === 'prototype') continue;
          if (!entry.optional) out[name] = value;
          else {
            const optional = optionalValue(value, 'an optional map entry ({?k: v})');
            if (optional.hasValue()) out[name] = optional.value();
          }
        }
        return out;
      },
    },
    node.args,
  );
}

/** Map literal keys: int, uint, bool or string (no double, null, list…), and no literal key twice. */
function checkMapKeys(node: any): void {
  const seen = new Set<string>();
  for (const [key] of node.args as any[][]) {
    if (!isNode(key) || key.op !== 'value') continue;
    const value = key.args;
    if (typeof value === 'number' || value === null || value instanceof Uint8Array) {
      throw mapKeyError(key, `a map key must be an int, uint, bool or string, not ${value === null ? 'null' : typeof value === 'number' ? 'a double' : 'bytes'}`);
    }
    const id = value instanceof UnsignedInt ? `n:${value.valueOf()}` : typeof value === 'bigint' ? `n:${value}` : `${typeof value}:${String(value)}`;
    if (seen.has(id)) throw mapKeyError(key, `the map key ${typeof value === 'string' ? JSON.stringify(value) : String(value)} is repeated`);
    seen.add(id);
  }
}

/** A parse-time problem at a node, as cel.ts reports them (its offset gives the line and column). */
export class CelSyntaxProblem extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

function mapKeyError(node: any, message: string): CelSyntaxProblem {
  return new CelSyntaxProblem(message, node.pos);
}

/** `has(e.f)`: whether the map (or message) `e` has `f`; an optional `e` without a value has nothing. */
function has(node: any): void {
  const argument = node.args[1][0];
  replace(
    node,
    {
      name: 'has',
      check(chk, _ast, ctx) {
        if (!isNode(argument) || (argument.op !== '.' && argument.op !== '.?')) throw chk.createError('invalid_macro_argument', 'has() invalid argument: it takes a field selection, has(x.field)', argument);
        chk.check(argument.args[0], ctx);
        return chk.boolType;
      },
      evaluate(ev, _ast, ctx) {
        let value = ev.run(argument.args[0], ctx);
        if (value instanceof Optional) {
          if (!value.hasValue()) return false;
          value = value.value();
        }
        const field = argument.args[1];
        if (value instanceof Map) return value.has(field);
        if (!isSelectable(value, false)) throw new Error(`has(): type '${ev.debugType(value)}' does not support field selection`);
        const type = ev.debugType(value);
        return type.fieldLazy(value, field, argument, ev) !== undefined;
      },
    },
    node.args,
  );
}

/** Whether a value has fields (a map or message) or, for an index, elements (a list too). */
function isSelectable(value: unknown, index: boolean): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (value instanceof Uint8Array || value instanceof Date || value instanceof Duration || value instanceof UnsignedInt || value instanceof Optional) return false;
  return index || !(Array.isArray(value) || value instanceof Set);
}

/**
 * A selection after `.?` or `[?]`: when the optional has a value, that value must have fields (or, for an
 * index, elements); `{'k': null}.?k.field` is an error, not none.
 */
function checkOptionalSelection(node: any): void {
  const index = node.op === '[]' || node.op === '[?]';
  replace(
    node,
    {
      name: `checked${node.op}`,
      check(chk, _ast, ctx) {
        return node.meta.check(chk, node, ctx);
      },
      evaluate(ev, _ast, ctx) {
        const left = ev.run(node.left, ctx);
        if (left instanceof Optional && left.hasValue() && !isSelectable(left.value(), index)) {
          throw new Error(`type '${ev.debugType(left.value())}' does not support ${index ? 'indexing' : 'field selection'}`);
        }
        const right = index ? ev.run(node.right, ctx) : node.right;
        return node.handle(left, right, node, ev);
      },
    },
    node.args,
  );
}
