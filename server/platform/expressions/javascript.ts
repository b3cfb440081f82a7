import vm from 'node:vm';
import { messageOf } from '../errors';
import { ExpressionError } from './errors';

/** A script that runs longer is stopped: a display or test must never hold up a check run. */
const JAVASCRIPT_TIMEOUT_MS = 1000;

const compiled = new Map<string, vm.Script | Error>();
const CACHE_LIMIT = 1000;

function compile(where: string, source: string): vm.Script {
  let entry = compiled.get(source);
  if (!entry) {
    try {
      entry = new vm.Script(source, { filename: where });
    } catch (error) {
      entry = new Error(messageOf(error));
    }
    if (compiled.size >= CACHE_LIMIT) compiled.clear();
    compiled.set(source, entry);
  }
  if (entry instanceof Error) throw new ExpressionError(where, source, `does not parse: ${entry.message}`);
  return entry;
}

/** Checks that a script parses, for validation when a spec is saved: throws ExpressionError when not. */
export function checkJavascript(where: string, source: string): void {
  compile(where, source);
}

/**
 * canary-checker's `javascript` templates (run there by otto): the variables are globals and the value of
 * the script's last statement is the answer, as text. Each run gets a fresh context holding a JSON copy of
 * the variables, so a script cannot reach the server's objects; it is stopped after a second. This is no
 * sandbox against a hostile author (neither is otto, and exec checks run shell scripts): it keeps a
 * careless script from doing harm.
 */
export function evaluateJavascript(where: string, source: string, variables: Record<string, unknown>): string {
  const script = compile(where, source);
  const globals: unknown = JSON.parse(JSON.stringify(variables, (_key, value: unknown) => (typeof value === 'bigint' ? Number(value) : value)));
  try {
    const context = vm.createContext(typeof globals === 'object' && globals !== null ? globals : {});
    const value: unknown = script.runInContext(context, { timeout: JAVASCRIPT_TIMEOUT_MS });
    return value === undefined || value === null ? '' : String(value);
  } catch (error) {
    const reason = /Script execution timed out/.test(messageOf(error)) ? `ran longer than ${JAVASCRIPT_TIMEOUT_MS} ms and was stopped` : messageOf(error);
    throw new ExpressionError(where, source, reason);
  }
}
