// Log search (issue 7's log lines, docs/LOGS.md): the reader behind POST /api/logs over real files.
//   one 32 MB file of 300,000 text lines spread over the last 24 hours: newest 500 lines of the last hour;
//   a rare word over the whole day; and 20 JSON (pino) files of 50,000 lines each, searched together.
// Prints wall time (median of 5) and the process's peak RSS.
// Run: npx tsx bench/logs.ts
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { searchLogFiles, type LogFile } from '../server/features/logs/search';

const DAY = 86_400_000;

async function writeLines(file: string, count: number, line: (index: number, time: Date) => string): Promise<void> {
  const handle = await fs.open(file, 'w');
  const now = Date.now();
  let chunk: string[] = [];
  for (let i = 0; i < count; i += 1) {
    chunk.push(line(i, new Date(now - DAY + (i * DAY) / count)));
    if (chunk.length === 10_000) {
      await handle.write(`${chunk.join('\n')}\n`);
      chunk = [];
    }
  }
  if (chunk.length > 0) await handle.write(`${chunk.join('\n')}\n`);
  await handle.close();
}

async function median(label: string, work: () => Promise<{ results: unknown[]; total: number }>): Promise<void> {
  const times: number[] = [];
  let last = { results: [] as unknown[], total: 0 };
  for (let i = 0; i < 5; i += 1) {
    const started = performance.now();
    last = await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(`${label}: median ${Math.round(times[2] ?? 0)} ms (worst ${Math.round(times[4] ?? 0)}), ${last.results.length} lines answered of ${last.total} matched`);
}

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-bench-logs-'));
try {
  const big = path.join(dir, 'app.log');
  await writeLines(big, 300_000, (i, time) => `${time.toISOString()} ${i % 50 === 0 ? 'ERROR' : 'INFO'} request ${i} served by worker-${i % 16} in ${i % 97} ms${i === 123_456 ? ' needle' : ''} ${'x'.repeat(20)}`);
  console.log(`text file: ${((await fs.stat(big)).size / 1024 / 1024).toFixed(1)} MB, 300,000 lines`);
  const one: LogFile[] = [{ path: big, labels: {} }];
  const now = Date.now();
  await median('last hour, newest 500', () => searchLogFiles(one, { query: '', start: new Date(now - 3_600_000), end: new Date(now), limit: 500 }));
  await median('whole day, rare word', () => searchLogFiles(one, { query: 'needle', start: new Date(now - DAY - 60_000), end: new Date(now), limit: 500 }));
  await median('whole day, ERROR lines (6,000), newest 500', () => searchLogFiles(one, { query: 'error', start: new Date(now - DAY - 60_000), end: new Date(now), limit: 500 }));

  const many: LogFile[] = [];
  for (let f = 0; f < 20; f += 1) {
    const file = path.join(dir, `svc-${f}.log`);
    await writeLines(file, 50_000, (i, time) => JSON.stringify({ level: i % 40 === 0 ? 50 : 30, time: time.getTime(), msg: `svc-${f} handled ${i}` }));
    many.push({ path: file, labels: {} });
  }
  await median('20 JSON files x 50,000 lines, last 6 hours, level 50', () => searchLogFiles(many, { query: '"level":50', start: new Date(now - 6 * 3_600_000), end: new Date(now), limit: 500 }));
  console.log(`peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
} finally {
  await fs.rm(dir, { recursive: true, force: true });
}
