import { parse, stringify, TomlDate } from 'smol-toml';
import { isRecord } from '../../errors';
import { fail } from './values';

/**
 * TOML 1.0 (smol-toml), shared by the templates' toml/toTOML and CEL's TOML()/toTOML(), read as gomplate's
 * decoder (BurntSushi/toml) gives it: integers int64 (bigint), offset datetimes time.Time (Date), local
 * dates and times as their text.
 */
function value(item: unknown): unknown {
  if (item instanceof TomlDate) return item.isDate() || item.isTime() || item.isLocal() ? item.toISOString() : new Date(item.getTime());
  if (Array.isArray(item)) return item.map(value);
  if (isRecord(item)) return Object.fromEntries(Object.entries(item).map(([key, entry]) => [key, value(entry)]));
  return item;
}

/** A TOML document as a map; throws with the parser's first line. */
export function readToml(text: string): Record<string, unknown> {
  try {
    return value(parse(text, { integersAsBigInt: true })) as Record<string, unknown>;
  } catch (error) {
    return fail((error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'invalid TOML');
  }
}

/** A map as TOML text (tables after plain keys); throws for anything but a map. */
export function writeToml(map: unknown): string {
  if (!isRecord(map) || Array.isArray(map)) return fail('toml: top-level values must be Go maps or structs');
  return stringify(map);
}
