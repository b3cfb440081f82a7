import type pg from 'pg';
import type { z } from 'zod';
import type { CheckOutcome } from '../../platform/peers/outcome';
import type { Logger } from '../../platform/logger';
import type { Issue } from '../../platform/http/errors';

/** What a check run may use besides its own spec. */
export interface CheckContext {
  /** Aborted at the check's timeout or when the server stops: stop work and return. */
  signal: AbortSignal;
  timeoutMs: number;
  /** The canary's `env` values (static `value` entries), for exec scripts and templates. */
  env: Readonly<Record<string, string>>;
  canary: { id: string; name: string; namespace: string };
  /** The check's id (push checks such as webhook read their own results). */
  checkId: string;
  pool: pg.Pool;
  log: Logger;
}

export type { CheckOutcome };

/**
 * One check type (DESIGN §3): its fields as canary-checker writes them, and how to run it. Adding a type is
 * adding a file in checks/ and one line in registry.ts.
 */
export interface CheckType<S = unknown> {
  /** The key under `spec` in a Canary, e.g. 'http'. */
  type: string;
  /** For the type picker: a name and a lucide icon name. */
  label: string;
  icon: string;
  /** The type's own fields (the common ones — name, description, labels, test, display… — are handled for it). */
  schema: z.ZodType<S>;
  /** What the check points at, for lists (passwords removed). */
  endpoint(spec: S): string;
  run(spec: S, ctx: CheckContext): Promise<CheckOutcome>;
  /** Milliseconds a run may take, from the spec (e.g. its `timeout`); default 30 s. */
  timeoutMs?(spec: S): number | undefined;
  /** Results come from outside (webhook): the scheduler does not run it. */
  push?: boolean;
  /** Fields inside the type's own (nested) fields that are read but not run, each `{path, message}` relative to the check. */
  warnings?(spec: S): Issue[];
}

/** A check type with its spec type erased, as the registry holds it: the spec is parsed on the way in. */
export interface RegisteredCheckType {
  type: string;
  label: string;
  icon: string;
  push: boolean;
  schema: z.ZodType;
  /** The names of the type's own fields (unknown ones are reported by name). */
  fields: readonly string[];
  parse(raw: unknown): { ok: true; spec: unknown } | { ok: false; issues: Issue[] };
  endpoint(raw: unknown): string;
  timeoutMs(raw: unknown): number;
  /** Nested fields read but not run (see CheckType.warnings); none when the spec does not parse. */
  warnings(raw: unknown): Issue[];
  run(raw: unknown, ctx: CheckContext): Promise<CheckOutcome>;
}
