import { describe, expect, it } from 'vitest';
import { celDuration, evaluateCel, evaluateTest, ExpressionError, renderTemplate } from '.';

describe('check expressions', () => {
  it('treats whole-number variables as ints, so arithmetic with integer literals works', () => {
    expect(evaluateTest('test.expr', 'code >= 200 && code < 300', { code: 204 })).toBe(true);
    expect(evaluateCel('display.expr', 'size / 1024', { size: 4096 })).toBe(4);
    expect(evaluateCel('display.expr', 'results.count + 1', { results: { count: 2 } })).toBe(3);
    expect(evaluateCel('display.expr', 'ratio * 2.0', { ratio: 0.25 })).toBe(0.5);
  });

  it('keeps json numbers as doubles, comparable with ints', () => {
    expect(evaluateTest('test.expr', 'json.count > 5', { json: { count: 7 } })).toBe(true);
    expect(evaluateCel('display.expr', 'int(json.count) + 1', { json: { count: 7 } })).toBe(8);
  });

  it('compares durations with Duration() and names a bad one', () => {
    expect(evaluateTest('test.expr', "sslAge > Duration('7d')", { sslAge: celDuration(8 * 86_400_000) })).toBe(true);
    expect(() => evaluateTest('test.expr', "sslAge > Duration('soon')", { sslAge: celDuration(1) })).toThrow(/not a duration/);
  });

  it('refuses a test that is not a boolean and an expression that does not parse', () => {
    expect(() => evaluateTest('test.expr', 'code', { code: 1 })).toThrow(/not true or false/);
    expect(() => evaluateCel('test.expr', 'code >', { code: 1 })).toThrow(ExpressionError);
  });

  it('renders Go templates and refuses a function gomplate does not have by name', () => {
    expect(renderTemplate('display.template', 'got {{.code}} from {{ .req.url }}', { code: 200, req: { url: 'http://x' } })).toBe('got 200 from http://x');
    expect(renderTemplate('display.template', '{{ printf "%d" .code }}', { code: 1 })).toBe('%!d(float64=1)');
    expect(() => renderTemplate('display.template', '{{ .code | nosuchfunc }}', { code: 1 })).toThrow(/function "nosuchfunc" not defined/);
  });
});
