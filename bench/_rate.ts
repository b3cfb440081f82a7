// Throughput of a small piece of work for the expression benchmarks: warmed up (compile caches, JIT), then run
// in batches for `seconds` on this one thread. (The underscore keeps this file out of `npm run bench`.)

/** Runs `work` for about `seconds` after `warmup` runs; answers runs per second. */
export function perSecond(work: () => unknown, seconds: number, warmup = 10_000): number {
  for (let i = 0; i < warmup; i += 1) work();
  let count = 0;
  const start = process.hrtime.bigint();
  const budget = BigInt(Math.round(seconds * 1e9));
  let elapsed = 0n;
  while (elapsed < budget) {
    for (let i = 0; i < 500; i += 1) work();
    count += 500;
    elapsed = process.hrtime.bigint() - start;
  }
  return count / (Number(elapsed) / 1e9);
}
