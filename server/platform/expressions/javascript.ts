import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { messageOf } from '../errors';
import { ExpressionError } from './errors';

/**
 * canary-checker's `javascript` templates (run there by otto) run here in QuickJS compiled to WebAssembly
 * (the quickjs-emscripten package, release build): a separate JavaScript engine with its own heap and no
 * object of the server's, so no `process`, `require`, file, network or host function of any kind. Each
 * evaluation gets a new QuickJS runtime and context, so nothing a script leaves behind (globals, patched
 * prototypes, queued promise jobs) reaches the next one.
 *
 * The engine lives in a worker thread; the caller waits for its answer synchronously (Atomics.wait), as
 * callers of evaluateJavascript always have. That is what makes the limits hard:
 * - time: QuickJS's interrupt handler stops a script at the deadline, but the engine polls it only every
 *   ten thousand operations, so a loop over slow built-ins (`while (true) "x".repeat(1e6)`) would run on for
 *   minutes. The caller stops waiting shortly after the deadline and terminates the worker instead.
 * - memory: QuickJS's own limit (`setMemoryLimit`) bounds only each single allocation in this build (its
 *   byte count cannot see block sizes under Emscripten), so the engine's WebAssembly memory is given a
 *   maximum: when it is full, allocations fail and the script gets QuickJS's "out of memory".
 * - stack: `setMaxStackSize` for recursion in scripts; recursion inside the engine's C code that QuickJS does
 *   not count (JSON.stringify of a structure nested thousands deep) exhausts the worker's stack instead, and
 *   that worker is replaced.
 */

/** A script that runs longer is stopped: a display or test must never hold up a check run. */
export const JAVASCRIPT_TIMEOUT_MS = 1000;
/** What a script may allocate, its variables included (the engine's heap beyond its own start-up). */
export const JAVASCRIPT_MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;
/** QuickJS's stack for the script's own recursion: a couple of thousand plain calls. */
export const JAVASCRIPT_STACK_LIMIT_BYTES = 256 * 1024;

/**
 * How long past the deadline the caller waits before it terminates the engine: the engine's own interrupt
 * stops ordinary loops at the deadline; this bounds a loop of slow built-ins, and leaves room for a busy
 * machine that is slow to schedule the worker (no ordinary script is ever cut off by it).
 */
const HARD_STOP_GRACE_MS = 1000;
/**
 * How long the engine may take to compile a script and parse its variables before the script starts: work
 * of QuickJS's own, bounded by the size of the text (a few MB of check results take a fraction of this).
 */
const PREPARE_TIMEOUT_MS = 5_000;
/** How long a new engine may take to start (compiling the WebAssembly; slow on a busy machine). */
const START_TIMEOUT_MS = 30_000;
const MEMORY_LIMIT_MB = JAVASCRIPT_MEMORY_LIMIT_BYTES / 1024 / 1024;
const TIME_LIMIT_REASON = `ran longer than ${JAVASCRIPT_TIMEOUT_MS} ms and was stopped`;
const MEMORY_LIMIT_REASON = `used more than its ${MEMORY_LIMIT_MB} MB of memory and was stopped`;

/**
 * The worker, as plain JavaScript run with `eval` (so it needs no file of its own beside the server bundle).
 * It answers each job on `port`, then sets `signal[0]` to 1 and wakes the waiting caller (2 meanwhile: the
 * script itself has started); `signal[1]` says it has loaded the engine. Each answer is {text} or {reason} (the script's failure) or {parse} (does not parse)
 * or {timeout} or {memory} or {crash} (the engine itself failed: this worker must not be used again). A job
 * whose source is known to parse (`parses`) is not compiled twice.
 */
const WORKER_SOURCE = String.raw`
const { workerData } = require('node:worker_threads');
const { port, signal: shared, quickjs, limits } = workerData;
const signal = new Int32Array(shared);
const Q = require(quickjs);
const PAGE = 65536;

// Runs first in each context: the helpers below, holding the built-ins as they were then, so a script that
// replaces String or JSON changes only its own answer. give: each variable a global (an own data property);
// text: the answer as canary-checker gives it; describe: a thrown value, named.
const PRELUDE = '(() => {' +
  'const S = String, parse = JSON.parse, keys = Object.keys, define = Object.defineProperty, global = globalThis, E = Error;' +
  'return [' +
  '(json) => { const values = parse(json); for (const key of keys(values)) define(global, key, { value: values[key], writable: true, enumerable: true, configurable: true }); },' +
  '(value) => (value === undefined || value === null ? "" : S(value)),' +
  '(error) => { if (error instanceof E) { const name = S(error.name), message = S(error.message); return name === "Error" || message.startsWith(name) ? message : name + ": " + message; } return S(error); },' +
  '];' +
'})()';

const memory = new WebAssembly.Memory({ initial: limits.initialBytes / PAGE, maximum: (limits.initialBytes + limits.memoryBytes) / PAGE });
const full = () => memory.buffer.byteLength + 4 * PAGE >= memory.maximum * PAGE;

function run(engine, job) {
  const runtime = engine.newRuntime();
  const owned = [];
  const own = (handle) => (owned.push(handle), handle);
  let context;
  try {
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(limits.stackBytes);
    // Until the script itself starts, the deadline is the one for preparing it (bounded work of the engine's).
    let deadline = Date.now() + limits.prepareMs;
    let timedOut = false;
    runtime.setInterruptHandler(() => (timedOut ||= Date.now() > deadline));
    context = runtime.newContext();
    if (!job.parses) {
      const compiled = context.evalCode(job.source, job.where, { compileOnly: true });
      if (compiled.error) {
        const error = context.dump(own(compiled.error));
        return { parse: typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : String(error) };
      }
      own(compiled.value);
    }
    if (job.json === undefined) return { text: '' };

    const prelude = context.evalCode(PRELUDE, 'prelude');
    if (prelude.error) return { crash: 'the sandbox prelude failed' };
    const helpers = own(prelude.value);
    const give = own(context.getProp(helpers, 0));
    const text = own(context.getProp(helpers, 1));
    const describe = own(context.getProp(helpers, 2));
    // QuickJS throws null when it cannot even allocate its "out of memory" error: so does a script that
    // throws null, which is told apart by the heap being full or the script holding most of the limit.
    const exhausted = () => {
      if (full()) return true;
      try {
        const used = /memory used\s+\d+\s+(\d+)/.exec(runtime.dumpMemoryUsage());
        return !used || Number(used[1]) >= limits.memoryBytes / 2;
      } catch {
        return true;
      }
    };
    const failure = (error) => {
      if (timedOut) return { timeout: true };
      let thrown;
      const described = context.callFunction(describe, context.undefined, error);
      if (described.error) own(described.error);
      else thrown = context.getString(own(described.value));
      if (timedOut) return { timeout: true };
      if (thrown === 'InternalError: out of memory' || ((thrown === undefined || thrown === 'null') && exhausted())) return { memory: true };
      if (thrown === 'InternalError: stack overflow') return { reason: 'recursed too deeply (stack overflow) and was stopped' };
      return { reason: thrown ?? 'threw a value that cannot be shown' };
    };

    const given = context.callFunction(give, context.undefined, own(context.newString(job.json)));
    if (given.error) {
      const answer = failure(own(given.error));
      return answer.memory ? { reason: 'cannot be given its variables: ' + job.json.length + ' characters of JSON do not fit in its ' + limits.memoryBytes / 1048576 + ' MB of memory' } : answer;
    }
    own(given.value);
    deadline = Date.now() + limits.timeoutMs;
    Atomics.store(signal, 0, 2);
    Atomics.notify(signal, 0);
    const result = context.evalCode(job.source, job.where);
    if (result.error) return failure(own(result.error));
    const answer = context.callFunction(text, context.undefined, own(result.value));
    if (answer.error) return failure(own(answer.error));
    // A string by now: reading it runs nothing of the script's.
    runtime.setMemoryLimit(-1);
    return { text: context.getString(own(answer.value)) };
  } finally {
    for (const handle of owned.reverse()) if (handle.alive) handle.dispose();
    context?.dispose();
    runtime.dispose();
  }
}

Q.newQuickJSWASMModuleFromVariant(Q.newVariant(Q.RELEASE_SYNC, { wasmMemory: memory })).then((engine) => {
  let broken = false;
  port.on('message', (job) => {
    let answer;
    if (broken) answer = { crash: 'the engine failed earlier' };
    else {
      try {
        answer = run(engine, job);
        // WebAssembly memory never shrinks: a worker whose heap grew past half the limit is replaced, which
        // gives the memory back and keeps "the heap is full" meaning "this job filled it".
        if (memory.buffer.byteLength > limits.initialBytes + limits.memoryBytes / 2) answer.recycle = true;
      } catch (error) {
        broken = true;
        answer = { crash: error instanceof Error ? error.message : String(error) };
      }
    }
    port.postMessage(answer);
    Atomics.store(signal, 0, 1);
    Atomics.notify(signal, 0);
  });
  Atomics.store(signal, 1, 1);
  Atomics.notify(signal, 1);
}, (error) => {
  Atomics.store(signal, 1, 2);
  Atomics.notify(signal, 1);
  throw error;
});
`;

interface Answer {
  text?: string;
  parse?: string;
  reason?: string;
  timeout?: boolean;
  memory?: boolean;
  crash?: string;
  recycle?: boolean;
}

interface Engine {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly signal: Int32Array;
}

const quickjs = createRequire(import.meta.url).resolve('quickjs-emscripten');
let current: Engine | undefined;

/** A new worker; it loads QuickJS in the background and the first job waits for that. */
function startEngine(): Engine {
  const signal = new Int32Array(new SharedArrayBuffer(8));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      port: port2,
      signal: signal.buffer,
      quickjs,
      limits: { timeoutMs: JAVASCRIPT_TIMEOUT_MS, prepareMs: PREPARE_TIMEOUT_MS, memoryBytes: JAVASCRIPT_MEMORY_LIMIT_BYTES, stackBytes: JAVASCRIPT_STACK_LIMIT_BYTES, initialBytes: 16 * 1024 * 1024 },
    },
    transferList: [port2],
    // The worker holds only QuickJS and the text of one job; its own heap stays small.
    resourceLimits: { maxOldGenerationSizeMb: 256, stackSizeMb: 4 },
  });
  // A sandbox never keeps the process alive; an error in it is answered through the job, not thrown here.
  worker.unref();
  port1.unref();
  worker.on('error', () => {});
  return { worker, port: port1, signal };
}

/** Drops an engine that overran, crashed or grew large, and starts its successor loading at once. */
function retire(engine: Engine): void {
  engine.port.close();
  void engine.worker.terminate().catch(() => {});
  if (current === engine) current = startEngine();
}

/** Whether each script parses (null) or why not, by source: checked once per text. */
const parsed = new Map<string, string | null>();
const CACHE_LIMIT = 1000;

function remember(source: string, problem: string | null): void {
  if (parsed.size >= CACHE_LIMIT) parsed.clear();
  parsed.set(source, problem);
}

/** Runs one job in the engine, waiting for its answer; throws ExpressionError for anything but an answer. */
function ask(where: string, source: string, json: string | undefined): Answer {
  const parses = parsed.get(source) === null;
  const engine = (current ??= startEngine());
  if (Atomics.load(engine.signal, 1) === 0) Atomics.wait(engine.signal, 1, 0, START_TIMEOUT_MS);
  if (Atomics.load(engine.signal, 1) !== 1) {
    retire(engine);
    throw new ExpressionError(where, source, 'cannot run: the javascript sandbox did not start');
  }
  Atomics.store(engine.signal, 0, 0);
  engine.port.postMessage({ where, source, json, parses });
  // Two waits: while the worker compiles the script and parses its variables (bounded by their size), then
  // while the script runs (signal 2), which is what the time limit is for.
  Atomics.wait(engine.signal, 0, 0, PREPARE_TIMEOUT_MS);
  if (Atomics.load(engine.signal, 0) === 2) Atomics.wait(engine.signal, 0, 2, JAVASCRIPT_TIMEOUT_MS + HARD_STOP_GRACE_MS);
  const received = Atomics.load(engine.signal, 0) === 1 ? (receiveMessageOnPort(engine.port) as { message: Answer } | undefined) : undefined;
  if (!received) {
    const started = Atomics.load(engine.signal, 0) === 2;
    retire(engine);
    throw new ExpressionError(where, source, started ? TIME_LIMIT_REASON : `was not run: the javascript sandbox did not take it up within ${PREPARE_TIMEOUT_MS} ms and was restarted`);
  }
  const answer = received.message;
  if (answer.recycle) retire(engine);
  if (answer.crash !== undefined) {
    retire(engine);
    throw new ExpressionError(where, source, `crashed the javascript sandbox (${answer.crash}) and was stopped`);
  }
  return answer;
}

/** Checks that a script parses, for validation when a spec is saved: throws ExpressionError when not. */
export function checkJavascript(where: string, source: string): void {
  let problem = parsed.get(source);
  if (problem === undefined) {
    problem = ask(where, source, undefined).parse ?? null;
    remember(source, problem);
  }
  if (problem !== null) throw new ExpressionError(where, source, `does not parse: ${problem}`);
}

/**
 * canary-checker's `javascript` templates: the variables are globals (a JSON copy) and the value of the
 * script's last statement is the answer, as text ('' for undefined and null). A script that throws, runs
 * past JAVASCRIPT_TIMEOUT_MS, allocates past JAVASCRIPT_MEMORY_LIMIT_BYTES or recurses too deeply is
 * stopped with an ExpressionError saying which.
 */
export function evaluateJavascript(where: string, source: string, variables: Record<string, unknown>): string {
  const known = parsed.get(source);
  if (known) throw new ExpressionError(where, source, `does not parse: ${known}`);
  let json: string;
  try {
    json = JSON.stringify(variables, (_key, value: unknown) => (typeof value === 'bigint' ? Number(value) : value));
  } catch (error) {
    throw new ExpressionError(where, source, `cannot be given its variables: ${messageOf(error)}`);
  }
  const answer = ask(where, source, json);
  if (answer.parse !== undefined) {
    remember(source, answer.parse);
    throw new ExpressionError(where, source, `does not parse: ${answer.parse}`);
  }
  if (!parsed.has(source)) remember(source, null);
  if (answer.timeout) throw new ExpressionError(where, source, TIME_LIMIT_REASON);
  if (answer.memory) throw new ExpressionError(where, source, MEMORY_LIMIT_REASON);
  if (answer.reason !== undefined) throw new ExpressionError(where, source, answer.reason);
  return answer.text ?? '';
}
