import { printV } from '../fmt';
import { asDuration, floatToInt } from '../kinds';
import { humanDurationText, humanSizeText } from '../../shared/human';

/**
 * flanksource/gomplate's strings.Duration.String(), then every "0s" and "0m" removed from the text. That
 * last step is gomplate's, bugs included: 10s reads "1" and 20m0s reads "2", and this keeps it so the
 * output matches canary-checker.
 */
export function humanDurationOf(nanoseconds: bigint): string {
  if (nanoseconds === 0n) return '0s';
  return humanDurationText(nanoseconds).replaceAll('0s', '').replaceAll('0m', '');
}

/** gomplate's humanDuration: int64 and float64 are nanoseconds, durations themselves; "" for the rest. */
export function humanDuration(value: unknown): string {
  if (typeof value === 'bigint') return humanDurationOf(value);
  if (typeof value === 'number') return humanDurationOf(floatToInt(value));
  const duration = asDuration(value);
  return duration ? humanDurationOf(duration.nanoseconds) : '';
}

/** gomplate's humanSize (cloudfoundry's ByteSize): 10M, 12.5K, 0B; "NaN" for text that is not a count. */
export function humanBytes(value: unknown): string {
  let bytes: bigint;
  if (typeof value === 'bigint') bytes = BigInt.asUintN(64, value);
  else if (typeof value === 'number') bytes = BigInt.asUintN(64, floatToInt(value));
  else if (typeof value === 'string') {
    if (!/^\d+$/.test(value) || BigInt(value) > 18446744073709551615n) return 'NaN';
    bytes = BigInt(value);
  } else {
    return `unknown type: ${printV(value ?? null)} = %!t(${value === undefined || value === null ? '<nil>' : typeof value})`;
  }
  return humanSizeText(bytes);
}
