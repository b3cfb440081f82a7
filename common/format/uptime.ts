/** Uptime as a percentage with one decimal (spec §9): 199 passed, 1 failed → '99.5%'. Empty with no runs. */
export function formatUptime(passed: number, failed: number): string {
  const total = passed + failed;
  if (!(total > 0)) return '';
  return `${((passed / total) * 100).toFixed(1)}%`;
}

/** A group row shows how many of its checks pass fully: '3/4'. */
export function formatGroupUptime(fullyPassing: number, total: number): string {
  return `${fullyPassing}/${total}`;
}
