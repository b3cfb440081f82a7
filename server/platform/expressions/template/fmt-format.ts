import { formatFloat, formatFloatBinary, formatFloatV, isPrint, quote } from './strconv';

/**
 * The formatting half of Go's fmt (src/fmt/format.go): flags, width and precision applied to integers,
 * floats and strings. The printing half (print.go: which verb meets which value, Sprintf's parsing) is fmt.ts.
 */
export interface Flags {
  plus: boolean;
  minus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  plusV: boolean;
  sharpV: boolean;
  wid: number;
  widPresent: boolean;
  prec: number;
  precPresent: boolean;
}

export const noFlags = (): Flags => ({
  plus: false,
  minus: false,
  sharp: false,
  space: false,
  zero: false,
  plusV: false,
  sharpV: false,
  wid: 0,
  widPresent: false,
  prec: 0,
  precPresent: false,
});

function runeCount(text: string): number {
  let count = 0;
  for (const _char of text) count++;
  return count;
}

function utf8Bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

export function runeOf(value: bigint): string {
  if (value < 0n || value > 0x10ffffn || (value >= 0xd800n && value < 0xe000n)) return '\ufffd';
  return String.fromCodePoint(Number(value));
}

export abstract class Formatter {
  out = '';
  f: Flags = noFlags();

  /** Go's %!verb(type=value) for a verb the argument does not take. */
  protected abstract badVerb(verb: string): void;

  protected writePadding(count: number) {
    if (count <= 0) return;
    this.out += (this.f.zero ? '0' : ' ').repeat(count);
  }

  /** fmt.pad: the text, padded to the width (counted in runes). */
  pad(text: string) {
    if (!this.f.widPresent || this.f.wid === 0) {
      this.out += text;
      return;
    }
    const width = this.f.wid - runeCount(text);
    if (!this.f.minus) {
      this.writePadding(width);
      this.out += text;
    } else {
      this.out += text;
      if (width > 0) this.out += ' '.repeat(width);
    }
  }

  protected truncate(text: string): string {
    if (!this.f.precPresent) return text;
    let count = 0;
    let index = 0;
    for (const char of text) {
      if (count === this.f.prec) return text.slice(0, index);
      count++;
      index += char.length;
    }
    return text;
  }


  protected fmtInteger(value: bigint, verb: string) {
    let base = 10;
    let upper = false;
    switch (verb) {
      case 'v':
      case 'd':
        break;
      case 'b':
        base = 2;
        break;
      case 'o':
      case 'O':
        base = 8;
        break;
      case 'x':
        base = 16;
        break;
      case 'X':
        base = 16;
        upper = true;
        break;
      case 'c':
        this.pad(runeOf(value));
        return;
      case 'q':
        this.pad(quote(runeOf(value), "'", this.f.plus));
        return;
      case 'U': {
        const hex = (value < 0n ? -value : value).toString(16).toUpperCase();
        const digits = hex.padStart(this.f.precPresent && this.f.prec > 4 ? this.f.prec : 4, '0');
        let text = `U+${digits}`;
        const char = runeOf(value);
        if (this.f.sharp && value >= 0n && value <= 0x10ffffn && isPrint(char)) text += ` '${char}'`;
        const zero = this.f.zero;
        this.f.zero = false;
        this.pad(text);
        this.f.zero = zero;
        return;
      }
      default:
        this.badVerb(verb);
        return;
    }
    const negative = value < 0n;
    const magnitude = negative ? -value : value;
    let prec = 0;
    if (this.f.precPresent) {
      prec = this.f.prec;
      if (prec === 0 && magnitude === 0n) {
        const zero = this.f.zero;
        this.f.zero = false;
        this.writePadding(this.f.wid);
        this.f.zero = zero;
        return;
      }
    } else if (this.f.zero && this.f.widPresent) {
      prec = this.f.wid;
      if (negative || this.f.plus || this.f.space) prec--;
    }
    let digits = magnitude.toString(base);
    if (upper) digits = digits.toUpperCase();
    digits = digits.padStart(prec, '0');
    if (this.f.sharp) {
      if (base === 2) digits = `0b${digits}`;
      else if (base === 8 && digits[0] !== '0') digits = `0${digits}`;
      else if (base === 16) digits = `0${upper ? 'X' : 'x'}${digits}`;
    }
    if (verb === 'O') digits = `0o${digits}`;
    if (negative) digits = `-${digits}`;
    else if (this.f.plus) digits = `+${digits}`;
    else if (this.f.space) digits = ` ${digits}`;
    const zero = this.f.zero;
    this.f.zero = false;
    this.pad(digits);
    this.f.zero = zero;
  }

  protected fmtFloat(value: number, verb: string) {
    let format: 'e' | 'E' | 'f' | 'g' | 'G' | 'b' | 'x' | 'X';
    let prec: number;
    switch (verb) {
      case 'v':
        format = 'g';
        prec = -1;
        break;
      case 'g':
      case 'G':
        format = verb;
        prec = -1;
        break;
      case 'e':
      case 'E':
        format = verb;
        prec = 6;
        break;
      case 'f':
      case 'F':
        format = 'f';
        prec = 6;
        break;
      case 'b':
      case 'x':
      case 'X':
        format = verb;
        prec = -1;
        break;
      default:
        this.badVerb(verb);
        return;
    }
    if (this.f.precPresent) prec = this.f.prec;
    let num =
      format === 'b' || format === 'x' || format === 'X'
        ? formatFloatBinary(value, format, prec)
        : prec < 0 && format === 'g'
          ? formatFloatV(value)
          : formatFloat(value, format, prec);
    if (num[0] !== '-' && num[0] !== '+') num = `+${num}`;
    if (this.f.space && num[0] === '+' && !this.f.plus) num = ` ${num.slice(1)}`;
    if (num[1] === 'I' || num[1] === 'N') {
      const zero = this.f.zero;
      this.f.zero = false;
      if (num[1] === 'N' && !this.f.space && !this.f.plus) num = num.slice(1);
      this.pad(num);
      this.f.zero = zero;
      return;
    }
    if (this.f.sharp && format === 'g' && !num.includes('.') && !/[eE]/.test(num)) num += '.';
    if (this.f.plus || num[0] !== '+') {
      if (this.f.zero && this.f.widPresent && this.f.wid > num.length) {
        this.out += num[0];
        this.writePadding(this.f.wid - num.length);
        this.out += num.slice(1);
        return;
      }
      this.pad(num);
      return;
    }
    this.pad(num.slice(1));
  }

  protected fmtString(value: string, verb: string) {
    switch (verb) {
      case 'v':
        if (this.f.sharpV) this.fmtQ(value);
        else this.pad(this.truncate(value));
        return;
      case 's':
        this.pad(this.truncate(value));
        return;
      case 'x':
      case 'X':
        this.fmtSx(value, verb === 'X');
        return;
      case 'q':
        this.fmtQ(value);
        return;
      default:
        this.badVerb(verb);
    }
  }

  protected fmtQ(value: string) {
    const text = this.truncate(value);
    if (this.f.sharp && !/[`\x00-\x08\x0a-\x1f\x7f\ufeff]/.test(text)) this.pad(`\`${text}\``);
    else this.pad(quote(text, '"', this.f.plus));
  }

  protected fmtSx(value: string, upper: boolean) {
    const bytes = utf8Bytes(value);
    let length = bytes.length;
    if (this.f.precPresent && this.f.prec < length) length = this.f.prec;
    let width = 2 * length;
    if (width > 0) {
      if (this.f.space) {
        if (this.f.sharp) width *= 2;
        width += length - 1;
      } else if (this.f.sharp) width += 2;
    } else {
      if (this.f.widPresent) this.writePadding(this.f.wid);
      return;
    }
    if (this.f.widPresent && this.f.wid > width && !this.f.minus) this.writePadding(this.f.wid - width);
    const prefix = upper ? '0X' : '0x';
    let text = this.f.sharp ? prefix : '';
    for (let index = 0; index < length; index++) {
      if (this.f.space && index > 0) {
        text += ' ';
        if (this.f.sharp) text += prefix;
      }
      const hex = (bytes[index] ?? 0).toString(16).padStart(2, '0');
      text += upper ? hex.toUpperCase() : hex;
    }
    this.out += text;
    if (this.f.widPresent && this.f.wid > width && this.f.minus) this.writePadding(this.f.wid - width);
  }
}
