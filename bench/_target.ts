// A local HTTP target for the scheduling benchmarks: answers 200 on /m/<n> at once and on /slow/<n> after a
// delay, and records when each request for <n> arrived (its own clock, taken before anything else is
// done with the request). (The underscore keeps this file out of `npm run bench`.)
import http from 'node:http';
import { freePort } from '../server/platform/db/embedded';

export interface Target {
  port: number;
  /** Arrival times (ms since the epoch, fractional) of the requests for each path number. */
  arrivals: Map<number, number[]>;
  close(): Promise<void>;
}

export async function startTarget(slowMillis: number): Promise<Target> {
  const arrivals = new Map<number, number[]>();
  const origin = Date.now() - performance.now();
  const server = http.createServer((req, res) => {
    const at = origin + performance.now();
    const match = /^\/(m|slow)\/(\d+)/.exec(req.url ?? '');
    if (!match) {
      res.writeHead(404).end();
      return;
    }
    const n = Number(match[2]);
    let list = arrivals.get(n);
    if (!list) arrivals.set(n, (list = []));
    list.push(at);
    const answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    if (match[1] === 'slow') setTimeout(answer, slowMillis);
    else answer();
  });
  server.keepAliveTimeout = 60_000;
  server.maxConnections = 100_000;
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen({ port, host: '127.0.0.1', backlog: 4096 }, resolve));
  return {
    port,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface IntervalErrors {
  /** |interval − schedule| of every pair of consecutive arrivals, ms, sorted. */
  errors: number[];
  /** Gaps longer than 1.5 intervals (a slot with no run). */
  missed: number;
  /** Gaps shorter than half an interval (a slot run twice). */
  doubled: number;
}

/** Per-check interval errors of the arrivals inside [from, to). */
export function intervalErrors(arrivals: Map<number, number[]>, numbers: Iterable<number>, intervalMillis: number, from: number, to: number): IntervalErrors {
  const errors: number[] = [];
  let missed = 0;
  let doubled = 0;
  for (const n of numbers) {
    const seen = (arrivals.get(n) ?? []).filter((at) => at >= from && at < to).sort((a, b) => a - b);
    for (let i = 1; i < seen.length; i += 1) {
      const gap = (seen[i] ?? 0) - (seen[i - 1] ?? 0);
      if (gap > intervalMillis * 1.5) missed += Math.round(gap / intervalMillis) - 1;
      else if (gap < intervalMillis / 2) doubled += 1;
      else errors.push(Math.abs(gap - intervalMillis));
    }
  }
  errors.sort((a, b) => a - b);
  return { errors, missed, doubled };
}
