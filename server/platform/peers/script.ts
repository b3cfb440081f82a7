import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** Output kept per stream by default: enough to read, bounded so a chatty script cannot fill memory or the database. */
export const MAX_SCRIPT_OUTPUT = 64 * 1024;

/** The shell the watchdog runs in (POSIX sh). */
const SH = '/bin/sh';
/**
 * Starts the script (its interpreter and arguments, "$@") as the leader of its process group, beside a
 * watchdog that waits on fd 3, a pipe whose other end only this process holds. When the script ends we
 * write "done" and the watchdog leaves; if this process dies instead (kill -9, a crash), the pipe closes
 * and the watchdog kills the whole group — so a script never outlives the instance that ran it, and a run
 * taken over by another instance is not still running here.
 */
const WATCHDOG = '( read -r line <&3; [ "$line" = done ] || kill -KILL 0 ) </dev/null >/dev/null 2>&1 & exec "$@" 3<&-';

/** After the script itself exits, how long processes it left behind may keep its output open. */
const LINGER_MS = 2000;

export interface ScriptResult {
  stdout: string;
  stderr: string;
  /** null when the script was killed (its signal, a timeout) or could not start. */
  exitCode: number | null;
  /** The signal that ended it, if one did. */
  signal: NodeJS.Signals | null;
  /** Set when the script could not start or was stopped. */
  error?: Error;
  /** True when stdout was longer than the limit and was cut. */
  truncated: boolean;
  stderrTruncated: boolean;
  /** The interpreter run (resolved on PATH) and its arguments, the script last: duty's ExecDetails path and args. */
  path: string;
  args: string[];
}

export interface ScriptOptions {
  env?: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** The working directory; TMPDIR (or /tmp) by default. */
  cwd?: string;
  /** Bytes of stdout kept (MAX_SCRIPT_OUTPUT by default). */
  maxOutput?: number;
  /** Bytes of stderr kept (MAX_SCRIPT_OUTPUT by default). */
  maxError?: number;
}

export interface ScriptCommand {
  /** As written in the shebang (`python3`, `/bin/sh`), or bash (sh without bash). */
  interpreter: string;
  /** The interpreter's arguments, the script's text last. */
  args: string[];
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** A command name found on PATH (as Go's exec.LookPath); a name with a slash is taken as written. */
export function resolveOnPath(name: string, pathVariable: string | undefined): string | undefined {
  if (name.includes('/')) return name;
  for (const dir of (pathVariable ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** Interpreters whose inline-script flag duty adds even when the shebang gives other arguments. */
const INLINE_FLAGS: Readonly<Record<string, string>> = { python: '-c', python3: '-c', node: '-e', bun: '-e' };

/**
 * How a script runs, as duty's shell decides: a first line `#!interpreter args` (through `/usr/bin/env`
 * too) picks the interpreter; python gets `-c` and node and bun `-e` unless the shebang has them, any other
 * `-c` when the shebang gives no arguments. Without a shebang it is bash (sh where bash is missing). Lines
 * starting with `#!` are taken out of the text passed.
 */
export function scriptCommand(script: string, pathVariable: string | undefined): ScriptCommand {
  const lines = script.split('\n');
  const body = lines.filter((line) => !line.startsWith('#!')).join('\n');
  const first = lines[0] ?? '';
  if (first.startsWith('#!')) {
    let [interpreter = '', ...args] = first.slice(2).trim().split(/\s+/).filter(Boolean);
    if (path.basename(interpreter) === 'env' && args.length > 0) [interpreter = '', ...args] = args;
    const inline = INLINE_FLAGS[path.basename(interpreter)];
    if (inline !== undefined && !args.includes(inline)) args.push(inline);
    else if (inline === undefined && args.length === 0) args.push('-c');
    if (interpreter !== '') return { interpreter, args: [...args, body] };
  }
  return { interpreter: resolveOnPath('bash', pathVariable) ? 'bash' : 'sh', args: ['-c', body] };
}

/** Keeps the first `max` bytes of a stream and says whether there was more. */
class Capture {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  truncated = false;
  constructor(private readonly max: number) {}
  add(chunk: Buffer): void {
    if (this.bytes >= this.max) {
      this.truncated = true;
      return;
    }
    const room = this.max - this.bytes;
    if (chunk.length > room) this.truncated = true;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.bytes += kept.length;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/**
 * Runs a script (bash, or the interpreter of its shebang) in a working directory of the caller's choice,
 * with only the environment given (plus PATH, HOME and LANG), in a process group of its own: the signal
 * stops the script and everything it started.
 */
export function runScript(script: string, options: ScriptOptions): Promise<ScriptResult> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: process.env.LANG ?? 'C.UTF-8', ...options.env };
  const command = scriptCommand(script, env.PATH);
  const resolved = resolveOnPath(command.interpreter, env.PATH) ?? command.interpreter;
  const stdout = new Capture(options.maxOutput ?? MAX_SCRIPT_OUTPUT);
  const stderr = new Capture(options.maxError ?? MAX_SCRIPT_OUTPUT);
  const base = { path: resolved, args: [resolved, ...command.args] };
  const finish = (exitCode: number | null, signal: NodeJS.Signals | null, error?: Error): ScriptResult => ({
    stdout: stdout.text(),
    stderr: stderr.text(),
    exitCode,
    signal,
    truncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
    ...base,
    ...(error ? { error } : {}),
  });
  if (options.signal.aborted) return Promise.resolve(finish(null, null, new Error('stopped before it started')));
  return new Promise((resolve) => {
    const cwd = options.cwd ?? process.env.TMPDIR ?? '/tmp';
    // With a watchdog (fd 3) when the interpreter exists; a missing one is spawned directly so it fails as ENOENT.
    const guarded = isExecutable(resolved) && isExecutable(SH);
    const child = guarded
      ? spawn(SH, ['-c', WATCHDOG, 'watchkeeper-script', resolved, ...command.args], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], cwd })
      : spawn(resolved, command.args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'], cwd });
    const watchdog = guarded ? (child.stdio[3] as NodeJS.WritableStream & { destroy?: () => void; on: (event: string, listener: () => void) => void }) : undefined;
    // The pipe breaking is how the watchdog learns of our end; an error on it is expected then.
    watchdog?.on('error', () => undefined);
    let done = false;
    let linger: NodeJS.Timeout | undefined;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    const onAbort = () => killGroup();
    const settle = (result: ScriptResult) => {
      if (done) return;
      done = true;
      clearTimeout(linger);
      options.signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout?.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.add(chunk));
    child.once('error', (error) => settle(finish(null, null, error)));
    child.once('exit', (code, signal) => {
      // The script ended: its watchdog leaves without killing anything (what it left behind lingers as before).
      watchdog?.end('done\n');
      // Output is complete when its pipes close; a background process still holding them is stopped.
      linger = setTimeout(() => {
        killGroup();
        settle(finish(code, signal, options.signal.aborted ? new Error('the script was stopped') : undefined));
      }, LINGER_MS);
    });
    child.once('close', (code, signal) => settle(finish(code, signal, options.signal.aborted ? new Error('the script was stopped') : undefined)));
  });
}

/**
 * Go's strings.TrimSpace, which duty's shell applies to a script's stdout and stderr: Unicode White_Space
 * at both ends. Unlike String.prototype.trim it keeps U+FEFF (a byte-order mark) and trims U+0085 (NEL).
 */
export function trimSpace(text: string): string {
  return text.replace(/^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g, '');
}
