import { timeString } from './gotime';
import { asDuration, compareStrings, type GoMap, GoStruct, Kind, kindOf, typeName } from './kinds';
import { formatFloatV } from './strconv';
import { Formatter, noFlags } from './fmt-format';

/**
 * Go's fmt (src/fmt/print.go here; format.go's flags, width and precision are fmt-format.ts) for the values templates hold: Sprint, Sprintln, Sprintf with
 * flags, width, precision and argument indexes, %v of maps (sorted keys) and lists, and Go's error
 * forms for a wrong verb (%!d(string=x)), a missing argument and extra ones.
 */
function isNilArg(value: unknown): boolean {
  return value === undefined || value === null;
}

/** The String() of Go's Stringers among template values (time.Time, time.Duration, a struct with String()). */
function stringerOf(value: unknown): string | undefined {
  if (value instanceof Date) return timeString(value);
  if (value instanceof GoStruct) {
    const method = value.methods.String;
    return method && method.params.length === 0 && Object.hasOwn(value.methods, 'String') ? String(method.call([])) : undefined;
  }
  const duration = asDuration(value);
  return duration ? duration.toString() : undefined;
}

class Printer extends Formatter {
  private arg: unknown;
  private erroring = false;

  protected badVerb(verb: string) {
    this.erroring = true;
    this.out += `%!${verb}(`;
    if (!isNilArg(this.arg)) {
      this.out += `${typeName(this.arg)}=`;
      this.printArg(this.arg, 'v');
    } else {
      this.out += '<nil>';
    }
    this.out += ')';
    this.erroring = false;
  }

  private handleMethods(verb: string): boolean {
    if (this.erroring || this.f.sharpV) return false;
    if (verb !== 'v' && verb !== 's' && verb !== 'x' && verb !== 'X' && verb !== 'q') return false;
    const text = stringerOf(this.arg);
    if (text === undefined) return false;
    this.fmtString(text, verb);
    return true;
  }

  printArg(arg: unknown, verb: string) {
    this.arg = arg;
    if (isNilArg(arg)) {
      if (verb === 'T' || verb === 'v') this.pad('<nil>');
      else this.badVerb(verb);
      return;
    }
    if (verb === 'T') {
      this.pad(this.truncate(typeName(arg)));
      return;
    }
    switch (typeof arg) {
      case 'boolean':
        if (verb === 't' || verb === 'v') this.pad(String(arg));
        else this.badVerb(verb);
        return;
      case 'number':
        this.fmtFloat(arg, verb);
        return;
      case 'bigint':
        this.fmtInteger(arg, verb);
        return;
      case 'string':
        this.fmtString(arg, verb);
        return;
    }
    if (this.handleMethods(verb)) return;
    this.printValue(arg, verb, 0);
  }

  private printValue(value: unknown, verb: string, depth: number) {
    if (depth > 0 && value !== undefined && value !== null) {
      this.arg = value;
      if (this.handleMethods(verb)) return;
    }
    switch (kindOf(value)) {
      case Kind.Invalid:
      case Kind.Nil:
        this.out += this.f.sharpV ? 'interface {}(nil)' : '<nil>';
        return;
      case Kind.Bool:
      case Kind.Float:
      case Kind.Int:
      case Kind.String:
        this.printArg(value, verb);
        return;
      case Kind.Duration:
        this.fmtInteger(asDuration(value)?.nanoseconds ?? 0n, verb);
        return;
      case Kind.Time:
        this.out += `{${value instanceof Date ? timeString(value) : ''}}`;
        return;
      case Kind.Slice: {
        const list = Array.isArray(value) ? value : [];
        this.out += this.f.sharpV ? '[]interface {}{' : '[';
        list.forEach((element, index) => {
          if (index > 0) this.out += this.f.sharpV ? ', ' : ' ';
          this.printValue(element, verb, depth + 1);
        });
        this.out += this.f.sharpV ? '}' : ']';
        return;
      }
      case Kind.Map: {
        const map: GoMap = isMapLike(value) ? value : {};
        const keys = Object.keys(map)
          .filter((key) => map[key] !== undefined)
          .sort(compareStrings);
        this.out += this.f.sharpV ? 'map[string]interface {}{' : 'map[';
        keys.forEach((key, index) => {
          if (index > 0) this.out += this.f.sharpV ? ', ' : ' ';
          this.printValue(key, verb, depth + 1);
          this.out += ':';
          this.printValue(map[key], verb, depth + 1);
        });
        this.out += this.f.sharpV ? '}' : ']';
        return;
      }
      case Kind.Struct:
        if (value instanceof GoStruct && !value.typeName.startsWith('*')) {
          // A struct value prints its fields in order: {a b}, {A:a B:b} with %+v.
          this.out += '{';
          Object.entries(value.fields).forEach(([name, field], index) => {
            if (index > 0) this.out += ' ';
            if (this.f.plusV || this.f.sharpV) this.out += `${name}:`;
            this.printValue(field, verb, depth + 1);
          });
          this.out += '}';
          return;
        }
        this.out += value instanceof GoStruct ? `&{${value.typeName}}` : '&{}';
        return;
      case Kind.Func:
        this.out += '0x0';
        return;
    }
  }
}

function isMapLike(value: unknown): value is GoMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** fmt.Sprint of one value: what `{{ . }}` prints. */
export function printV(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return formatFloatV(value);
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
  }
  const printer = new Printer();
  printer.printArg(value, 'v');
  return printer.out;
}

/** fmt.Sprint: spaces between operands when neither is a string. */
export function sprint(args: readonly unknown[]): string {
  const printer = new Printer();
  let previousString = false;
  args.forEach((arg, index) => {
    const isString = typeof arg === 'string';
    if (index > 0 && !isString && !previousString) printer.out += ' ';
    printer.f = noFlags();
    printer.printArg(arg, 'v');
    previousString = isString;
  });
  return printer.out;
}

/** fmt.Sprintln: spaces between every operand and a newline. */
export function sprintln(args: readonly unknown[]): string {
  const printer = new Printer();
  args.forEach((arg, index) => {
    if (index > 0) printer.out += ' ';
    printer.f = noFlags();
    printer.printArg(arg, 'v');
  });
  return `${printer.out}\n`;
}

function parseNum(format: string, start: number, end: number): { num: number; ok: boolean; next: number } {
  if (start >= end) return { num: 0, ok: false, next: end };
  let num = 0;
  let index = start;
  let ok = false;
  while (index < end && format.charCodeAt(index) >= 48 && format.charCodeAt(index) <= 57) {
    if (num > 1e6) return { num: 0, ok: false, next: end };
    num = num * 10 + format.charCodeAt(index) - 48;
    ok = true;
    index++;
  }
  return { num, ok, next: index };
}

function intFromArg(args: readonly unknown[], argNum: number): { num: number; ok: boolean; next: number } {
  if (argNum >= args.length) return { num: 0, ok: false, next: argNum };
  const arg = args[argNum];
  const duration = asDuration(arg);
  const value = typeof arg === 'bigint' ? arg : duration ? duration.nanoseconds : undefined;
  if (value === undefined || value > 1_000_000n || value < -1_000_000n) return { num: 0, ok: false, next: argNum + 1 };
  return { num: Number(value), ok: true, next: argNum + 1 };
}

/** fmt.Sprintf. */
export function sprintf(format: string, args: readonly unknown[]): string {
  const printer = new Printer();
  const end = format.length;
  let argNum = 0;
  let reordered = false;
  let goodArgNum = true;

  /** "[n]" argument indexes. */
  const argNumber = (index: number): { argNum: number; index: number; found: boolean } => {
    if (index >= end || format[index] !== '[') return { argNum, index, found: false };
    reordered = true;
    const close = format.indexOf(']', index);
    if (close < 0 || end - index < 3) {
      goodArgNum = false;
      return { argNum, index: index + 1, found: false };
    }
    const parsed = parseNum(format, index + 1, close);
    if (!parsed.ok || parsed.next !== close) {
      goodArgNum = false;
      return { argNum, index: close + 1, found: false };
    }
    const wanted = parsed.num - 1;
    if (wanted >= 0 && wanted < args.length) return { argNum: wanted, index: close + 1, found: true };
    goodArgNum = false;
    return { argNum, index: close + 1, found: true };
  };

  let i = 0;
  formatLoop: while (i < end) {
    goodArgNum = true;
    const last = i;
    while (i < end && format[i] !== '%') i++;
    if (i > last) printer.out += format.slice(last, i);
    if (i >= end) break;
    i++;
    const f = noFlags();
    printer.f = f;
    simple: for (; i < end; i++) {
      const c = format.charAt(i);
      switch (c) {
        case '#':
          f.sharp = true;
          break;
        case '0':
          f.zero = !f.minus;
          break;
        case '+':
          f.plus = true;
          break;
        case '-':
          f.minus = true;
          f.zero = false;
          break;
        case ' ':
          f.space = true;
          break;
        default:
          if (c >= 'a' && c <= 'z' && argNum < args.length) {
            if (c === 'v') {
              f.sharpV = f.sharp;
              f.sharp = false;
              f.plusV = f.plus;
              f.plus = false;
            }
            printer.printArg(args[argNum], c);
            argNum++;
            i++;
            continue formatLoop;
          }
          break simple;
      }
    }
    let found = argNumber(i);
    ({ argNum, index: i } = found);
    let afterIndex = found.found;
    if (i < end && format[i] === '*') {
      i++;
      const width = intFromArg(args, argNum);
      [f.wid, f.widPresent, argNum] = [width.num, width.ok, width.next];
      if (!f.widPresent) printer.out += '%!(BADWIDTH)';
      if (f.wid < 0) {
        f.wid = -f.wid;
        f.minus = true;
        f.zero = false;
      }
      afterIndex = false;
    } else {
      const width = parseNum(format, i, end);
      [f.wid, f.widPresent, i] = [width.num, width.ok, width.next];
      if (afterIndex && f.widPresent) goodArgNum = false;
    }
    if (i + 1 < end && format[i] === '.') {
      i++;
      if (afterIndex) goodArgNum = false;
      found = argNumber(i);
      ({ argNum, index: i } = found);
      afterIndex = found.found;
      if (i < end && format[i] === '*') {
        i++;
        const prec = intFromArg(args, argNum);
        [f.prec, f.precPresent, argNum] = [prec.num, prec.ok, prec.next];
        if (f.prec < 0) {
          f.prec = 0;
          f.precPresent = false;
        }
        if (!f.precPresent) printer.out += '%!(BADPREC)';
        afterIndex = false;
      } else {
        const prec = parseNum(format, i, end);
        [f.prec, f.precPresent, i] = [prec.num, true, prec.next];
      }
    }
    if (!afterIndex) {
      found = argNumber(i);
      ({ argNum, index: i } = found);
    }
    if (i >= end) {
      printer.out += '%!(NOVERB)';
      break;
    }
    const verb = String.fromCodePoint(format.codePointAt(i) ?? 0);
    i += verb.length;
    if (verb === '%') {
      printer.out += '%';
    } else if (!goodArgNum) {
      printer.out += `%!${verb}(BADINDEX)`;
    } else if (argNum >= args.length) {
      printer.out += `%!${verb}(MISSING)`;
    } else {
      if (verb === 'v') {
        f.sharpV = f.sharp;
        f.sharp = false;
        f.plusV = f.plus;
        f.plus = false;
      }
      printer.printArg(args[argNum], verb);
      argNum++;
    }
  }
  if (!reordered && argNum < args.length) {
    printer.f = noFlags();
    printer.out += '%!(EXTRA ';
    args.slice(argNum).forEach((arg, index) => {
      if (index > 0) printer.out += ', ';
      if (isNilArg(arg)) printer.out += '<nil>';
      else {
        printer.out += `${typeName(arg)}=`;
        printer.printArg(arg, 'v');
      }
    });
    printer.out += ')';
  }
  return printer.out;
}
