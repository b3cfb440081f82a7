import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkNewResourceName, nameProblem, onlyUppercaseWrong, resourceName } from './names';

describe('resource names (docs/RESOURCES.md "Names")', () => {
  it('takes DNS-1123 subdomains and labels', () => {
    for (const name of ['web', 'db-primary', 'app.v2', 'a', '0', 'a'.repeat(253), 'x.y.z']) expect(nameProblem(name), name).toBeUndefined();
    expect(nameProblem('a'.repeat(63), 'namespace')).toBeUndefined();
  });

  it('refuses the rest, naming the rule', () => {
    expect(nameProblem('My Check')).toBe(`"My Check" is not a valid name: use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit (at most 253)`);
    for (const name of ['-web', 'web-', 'a..b', 'a.-b', 'under_score', 'a'.repeat(254), 'café']) expect(nameProblem(name), name).toContain('is not a valid name');
    expect(nameProblem('app.v2', 'namespace')).toContain('is not a valid namespace');
    expect(nameProblem('a'.repeat(64), 'namespace')).toContain('at most 63');
  });

  it('says invalid UTF-8 and control characters for what they are', () => {
    expect(nameProblem(Buffer.from([0x6e, 0xff, 0x6f]).toString('utf8'))).toContain('is not valid UTF-8');
    expect(nameProblem('n\ud800o')).toBe('"n\\ud800o" is not valid UTF-8 (a lone surrogate)');
    expect(nameProblem('n\udc00o')).toContain('lone surrogate');
    expect(nameProblem('a\nb')).toContain('control character');
    expect(nameProblem('a\u0085b')).toContain('control character');
    // A well-formed pair is valid text (and still not DNS-1123).
    expect(nameProblem('a\ud83d\ude00')).toContain('is not a valid name');
  });

  it('knows uppercase-only faults (apply warns about them)', () => {
    expect(onlyUppercaseWrong('HTTP', 'namespace')).toBe(true);
    expect(onlyUppercaseWrong('My Check')).toBe(false);
    expect(onlyUppercaseWrong('web')).toBe(false);
  });

  it('zod: the route schema trims and refuses; the form check marks name and namespace', () => {
    expect(resourceName.parse(' web ')).toBe('web');
    expect(resourceName.safeParse('My Check').error?.issues[0]?.message).toContain('is not a valid name');
    const form = z.object({ name: z.string(), namespace: z.string() }).superRefine(checkNewResourceName);
    const issues = form.safeParse({ name: 'My Check', namespace: 'Team A' }).error?.issues ?? [];
    expect(issues.map((issue) => issue.path.join('.'))).toEqual(['name', 'namespace']);
    expect(form.safeParse({ name: 'my-check', namespace: '' }).success).toBe(true);
  });
});
