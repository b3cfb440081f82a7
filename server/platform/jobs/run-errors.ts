import type { JobRun } from './job-run';

/**
 * The errors of one run (a scrape, a topology build): every one goes to the job's history, the first
 * `max` are answered and the rest counted ("… and 12 more errors"), so a run that fails everywhere stays
 * readable.
 */
export function runErrors(job: JobRun | undefined, max = 50) {
  const errors: string[] = [];
  let count = 0;
  return {
    add(message: string) {
      count += 1;
      if (errors.length < max) errors.push(message);
      job?.error(message);
    },
    /** The errors to answer, with the count of those left out. */
    list(): string[] {
      return count > errors.length ? [...errors, `… and ${count - errors.length} more errors`] : [...errors];
    },
  };
}
