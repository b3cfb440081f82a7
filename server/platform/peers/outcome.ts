import type { ArtifactInput } from '../artifacts';

/**
 * The outcome of one run of a check type, before `test`, `display` and `transform` are applied.
 * A failed connection or a wrong answer is `pass: false` with a message; a check that cannot run as
 * written (a bad URL, a missing file for a check that needs one) is also `invalid: true`. Health checks
 * return it (server/features/health/types.ts re-exports it); the playbook actions that reach the same
 * peers read it too.
 */
export interface CheckOutcome {
  pass: boolean;
  invalid?: boolean;
  /** Milliseconds; the runner measures the whole run when the type does not say. */
  duration?: number;
  message?: string;
  error?: string;
  /**
   * The variables `test.expr`, `display.expr`, `display.template` and `transform.expr` see, for example
   * code, headers, json, content and sslAge for http (docs/HEALTH.md lists them per type).
   */
  data: Record<string, unknown>;
  /** Kept with the result (shown in the check's history), e.g. the response headers. */
  details?: Record<string, unknown>;
  /** Files the run left (exec `artifacts`): stored with the result, downloadable from its history. */
  artifacts?: ArtifactInput[];
}
