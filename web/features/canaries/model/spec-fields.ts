/**
 * Canary-level keys of a spec that are not lists of checks (canary-checker's CanarySpec besides the
 * check types), so the list can count checks and the form can keep these keys as written.
 */
export const CANARY_FIELDS: readonly string[] = ['schedule', 'interval', 'icon', 'severity', 'owner', 'env', 'replicas', 'resultMode', 'agentSelector'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * How many checks a spec declares: every item of every check list (a push type such as webhook may be
 * one mapping). Types this server does not run count too: they are in the spec, and the editor names them.
 */
export function countChecks(spec: unknown): number {
  if (!isRecord(spec)) return 0;
  let count = 0;
  for (const [key, value] of Object.entries(spec)) {
    if (CANARY_FIELDS.includes(key)) continue;
    if (Array.isArray(value)) count += value.length;
    else if (isRecord(value)) count += 1;
  }
  return count;
}
