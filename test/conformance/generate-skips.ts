// Regenerates cel-skips.ts from the actual failures of the product's CEL (run: npx tsx test/conformance/generate-skips.ts).
// Each failure goes to the first group whose rule matches; a failure no rule matches is printed and nothing is
// written: give it a group with a true reason first. Re-read the reasons after regenerating — a group whose
// cause changed (say the product now registers some math functions) needs its reason changed too.
import fs from 'node:fs';
import path from 'node:path';
import { conformanceCases, runConformance } from './cel-conformance';
import { productAdapter } from './product';

interface Failure {
  id: string;
  why: string;
  expr: string;
  proto: boolean;
}

const GROUPS: Array<[string, string, (x: Failure) => boolean]> = [
  ['protobuf', 'Protobuf messages, enums and wrapper types: the product has no protobuf types, and cel-js can neither build messages (TestAllTypes{…}, google.protobuf.Int32Value{…}, Any, Struct) nor resolve enums and containers.', (x) => x.proto],
  ['block_ext', "cel.block / cel.index / cel.iterVar (block_ext): the CEL optimizer's common-subexpression form, not in cel-js and never written by hand.", (x) => x.id.startsWith('block_ext/')],
  ['optionals', "Optional values beyond what cel-js and the product have: `?.`, `[?]`, `.or()`, `.orValue()`, `.hasValue()`, `optional.of/none/ofNonZeroValue`, `.optMap()`, `.optFlatMap()` and == between optionals work; optional list and map entries (`[?x]`, `{?k: v}`) do not parse, has() over an optional selection or a literal (`has({}.?x.y)`) and type(optional) / optional_type do not type-check, cel-js's checker cannot index an empty map literal or optional.none() (`{}.?key`, `optional.none()[?0]`), and selecting a field of a non-map after `.?` gives none where CEL fails (rarely written in check or scraper YAML).", (x) => x.id.startsWith('optionals/')],
  ['macros2', 'Two-variable comprehensions (all/exists/existsOne(k, v, …), transformList, transformMap): not in cel-js.', (x) => x.id.startsWith('macros2/')],
  ['math_ext', 'The math extension is registered by the product (bit operations keep int and uint apart, ceil/floor/round/trunc take only doubles, as in cel-go); no case is skipped.', (x) => x.id.startsWith('math_ext/')],
  ['encoders_ext', 'The encoders extension (base64.encode/decode) is registered by the product; no case is skipped.', (x) => x.id.startsWith('encoders_ext/')],
  ['string_ext', "The strings extension is registered by the product with cel-go's semantics (format() as cel-go's formatter prints values, ASCII-only lowerAscii()/upperAscii(), Go's whitespace set for trim()); no case is skipped.", (x) => x.id.startsWith('string_ext/')],
  ['bytes', "Bytes: cel-js does not order bytes (<, <=, >, >=), compares a non-ASCII character in a bytes literal by code point rather than by its UTF-8 bytes, has no raw bytes literals (br'…'), and turns invalid UTF-8 into U+FFFD instead of failing in string(bytes).", (x) => /bytes/.test(x.id)],
  ['mixed_numbers', "Numbers across types: cel-js's checker rejects ==, != and `in` between int, uint and double (1.0 == 1, 2u != 2, [1] == [1.0], dyn(3u) in [3]) and mixed-number map keys, where CEL compares them by value; and it compares int and double by converting the int to a double near 2^63.", (x) => /mixed_type|mixed_types|_dyn_|lists\/in\/|zero_based_uint|repeat_key_heterogeneous|not_eq_list_length/.test(x.id)],
  ['compile_time_errors', "cel-js rejects at compile time what CEL leaves to run time: a call to an unknown function or method (`f_unknown(17) || true`, `a.as() || true` must be true), `&&` / `||` / `?:` with non-bool or mixed-type branches (`false && 32`, `true ? 'cows' : 17`), and two checker bugs: `[].all(e, e > 0)` does not compile, and a comprehension over a map with int keys sees its keys as strings.", (x) => /unbound_is_runtime_error|receiver_function_names|logic\/|macros\//.test(x.id)],
  ['int_uint', 'int(uint) is missing in cel-js (int(42u) fails to compile).', (x) => /int\(uint\)/.test(x.why)],
  ['overflow', 'Range errors cel-js does not raise: negating or dividing the minimum int64, and int()/uint() of a double outside the int64/uint64 range.', (x) => /int64_min_negate|double_int_m..\_range|double_range|double_uint_max_range/.test(x.id)],
  ['timestamps', "Timestamps and durations: cel-js keeps timestamps as JS Dates (millisecond precision, no range check to years 1–9999), has no duration range check (±10000 years), no int(timestamp), string(timestamp), string(duration), timestamp(timestamp) or duration(duration), no numeric time-zone offsets ('+11:00'), no duration + timestamp, and getMilliseconds() of a duration returns the whole duration in milliseconds.", (x) => x.id.startsWith('timestamps/') || /conversions\/(int\/timestamp|identity)/.test(x.id)],
  ['map_literals', 'Map literals: cel-js accepts double and null keys and a repeated key ({true: 1, true: 3}), which CEL rejects.', (x) => /map_key_float|map_key_null|map_value_repeat_key/.test(x.id)],
  ['has_on_map_literal', 'has() on a map literal (`has({\'a\': 1}.a)`): cel-js accepts has() only on a variable path.', (x) => x.id.startsWith('fields/map_has/')],
  ['qualified_names', 'Variables with dotted names (a binding named `a.b.c` or `x.y`): cel-js resolves only simple names; the product binds none.', (x) => /qualified_identifier_resolution|namespace\/qualified/.test(x.id)],
  ['quoted_fields', 'Back-quoted field names (`{…}.`content-type``): the newer CEL syntax is not in cel-js; the product reads such keys as m["content-type"].', (x) => /quoted_map_fields/.test(x.id)],
  ['null_type', "type(null) is named `null` in cel-js, not `null_type`.", (x) => /null_type/.test(x.id)],
  ['double_literals', 'A double literal starting with a dot (`.99`) does not parse in cel-js.', (x) => /not_gt_double/.test(x.id)],
];

const cases = new Map(conformanceCases().map((item) => [item.id, item]));
const failures: Failure[] = [...runConformance(productAdapter()).failures].map(([id, why]) => ({ id, why, expr: cases.get(id)!.expr, proto: cases.get(id)!.usesProtobuf }));
const out = GROUPS.map(([name, reason]) => ({ name, reason, cases: [] as string[] }));
const other: Failure[] = [];
for (const failure of failures) {
  const index = GROUPS.findIndex(([, , test]) => test(failure));
  if (index < 0) other.push(failure);
  else out[index]!.cases.push(failure.id);
}
if (other.length > 0) {
  for (const failure of other) process.stderr.write(`no group: ${failure.id} | ${failure.expr} | ${failure.why}\n`);
  process.exit(1);
}
const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
let text = `// Conformance cases the product's CEL (@marcbachmann/cel-js through evaluateCel) knowingly fails, grouped by
// cause. cel-conformance.test.ts fails when a case outside this list fails AND when a listed case starts
// passing, so the list stays true. Generated by generate-skips.ts from the actual failures; every id is
// file/section/name of cel-spec's simple tests as shipped in @bufbuild/cel-spec.

export interface SkipGroup {
  /** Why these cases fail, true for every case in the group. */
  reason: string;
  cases: readonly string[];
}

export const CEL_SKIPS: Record<string, SkipGroup> = {
`;
for (const group of out) {
  if (group.cases.length === 0) continue;
  text += `  ${group.name}: {\n    reason:\n      ${quote(group.reason)},\n    cases: [\n${group.cases.map((id) => `      ${quote(id)},`).join('\n')}\n    ],\n  },\n`;
}
text += `};

/** Every skipped case id → its group. */
export function skippedCases(): Map<string, string> {
  const out = new Map<string, string>();
  for (const [group, { cases }] of Object.entries(CEL_SKIPS)) for (const id of cases) out.set(id, group);
  return out;
}
`;
fs.writeFileSync(path.join(import.meta.dirname, 'cel-skips.ts'), text);
for (const group of out) if (group.cases.length > 0) process.stdout.write(`${group.name}: ${group.cases.length}\n`);
