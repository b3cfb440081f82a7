import { z } from 'zod';
import { summarizeIssues, type Issue } from '../../platform/http/errors';
import { zodIssues } from '../../platform/http/validation';
import { hasReferences } from '../../platform/secrets/spec-references';
import type { CheckContext, CheckOutcome, CheckType, RegisteredCheckType } from './types';

export const DEFAULT_CHECK_TIMEOUT_MS = 30_000;
/** No run may take longer than this, whatever its spec says. */
export const MAX_CHECK_TIMEOUT_MS = 10 * 60_000;

/** The field names of a zod object schema (others are reported as unsupported). */
export function schemaFields(schema: z.core.$ZodType): string[] {
  if (schema instanceof z.ZodPipe) return schemaFields(schema.in);
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/** Registers a check type: its spec is parsed (and its problems named) before the type sees it. */
export function defineCheckType<S>(definition: CheckType<S>): RegisteredCheckType {
  const parse = (raw: unknown): { ok: true; spec: S } | { ok: false; issues: Issue[] } => {
    const parsed = definition.schema.safeParse(raw);
    return parsed.success ? { ok: true, spec: parsed.data } : { ok: false, issues: zodIssues(parsed.error) };
  };
  return {
    type: definition.type,
    label: definition.label,
    icon: definition.icon,
    push: definition.push ?? false,
    schema: definition.schema,
    fields: schemaFields(definition.schema),
    parse,
    endpoint(raw) {
      const parsed = parse(raw);
      return parsed.ok ? definition.endpoint(parsed.spec) : '';
    },
    warnings(raw) {
      const parsed = parse(raw);
      return parsed.ok && definition.warnings ? definition.warnings(parsed.spec) : [];
    },
    timeoutMs(raw) {
      const parsed = parse(raw);
      const wanted = parsed.ok ? definition.timeoutMs?.(parsed.spec) : undefined;
      return Math.min(MAX_CHECK_TIMEOUT_MS, wanted && wanted > 0 ? wanted : DEFAULT_CHECK_TIMEOUT_MS);
    },
    async run(raw: unknown, ctx: CheckContext): Promise<CheckOutcome> {
      // The engine reads every valueFrom and connection:// before a check runs (runner.ts); one still here
      // would run with an empty value, which upstream never does.
      if (hasReferences(raw)) {
        const message = 'a valueFrom or connection:// reference was not read before the check ran; run it through the engine';
        return { pass: false, message, error: message, data: {} };
      }
      const parsed = parse(raw);
      if (!parsed.ok) {
        // Problems upstream finds only at run time (see Issue.atRun) fail the run as they would there.
        if (parsed.issues.every((issue) => issue.atRun)) return { pass: false, message: summarizeIssues(parsed.issues), error: summarizeIssues(parsed.issues), data: {} };
        return { pass: false, invalid: true, message: `the check is not valid: ${summarizeIssues(parsed.issues)}`, data: {} };
      }
      return definition.run(parsed.spec, ctx);
    },
  };
}
