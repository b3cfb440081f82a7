import { LATENCY_MINUTES_AT_MS, LATENCY_SECONDS_AT_MS } from '../constants';

function trim(value: number): string {
  return String(Number(value.toFixed(2)));
}

/** Latency in ms below 1000 ms, in seconds below 60000 ms, in minutes above (spec §9). */
export function formatLatency(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '';
  if (ms < LATENCY_SECONDS_AT_MS) return `${Math.round(ms)}ms`;
  if (ms < LATENCY_MINUTES_AT_MS) return `${trim(ms / 1_000)}s`;
  return `${trim(ms / 60_000)}m`;
}
