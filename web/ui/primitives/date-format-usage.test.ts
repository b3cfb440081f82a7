import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 38: every date and time in the console goes through the one formatter (web/ui/primitives/date-time.tsx,
 * over common/format/date.ts) and the person's preferences. This fails when a web file formats a date itself.
 */
const WEB = path.resolve(import.meta.dirname, '../..');
const FORMATTER = path.join(WEB, 'ui', 'primitives', 'date-time.tsx');
/** Ways to turn a moment into text that skip the preferences. `toLocaleString` is banned for numbers too: they use Intl.NumberFormat. */
const BANNED = [/\.toLocaleString\(/, /\.toLocaleDateString\(/, /\.toLocaleTimeString\(/, /\bIntl\.DateTimeFormat\b/, /\.toUTCString\(/, /\.toDateString\(/, /\.toTimeString\(/];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === '__mocks__' ? [] : sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** `file:line: text` for each banned call outside the formatter module. */
function offences(files: string[], read: (file: string) => string = (file) => readFileSync(file, 'utf8')): string[] {
  return files
    .filter((file) => file !== FORMATTER)
    .flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, index) => (BANNED.some((pattern) => pattern.test(line)) ? [`${path.relative(WEB, file)}:${index + 1}: ${line.trim()}`] : [])),
    );
}

describe('dates go through the one formatter', () => {
  it('finds a date formatted by hand (the check can fail)', () => {
    const fake = path.join(WEB, 'features', 'x', 'page.tsx');
    expect(offences([fake, FORMATTER], (file) => (file === fake ? 'const a = 1;\n<span>{new Date(t).toLocaleString()}</span>' : 'new Intl.DateTimeFormat()'))).toEqual([
      'features/x/page.tsx:2: <span>{new Date(t).toLocaleString()}</span>',
    ]);
  });

  it('has no web file formatting a date outside web/ui/primitives/date-time.tsx', () => {
    const files = sources(WEB);
    expect(files.length).toBeGreaterThan(100);
    expect(offences(files)).toEqual([]);
  });
});
