import { describe, expect, it } from 'vitest';
import { ExpressionError } from './errors';
import { checkJavascript, evaluateJavascript, JAVASCRIPT_TIMEOUT_MS } from './javascript';

/**
 * `javascript` tests, displays and transforms run in a sandbox (issue 35, finding 3): no object of the
 * server's is reachable, and a script is held to a time, memory and stack limit. Each escape below worked
 * with the node:vm context this replaced; each limit below was missing or soft there.
 */
const run = (source: string, variables: Record<string, unknown> = {}) => evaluateJavascript('display.javascript', source, variables);

/** The reason of the ExpressionError `work` throws. */
function reasonOf(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ExpressionError);
    return (error as ExpressionError).reason;
  }
  throw new Error('expected an ExpressionError');
}

/** Healthy after whatever came before: a display evaluates, quickly once the engine is up. */
function expectHealthy() {
  expect(run('"latency: " + results.elapsed + " ms"', { results: { elapsed: 12 } })).toBe('latency: 12 ms');
  const started = performance.now();
  expect(run('[1, 2, 3].map((n) => n * 2).join()')).toBe('2,4,6');
  expect(performance.now() - started).toBeLessThan(500);
}

describe('javascript sandbox: nothing of the server is reachable', () => {
  it('this.constructor.constructor("return process")() finds no process', () => {
    let answer: string | undefined;
    let reason: string | undefined;
    try {
      answer = run('this.constructor.constructor("return process")()');
    } catch (error) {
      reason = (error as ExpressionError).reason;
    }
    // Either it throws (process is not defined) or it answers nothing: never the server's process.
    if (answer !== undefined) expect(answer).toBe('');
    else expect(reason).toMatch(/process.* is not defined/);
    expect(run('String(this.constructor.constructor("return typeof process")())')).toBe('undefined');
    const env = run('try { JSON.stringify(this.constructor.constructor("return process.env")()) } catch (e) { "refused: " + e.message }');
    expect(env).toMatch(/^refused/);
    expect(env).not.toContain(process.env.PATH ?? 'PATH');
  });

  it('has no process, require, module, globalThis.process or host constructors', () => {
    expect(run('typeof process')).toBe('undefined');
    expect(run('typeof require')).toBe('undefined');
    expect(run('typeof module + typeof exports + typeof Buffer + typeof setTimeout + typeof fetch + typeof WebAssembly')).toBe('undefined'.repeat(6));
    expect(run('typeof globalThis.process')).toBe('undefined');
    expect(reasonOf(() => run('process.env'))).toMatch(/process.* is not defined/);
    expect(reasonOf(() => run('require("node:fs")'))).toMatch(/require.* is not defined/);
    // Functions built from the variables' prototypes are the sandbox's own, not the host's.
    expect(run('results.constructor.constructor("return typeof process")()', { results: { a: 1 } })).toBe('undefined');
    expect(run('(async () => 1).constructor("return typeof process")().then === undefined', {})).toBe('false');
    expect(run('Object.getOwnPropertyNames(globalThis).filter((k) => /^(process|require|module|Buffer|global)$/.test(k)).length')).toBe('0');
  });

  it('leaves nothing from one evaluation to the next', () => {
    expect(run('globalThis.leak = "secret"; Object.prototype.polluted = 1; JSON.parse = () => 2; "done"')).toBe('done');
    expect(run('typeof leak + " " + typeof ({}).polluted + " " + JSON.parse("3")')).toBe('undefined undefined 3');
    expect(run('typeof results', {})).toBe('undefined');
  });
});

describe('javascript sandbox: limits', () => {
  it('stops an infinite loop at the time limit and stays healthy', () => {
    for (const source of ['while (true) {}', 'try { while (true) {} } catch (e) { "caught" }', '({ toString() { for (;;); } })']) {
      const started = performance.now();
      expect(reasonOf(() => run(source))).toBe(`ran longer than ${JAVASCRIPT_TIMEOUT_MS} ms and was stopped`);
      expect(performance.now() - started).toBeLessThan(JAVASCRIPT_TIMEOUT_MS + 4000);
    }
    expectHealthy();
  });

  it('stops a loop over a slow built-in, which QuickJS polls for interrupts too rarely, near the limit', () => {
    // QuickJS checks its deadline every ten thousand operations; a repeat of a MB takes milliseconds, so
    // only the caller's hard stop (the worker is terminated) keeps this near a second and not minutes.
    const started = performance.now();
    expect(reasonOf(() => run('while (true) "x".repeat(1e6)'))).toBe(`ran longer than ${JAVASCRIPT_TIMEOUT_MS} ms and was stopped`);
    expect(performance.now() - started).toBeLessThan(JAVASCRIPT_TIMEOUT_MS + 4000);
    expectHealthy();
  });

  it('stops a memory bomb and stays healthy', () => {
    // QuickJS allocates no elements for `new Array(1e6)` (it is sparse), so this loop grows a few tens of MB
    // a second and is stopped by whichever limit it reaches first.
    const started = performance.now();
    expect(reasonOf(() => run('let a = []; while (true) a.push(new Array(1e6))'))).toMatch(/ran longer than 1000 ms and was stopped|used more than its 64 MB of memory/);
    expect(performance.now() - started).toBeLessThan(JAVASCRIPT_TIMEOUT_MS + 4000);
    expectHealthy();
    // Bombs that allocate what they ask for reach the memory limit: QuickJS's own limit bounds only a single
    // allocation in this build, so these check the cap on the engine's whole heap.
    for (const bomb of ['let a = []; while (true) a.push(new Uint8Array(1e6))', 'let a = []; while (true) a.push("x".repeat(1e6) + a.length)', 'let a = []; while (true) a.push(new Array(1e4).fill(a.length))', 'new Uint8Array(1e9).length']) {
      const began = performance.now();
      expect(reasonOf(() => run(bomb))).toMatch(/used more than its 64 MB of memory and was stopped|ran longer than 1000 ms and was stopped/);
      expect(performance.now() - began).toBeLessThan(JAVASCRIPT_TIMEOUT_MS + 4000);
    }
    expect(reasonOf(() => run('let a = []; while (true) a.push(new Uint8Array(1e6))'))).toBe('used more than its 64 MB of memory and was stopped');
    expectHealthy();
  });

  it('stops deep recursion, including recursion inside the engine that exhausts its thread stack', () => {
    expect(reasonOf(() => run('function f() { return f() } f()'))).toBe('recursed too deeply (stack overflow) and was stopped');
    expect(Number(run('var d = 0; function f() { d++; f() } try { f() } catch (e) { d }'))).toBeGreaterThan(1000);
    expect(reasonOf(() => run('var a = []; for (let i = 0; i < 2e5; i++) a = [a]; JSON.stringify(a).length'))).toMatch(/crashed the javascript sandbox|ran longer than|stack overflow|memory/);
    expectHealthy();
  });
});

describe('javascript as canary-checker runs it (otto)', () => {
  it('answers the last statement as text, with the variables as globals', () => {
    expect(run('"latency: " + results.elapsed + " ms"', { results: { elapsed: 42 } })).toBe('latency: 42 ms');
    expect(run('var x = 1; x + 1')).toBe('2');
    expect(run('if (check.name === "a") { "yes" } else { "no" }', { check: { name: 'a' } })).toBe('yes');
    expect(run('JSON.parse(results.stdout).count * 2 + Math.max(1, 3)', { results: { stdout: '{"count": 4}' } })).toBe('11');
    expect(run('"Abc".toUpperCase() + " " + "a,b".split(",").length + " " + "  x ".trim()')).toBe('ABC 2 x');
    expect(run('json.items.filter((i) => i.ok).map((i) => i.name).join(", ")', { json: { items: [{ name: 'a', ok: true }, { name: 'b', ok: false }, { name: 'c', ok: true }] } })).toBe('a, c');
    expect(run('results.x = 1; results.x + results.y', { results: { y: 2 } })).toBe('3');
    expect(run('null')).toBe('');
    expect(run('undefined')).toBe('');
    expect(run('[1, 2]')).toBe('1,2');
    expect(run('({a: 1})')).toBe('[object Object]');
    expect(run('big', { big: 10n })).toBe('10');
    expect(run('typeof missing', { missing: undefined })).toBe('undefined');
    expect(run('String = () => "mine"; 5')).toBe('5');
  });

  it('names what a script threw and a script that does not parse', () => {
    expect(reasonOf(() => run('x.y'))).toMatch(/ReferenceError: '?x'? is not defined/);
    expect(reasonOf(() => run('throw new Error("boom")'))).toBe('boom');
    expect(reasonOf(() => run('throw new TypeError("bad")'))).toBe('TypeError: bad');
    expect(reasonOf(() => run('throw "plain"'))).toBe('plain');
    expect(reasonOf(() => run('let x = ;'))).toMatch(/^does not parse: /);
    expect(() => checkJavascript('transform.javascript', 'let x = ;')).toThrow(/transform\.javascript "let x = ;": does not parse/);
    expect(() => checkJavascript('transform.javascript', 'while (true) {}')).not.toThrow();
  });

  it('keeps up with a display (p95 under 5 ms once warm)', () => {
    const results = { elapsed: 12, code: 200, headers: { 'content-type': 'application/json' }, json: { status: 'ok', items: [1, 2, 3] } };
    for (let i = 0; i < 50; i++) run('"latency: " + results.elapsed + " ms"', { results });
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const started = performance.now();
      run('"latency: " + results.elapsed + " ms"', { results });
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    // Generous here (a shared, busy test machine); bench/javascript-sandbox.ts measures the real figure.
    expect(times[Math.floor(times.length * 0.5)]).toBeLessThan(5);
  });
});
