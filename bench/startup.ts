// Start-to-first-200 on /health: a fresh data directory (initdb + migrations) and an existing one.
// Targets (issue 2): ≤ 15 s fresh, ≤ 3 s existing. Run: npx tsx bench/startup.ts [runs]
import fs from 'node:fs/promises';
import { freePort } from '../server/platform/db/embedded';
import { startServe, tempDataDir } from '../test/cli';

const runs = Number(process.argv[2] ?? 3);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const fresh: number[] = [];
  const existing: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const dir = await tempDataDir();
    const first = await startServe({ WATCHKEEPER_DATA: dir, LOG_LEVEL: 'warn' }, await freePort());
    fresh.push(first.readyMs);
    await first.stop();
    const second = await startServe({ WATCHKEEPER_DATA: dir, LOG_LEVEL: 'warn' }, await freePort());
    existing.push(second.readyMs);
    await second.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
  const line = (label: string, values: number[], target: number) =>
    `${label.padEnd(28)} median ${(median(values) / 1000).toFixed(2)} s  (runs: ${values.map((v) => (v / 1000).toFixed(2)).join(', ')})  target ≤ ${target} s  ${median(values) <= target * 1000 ? 'OK' : 'MISSED'}`;
  const built = await fs.stat(new URL('../dist/server/main.js', import.meta.url)).then(() => 'built bundle', () => 'TypeScript sources via tsx (run npm run build for the production figure)');
  process.stdout.write(`startup to first 200 on /health (${built})\n`);
  process.stdout.write(`${line('fresh data directory', fresh, 15)}\n`);
  process.stdout.write(`${line('existing data directory', existing, 3)}\n`);
}

await main();
