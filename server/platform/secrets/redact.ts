import { isRecord } from '../errors';

/**
 * Redaction of secret values from what the console stores or sends (check results, playbook results and
 * errors, log lines, agent payloads). One helper for every feature: it knows clear values a run has
 * seen, and replaces them wherever they appear in a text, with the forms a value commonly takes on the
 * way out (URL-encoded, JSON-escaped, shell-quoted, base64).
 *
 * Minimum length: a value shorter than MIN_REDACTED_LENGTH characters is replaced only where a whole text
 * is exactly that value (a one-letter secret must not blank every "a" of a log). Longer values are
 * replaced wherever they occur. Redaction is of the text stored or sent, never of what templates and
 * action code see while they run.
 */
export const REDACTED = '[redacted]';
export const MIN_REDACTED_LENGTH = 4;
/** A base64 form is only looked for when it cannot be mistaken for ordinary words (≥ 8 characters of output). */
const MIN_BASE64_LENGTH = 4;

export interface RedactOptions {
  /** What a secret becomes ([redacted] unless said). */
  mask?: string;
  /** The shortest value replaced inside a longer text (MIN_REDACTED_LENGTH unless said). */
  minLength?: number;
  /** Also the encoded forms of each value (URL-encoded always; these add JSON, shell and base64). */
  encodings?: boolean;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The forms a value takes when it is written into a URL, JSON, a shell word or base64. */
export function encodedForms(value: string, all = true): string[] {
  const forms = new Set<string>([value]);
  forms.add(encodeURIComponent(value));
  if (all) {
    forms.add(encodeURIComponent(value).replaceAll('%20', '+'));
    forms.add(JSON.stringify(value).slice(1, -1));
    // Single-quoted shell word ('it'\''s') and double-quoted (\" \$ \` \\ escaped).
    forms.add(value.replaceAll("'", "'\\''"));
    forms.add(value.replace(/(["$`\\])/g, '\\$1'));
    if (value.length >= MIN_BASE64_LENGTH) {
      const base64 = Buffer.from(value, 'utf8').toString('base64');
      forms.add(base64);
      forms.add(base64.replace(/=+$/, ''));
      forms.add(base64.replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_'));
    }
  }
  return [...forms];
}

/**
 * A set of clear values known to be secret, and what they are replaced with. Values can be added while a
 * run goes on (an action resolves a connection); redaction uses every value known at the time.
 */
export class SecretValues {
  private readonly values = new Set<string>();
  private pattern: RegExp | undefined;
  private exact = new Set<string>();
  private readonly mask: string;
  private readonly minLength: number;
  private readonly encodings: boolean;

  constructor(values: Iterable<string | null | undefined> = [], options: RedactOptions = {}) {
    this.mask = options.mask ?? REDACTED;
    this.minLength = options.minLength ?? MIN_REDACTED_LENGTH;
    this.encodings = options.encodings ?? true;
    this.add(...values);
  }

  /** Adds clear values (empty ones are ignored). */
  add(...values: Array<string | null | undefined>): this {
    for (const value of values) {
      if (typeof value !== 'string' || value === '' || this.values.has(value)) continue;
      this.values.add(value);
      this.pattern = undefined;
    }
    return this;
  }

  get size(): number {
    return this.values.size;
  }

  /** The clear values (to seal them for a later redaction, never to show). */
  list(): string[] {
    return [...this.values];
  }

  private compile(): RegExp | undefined {
    if (this.pattern !== undefined || this.values.size === 0) return this.pattern;
    const forms = new Set<string>();
    this.exact = new Set<string>();
    for (const value of this.values) {
      // Multi-line values (certificates, keys) are also looked for line by line: a script may print one line.
      const parts = value.includes('\n') ? [value, ...value.split(/\r?\n/).map((line) => line.trim())] : [value];
      for (const part of parts) {
        if (part.length < this.minLength) {
          if (part === value) this.exact.add(part);
          continue;
        }
        for (const form of encodedForms(part, this.encodings)) if (form.length >= this.minLength) forms.add(form);
      }
    }
    // Longest first, so a value that contains another is replaced whole.
    const sorted = [...forms].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.pattern = sorted.length > 0 ? new RegExp(sorted.join('|'), 'g') : /(?!)/g;
    return this.pattern;
  }

  /** A text without any known value. */
  redact(text: string): string {
    if (this.values.size === 0 || text === '') return text;
    const pattern = this.compile();
    if (this.exact.has(text)) return this.mask;
    if (!pattern) return text;
    pattern.lastIndex = 0;
    return text.replace(pattern, this.mask);
  }

  /** null stays null; a text without any known value. */
  redactNullable<T extends string | null | undefined>(text: T): T {
    return (typeof text === 'string' ? this.redact(text) : text) as T;
  }

  /** Every text inside a value (strings, arrays, records, object keys too); other values as they are. */
  redactDeep<T>(value: T): T {
    if (this.values.size === 0) return value;
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (Array.isArray(value)) return value.map((item) => this.walk(item));
    if (value instanceof Uint8Array || value instanceof Date) return value;
    if (value instanceof Error) {
      const copy = new Error(this.redact(value.message));
      copy.name = value.name;
      copy.stack = value.stack === undefined ? undefined : this.redact(value.stack);
      return copy;
    }
    if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.redact(key), this.walk(item)]));
    return value;
  }
}

/** A text without the given secrets (values shorter than `minLength` only when they are the whole text). */
export function redactText(text: string, secrets: ReadonlyArray<string | null | undefined>, options: RedactOptions = {}): string {
  return new SecretValues(secrets, options).redact(text);
}

/** Every text inside a value without the given secrets. */
export function redactDeep<T>(value: T, secrets: ReadonlyArray<string | null | undefined>, options: RedactOptions = {}): T {
  return new SecretValues(secrets, options).redactDeep(value);
}

const LOG_METHODS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);

/**
 * A logger (pino's shape) whose lines carry no known value: every argument of a log call is redacted,
 * and children are wrapped the same way. Values added to `values` later are redacted too.
 */
export function redactingLogger<T extends object>(log: T, values: SecretValues): T {
  return new Proxy(log, {
    get(target, property, receiver) {
      const member: unknown = Reflect.get(target, property, receiver);
      if (typeof member !== 'function') return member;
      if (typeof property === 'string' && LOG_METHODS.has(property)) {
        return (...args: unknown[]): unknown => Reflect.apply(member, target, args.map((arg) => values.redactDeep(arg)));
      }
      if (property === 'child') {
        return (...args: unknown[]): object => redactingLogger<object>(Reflect.apply(member, target, args.map((arg) => values.redactDeep(arg))), values);
      }
      return member.bind(target);
    },
  });
}
